import { DomainError } from './decider';
import { ident, queryPrepared, queryRows, SqlExecutor } from './sql';

/** A client's Idempotency-Key as the gateway hands it to a service: scoped to platform and mode. */
export interface IdempotencyScope {
  platformId: string;
  mode: string;
  key: string;
  /** Hash of method, path and canonical body: the same key with another request is refused. */
  requestHash: string;
}

/** Claims the scope for `resourceId` inside the transaction of the effect's first event. */
export type ClaimInTransaction = (tx: SqlExecutor) => Promise<void>;

/** Another request claimed the key first (it committed while this one ran): answer with its resource. */
export class IdempotencyKeyClaimed extends Error {
  constructor(readonly resourceId: string) {
    super(`idempotency key already claimed for ${resourceId}`);
  }
}

const reused = () => new DomainError('IDEMPOTENCY_KEY_REUSED', 'this Idempotency-Key was used with a different request');

/**
 * Idempotency bound to the effect: the key is claimed in the same transaction as the first event of what the
 * request creates, so a retry after a crash at any point finds the original resource and never makes a second one.
 * The gateway's response cache answers most retries before they get here; this is what holds when it cannot
 * (the process died before it stored the answer).
 */
export class IdempotencyClaims {
  private readonly table: string;

  constructor(
    private readonly db: SqlExecutor,
    schema: string,
  ) {
    this.table = `${ident(schema)}.idempotency_claims`;
  }

  /**
   * Runs `create` at most once per key. `create` gets a claim function to call inside the transaction of its first
   * event (or passes it to the write path as `CommandRequest.claim`); a retry of a key already claimed gets
   * `replay(resourceId)` instead, which answers from the resource as it is now. Without a scope, `create` just runs.
   */
  async run<T>(
    scope: IdempotencyScope | undefined,
    operation: string,
    resourceId: string,
    create: (claim: ClaimInTransaction) => Promise<T>,
    replay: (resourceId: string) => Promise<T>,
  ): Promise<T> {
    if (!scope) return create(async () => undefined);
    const existing = await this.find(this.db, scope, operation);
    if (existing) return replay(existing);
    try {
      return await create((tx) => this.claim(tx, scope, operation, resourceId));
    } catch (error) {
      if (error instanceof IdempotencyKeyClaimed) return replay(error.resourceId);
      throw error;
    }
  }

  /** The resource a key was claimed for, if any; another request under the same key is 409 IDEMPOTENCY_KEY_REUSED. */
  async find(db: SqlExecutor, scope: IdempotencyScope, operation: string): Promise<string | undefined> {
    const [row] = await queryPrepared<{ request_hash: string; operation: string; resource_id: string }>(
      db,
      `SELECT request_hash, operation, resource_id FROM ${this.table} WHERE platform_id = $1 AND mode = $2 AND idempotency_key = $3`,
      [scope.platformId, scope.mode, scope.key],
    );
    if (!row) return undefined;
    if (row.request_hash !== scope.requestHash || row.operation !== operation) throw reused();
    return row.resource_id;
  }

  /**
   * Inserts the claim; a concurrent claimer of the same key waits on the unique index until this transaction
   * ends, then finds the row and raises IdempotencyKeyClaimed (its own work rolls back with it).
   */
  async claim(tx: SqlExecutor, scope: IdempotencyScope, operation: string, resourceId: string): Promise<void> {
    const inserted = await queryPrepared(
      tx,
      `INSERT INTO ${this.table} (platform_id, mode, idempotency_key, request_hash, operation, resource_id)
       VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING RETURNING 1`,
      [scope.platformId, scope.mode, scope.key, scope.requestHash, operation, resourceId],
    );
    if (inserted.length === 1) return;
    const existing = await this.find(tx, scope, operation);
    throw new IdempotencyKeyClaimed(existing ?? resourceId);
  }

  /** Claims older than `olderThanMs` (never less than the 24 h the API promises) are forgotten. */
  async purge(olderThanMs: number): Promise<number> {
    const rows = await queryRows(this.db, `DELETE FROM ${this.table} WHERE created_at < now() - ($1::bigint * interval '1 ms') RETURNING 1`, [
      Math.max(olderThanMs, 24 * 60 * 60 * 1000),
    ]);
    return rows.length;
  }
}
