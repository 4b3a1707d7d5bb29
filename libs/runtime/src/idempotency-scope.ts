import type { CallerContext } from '@payments/contracts';
import type { IdempotencyScope } from '@payments/eventsourcing';

/** The caller's Idempotency-Key as a claim scope (platform and mode), when the request carried one. */
export function idempotencyScopeOf(caller: CallerContext): IdempotencyScope | undefined {
  if (!caller.idempotency) return undefined;
  return { platformId: caller.platformId, mode: caller.mode, key: caller.idempotency.key, requestHash: caller.idempotency.requestHash };
}
