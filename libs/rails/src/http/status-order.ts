import type { RailPaymentStatusValue } from './protocol';

/** What we last applied for a payment. */
export interface RailStatusPosition {
  status: RailPaymentStatusValue;
  sequence: number;
}

export interface RailStatusDecision {
  apply: boolean;
  /** Why, for the log line (never shown to tenants). */
  why: string;
}

const TERMINAL: ReadonlySet<RailPaymentStatusValue> = new Set(['REJECTED', 'RETURNED']);

/**
 * Whether a status reported by a bridge (the submit's answer, a poll, a callback) moves the payment. Reports can
 * arrive duplicated, out of order, and a callback before the submit's answer, so each carries a `sequence` that grows
 * per payment: anything not newer than what was applied changes nothing. REJECTED and RETURNED are final; SETTLED is
 * final except for a RETURNED (a bank can send money back after settling). PENDING moves to anything newer.
 * Pure: the caller keeps the position with the payment and applies the incoming status when `apply` is true.
 */
export function nextRailStatus(current: RailStatusPosition | undefined, incoming: RailStatusPosition): RailStatusDecision {
  if (current === undefined) return { apply: true, why: `first status ${incoming.status} (sequence ${incoming.sequence})` };
  if (incoming.sequence === current.sequence) {
    return { apply: false, why: `sequence ${incoming.sequence} already applied (duplicate)` };
  }
  if (incoming.sequence < current.sequence) {
    return { apply: false, why: `sequence ${incoming.sequence} is older than the applied ${current.sequence} (out of order)` };
  }
  if (TERMINAL.has(current.status)) {
    return { apply: false, why: `${current.status} is final; ${incoming.status} (sequence ${incoming.sequence}) ignored` };
  }
  if (current.status === 'SETTLED' && incoming.status !== 'RETURNED') {
    return { apply: false, why: `SETTLED only moves to RETURNED; ${incoming.status} (sequence ${incoming.sequence}) ignored` };
  }
  return { apply: true, why: `${current.status} → ${incoming.status} (sequence ${current.sequence} → ${incoming.sequence})` };
}
