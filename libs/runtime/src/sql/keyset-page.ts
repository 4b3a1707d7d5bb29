import { decodeCursor, encodeCursor, Page, PAGE_LIMIT_DEFAULT } from '@payments/contracts';
import { queryRows, SqlExecutor } from '@payments/eventsourcing';

export interface KeysetPageRequest<TRow, TItem> {
  db: SqlExecutor;
  /** `FROM … WHERE …` with $1..$n placeholders for `params`; must already scope by platform and mode. */
  from: string;
  params: unknown[];
  /** A unique, immutable, sortable text column (UUIDv7 ids sort by creation time). */
  keyColumn: string;
  /** Newest first by default. */
  order?: 'asc' | 'desc';
  limit?: number;
  cursor?: string;
  select?: string;
  toItem: (row: TRow) => TItem;
  keyOf: (row: TRow) => string;
}

/**
 * One page of a keyset-paginated list (DESIGN §6). Keyset rather than offset: walking every page returns each
 * item exactly once even while new items are inserted (they sort before the cursor when newest comes first).
 */
export async function keysetPage<TRow, TItem>(request: KeysetPageRequest<TRow, TItem>): Promise<Page<TItem>> {
  const limit = request.limit ?? PAGE_LIMIT_DEFAULT;
  const desc = (request.order ?? 'desc') === 'desc';
  const key = `${request.keyColumn} COLLATE "C"`; // byte order: locale collations ignore '-' and ':'
  const params = [...request.params];
  let where = '';
  if (request.cursor) {
    params.push(decodeCursor(request.cursor));
    where = ` AND ${key} ${desc ? '<' : '>'} $${params.length}`;
  }
  const [rows, counted] = await Promise.all([
    queryRows<TRow>(request.db, `SELECT ${request.select ?? '*'} ${request.from}${where} ORDER BY ${key} ${desc ? 'DESC' : 'ASC'} LIMIT ${limit + 1}`, params),
    queryRows<{ n: number }>(request.db, `SELECT count(*)::int AS n ${request.from}`, request.params),
  ]);
  const hasMore = rows.length > limit;
  const pageRows = rows.slice(0, limit);
  return {
    data: pageRows.map(request.toItem),
    hasMore,
    ...(hasMore ? { nextCursor: encodeCursor(request.keyOf(pageRows[pageRows.length - 1])) } : {}),
    totalCount: counted[0].n,
  };
}

/**
 * The common case: a read model that stores the API resource in a `body` jsonb column, keyed by its id column.
 * `from` names the table; `where` is already scoped to the caller.
 */
export function keysetBodyPage<TItem>(request: {
  db: SqlExecutor;
  table: string;
  keyColumn: string;
  where: { sql: string; params: unknown[] };
  order?: 'asc' | 'desc';
  limit?: number;
  cursor?: string;
}): Promise<Page<TItem>> {
  return keysetPage<Record<string, any>, TItem>({
    db: request.db,
    from: `FROM ${request.table} WHERE ${request.where.sql}`,
    params: request.where.params,
    keyColumn: request.keyColumn,
    order: request.order,
    limit: request.limit,
    cursor: request.cursor,
    select: `${request.keyColumn}, body`,
    toItem: (row) => row.body as TItem,
    keyOf: (row) => row[request.keyColumn] as string,
  });
}
