import { Type } from 'class-transformer';
import { IsInt, IsString, Max, MaxLength, Min } from 'class-validator';
import { ApiError } from '../errors/api-error';
import { OptionalNotNull } from '../optional-not-null';

export const PAGE_LIMIT_DEFAULT = 20;
export const PAGE_LIMIT_MAX = 100;

/** Query of every paginated list: `limit` 1..100 (default 20) and the opaque `cursor` of the previous page. */
export class PageQuery {
  @OptionalNotNull()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(PAGE_LIMIT_MAX)
  limit?: number;

  @OptionalNotNull()
  @IsString()
  @MaxLength(512)
  cursor?: string;
}

/** `{data, hasMore, nextCursor?, totalCount}`: nextCursor only when hasMore. */
export interface Page<T> {
  data: T[];
  hasMore: boolean;
  nextCursor?: string;
  totalCount: number;
}

/** A position in a keyset-ordered list: the sort key of the last item returned. Versioned so it can evolve. */
interface CursorBody {
  v: 1;
  after: string;
}

export function encodeCursor(after: string): string {
  const body: CursorBody = { v: 1, after };
  return Buffer.from(JSON.stringify(body), 'utf8').toString('base64url');
}

/** Anything that is not a cursor this API issued is a 400, never a 500 or a silently empty page. */
export function decodeCursor(cursor: string): string {
  try {
    if (!/^[A-Za-z0-9_-]+$/.test(cursor)) throw new Error('not base64url');
    const body = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as Partial<CursorBody>;
    if (body.v !== 1 || typeof body.after !== 'string' || body.after.length === 0 || body.after.length > 256) throw new Error('bad body');
    return body.after;
  } catch {
    throw new ApiError('INVALID_INPUT', 'cursor is not valid for this list', { errors: [{ field: 'cursor', message: 'invalid cursor' }] });
  }
}
