import type { TransactionFailureReason } from '@payments/contracts';

/**
 * What the (simulated) rail will do with a transaction, decided once at creation and recorded with it:
 * - SUCCESS: settles after `delayMs`;
 * - FAIL: fails after `delayMs` before any money left (the hold is released);
 * - RETURNED: settles, then the bank returns it after `returnAfterMs` (the entries are reversed);
 * - CANCELLED: the payout is cancelled by the user and refunded (settled, then reversed);
 * - REFUND_FAILED: the payout fails and so does the refund: the money waits in SUSPENSE.
 * Delays are at the spec's timing; DurableTimers scale them by SANDBOX_TIME_SCALE.
 */
export interface SandboxRailScript {
  outcome: 'SUCCESS' | 'FAIL' | 'RETURNED' | 'CANCELLED' | 'REFUND_FAILED';
  delayMs: number;
  failureReason?: TransactionFailureReason;
  returnAfterMs?: number;
}

/**
 * A production payment: nothing is decided up front. The saga submits it to the connector routed for its currency
 * and rail (libs/payments/src/rails), and the rail's reports (a file imported, a bridge's callback, the ACH calendar)
 * settle, reject or return it later.
 */
export interface ConnectorRail {
  outcome: 'CONNECTOR';
  delayMs: 0;
  connectorId: string;
  paymentRail: string;
}

export type RailScript = SandboxRailScript | ConnectorRail;

/** The spec's "success" of a payout or pull: a short delay, so webhooks show PROCESSING then COMPLETED. */
export const RAIL_SETTLEMENT_MS = 2_000;
export const SLOW_PAYOUT_MS = 6 * 60_000;
export const PENDING_PULL_MS = 30_000;
export const RETURN_AFTER_MS = 30_000;
export const UMA_PENDING_LONG_MS = 60 * 60_000;
/**
 * How long an incoming UMA payment waits for POST /approve or /reject (the published 5 s). The dispatcher does not
 * report the platform's answer to the INCOMING_PAYMENT.PENDING webhook, so the sandbox reads a window that ends
 * unanswered as the synchronous 200 (approve) the published flow prefers (docs/payments.md).
 */
export const PLATFORM_APPROVAL_WINDOW_MS = 5_000;

/** Transfer-in (pull) suffixes; 002 and 003 fail at once (the transaction is created FAILED, nothing moves). */
export function sandboxPullScript(suffix: string | null): SandboxRailScript | { immediateFailure: TransactionFailureReason } {
  switch (suffix) {
    case '002':
      return { immediateFailure: 'INSUFFICIENT_FUNDS' };
    case '003':
      return { immediateFailure: 'ACCOUNT_CLOSED' };
    case '004':
      return { outcome: 'FAIL', delayMs: RAIL_SETTLEMENT_MS, failureReason: 'COLLECTION_FAILED' };
    case '005':
      return { outcome: 'FAIL', delayMs: PENDING_PULL_MS, failureReason: 'COLLECTION_FAILED' };
    default:
      return { outcome: 'SUCCESS', delayMs: RAIL_SETTLEMENT_MS };
  }
}

/** Transfer-out and quote payout suffixes of the destination account's primary identifier. */
export function sandboxPayoutScript(suffix: string | null): SandboxRailScript {
  switch (suffix) {
    case '002':
      return { outcome: 'FAIL', delayMs: RAIL_SETTLEMENT_MS, failureReason: 'QUOTE_EXECUTION_FAILED' };
    case '003':
      return { outcome: 'SUCCESS', delayMs: SLOW_PAYOUT_MS };
    case '004':
      return { outcome: 'FAIL', delayMs: RAIL_SETTLEMENT_MS, failureReason: 'ACCOUNT_CANNOT_RECEIVE' };
    case '005':
      return { outcome: 'RETURNED', delayMs: RAIL_SETTLEMENT_MS, failureReason: 'PAYOUT_RETURNED', returnAfterMs: RETURN_AFTER_MS };
    case '006':
      return { outcome: 'CANCELLED', delayMs: RAIL_SETTLEMENT_MS, failureReason: 'QUOTE_EXECUTION_FAILED' };
    case '007':
      return { outcome: 'REFUND_FAILED', delayMs: RAIL_SETTLEMENT_MS, failureReason: 'QUOTE_EXECUTION_FAILED' };
    default:
      return { outcome: 'SUCCESS', delayMs: RAIL_SETTLEMENT_MS };
  }
}

export const connectorRail = (connectorId: string, paymentRail: string): ConnectorRail => ({ outcome: 'CONNECTOR', delayMs: 0, connectorId, paymentRail });

/** Whether a COMPLETED payment may still turn FAILED: the sandbox's returned suffix, or any production rail's return. */
export const mayBeReturned = (rail: RailScript): boolean => rail.outcome === 'RETURNED' || rail.outcome === 'CONNECTOR';

/** Payments to an internal account never leave the ledger: they settle at once. */
export const INTERNAL_SCRIPT: SandboxRailScript = { outcome: 'SUCCESS', delayMs: 0 };

/** Sandbox UMA receivers (libs/uma's table): success, a long pending payout, or a compliance rejection (refunded). */
export function sandboxUmaScript(outcome: 'SUCCESS' | 'PENDING_LONG' | 'FAIL_COMPLIANCE' | undefined): SandboxRailScript {
  switch (outcome) {
    case 'SUCCESS':
      return { outcome: 'SUCCESS', delayMs: RAIL_SETTLEMENT_MS };
    case 'PENDING_LONG':
      return { outcome: 'SUCCESS', delayMs: UMA_PENDING_LONG_MS };
    case 'FAIL_COMPLIANCE':
      return { outcome: 'FAIL', delayMs: RAIL_SETTLEMENT_MS, failureReason: 'COMPLIANCE_REJECTED' };
    default:
      return { outcome: 'FAIL', delayMs: RAIL_SETTLEMENT_MS, failureReason: 'ACCOUNT_INVALID' };
  }
}
