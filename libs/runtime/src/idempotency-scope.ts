import type { CallerContext } from '@payments/contracts';
import type { IdempotencyScope } from '@payments/eventsourcing';

/**
 * The caller's Idempotency-Key as a claim scope (platform and mode), when the request carried one. An operator has no
 * platform: their keys are scoped to them, so two operators sending the same key never meet.
 */
export function idempotencyScopeOf(caller: CallerContext): IdempotencyScope | undefined {
  if (!caller.idempotency) return undefined;
  const platformId = caller.operator ? `operator:${caller.operator.operatorId}` : caller.platformId;
  return { platformId, mode: caller.mode, key: caller.idempotency.key, requestHash: caller.idempotency.requestHash };
}
