import { ApiError } from '../errors/api-error';
import type { CallerContext, Permission } from './rpc';

/**
 * A credential grants only what it holds: a caller may create a credential (an API token, an agent that can move
 * money) only with permissions it has itself, so a MANAGE-only key cannot mint a spending one. 403 FORBIDDEN names
 * what is missing.
 */
export function requireCallerHolds(caller: Pick<CallerContext, 'permissions'>, needed: readonly Permission[], what: string): void {
  const missing = needed.filter((p) => !caller.permissions.includes(p));
  if (missing.length > 0) throw new ApiError('FORBIDDEN', `${what} needs permission ${missing.join(', ')}, which this credential does not have`);
}
