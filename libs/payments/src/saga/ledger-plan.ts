import type { TransferLeg } from '@payments/contracts';

/** One balanced ledger entry the saga posts; its id is `<transactionId>/<key>`, so a retry posts it once. */
export interface PlannedEntry {
  key: string;
  legs: TransferLeg[];
}

/**
 * Every ledger movement a transaction may make, fixed at creation (recorded in TransactionCreated.v1) so a restarted
 * saga replays the same ids and amounts. `settle` posts on payout success; a return or a cancellation reverses it;
 * `strand` moves a payout that could neither land nor come back from CLEARING to SUSPENSE.
 */
export interface LedgerPlan {
  hold: { accountId: string; amount: number; currency: string } | null;
  settle: PlannedEntry[];
  strand: PlannedEntry | null;
}

export const holdIdOf = (transactionId: string) => `${transactionId}/hold`;
export const entryIdOf = (transactionId: string, key: string) => `${transactionId}/${key}`;
export const reversalIdOf = (transactionId: string, key: string) => `${transactionId}/${key}/reversal`;

const nonZero = (legs: TransferLeg[]) => legs.filter((l) => l.amount !== 0);

/** Internal → external, same currency: the hold is captured to CLEARING (the rail's settlement account). */
export function transferOutPlan(transactionId: string, sourceAccountId: string, amount: number, currency: string): LedgerPlan {
  return {
    hold: { accountId: sourceAccountId, amount, currency },
    settle: [{ key: 'payout', legs: [{ accountId: sourceAccountId, currency, amount: -amount, holdId: holdIdOf(transactionId) }, { purpose: 'CLEARING', currency, amount }] }],
    strand: { key: 'suspense', legs: [{ purpose: 'CLEARING', currency, amount: -amount }, { purpose: 'SUSPENSE', currency, amount }] },
  };
}

/** External → internal: the pulled funds settle from CLEARING into the internal account. */
export function transferInPlan(destinationAccountId: string, amount: number, currency: string): LedgerPlan {
  return { hold: null, settle: [{ key: 'credit', legs: [{ purpose: 'CLEARING', currency, amount: -amount }, { accountId: destinationAccountId, currency, amount }] }], strand: null };
}

export interface QuoteAmounts {
  sendingCurrency: string;
  receivingCurrency: string;
  totalSendingAmount: number;
  totalReceivingAmount: number;
  feesIncluded: number;
  platformFeesIncluded: number;
}

/**
 * A quote's execution: one balanced entry per currency. Sending: the source (capturing the hold) or, for realtime
 * funding, CLEARING pays total; FX gets total − fees, FEES the service's fees, PLATFORM_FEES the platform's. Receiving:
 * FX pays totalReceiving to the internal destination, or to CLEARING for a payout to an external account or UMA.
 */
export function quotePlan(transactionId: string, q: QuoteAmounts, source: { accountId: string } | 'REALTIME_FUNDING', destination: { internalAccountId: string } | 'PAYOUT'): LedgerPlan {
  const payer: TransferLeg =
    source === 'REALTIME_FUNDING'
      ? { purpose: 'CLEARING', currency: q.sendingCurrency, amount: -q.totalSendingAmount }
      : { accountId: source.accountId, currency: q.sendingCurrency, amount: -q.totalSendingAmount, holdId: holdIdOf(transactionId) };
  const sending = nonZero([
    payer,
    { purpose: 'FX', currency: q.sendingCurrency, amount: q.totalSendingAmount - q.feesIncluded },
    { purpose: 'FEES', currency: q.sendingCurrency, amount: q.feesIncluded - q.platformFeesIncluded },
    { purpose: 'PLATFORM_FEES', currency: q.sendingCurrency, amount: q.platformFeesIncluded },
  ]);
  const receiver: TransferLeg =
    destination === 'PAYOUT'
      ? { purpose: 'CLEARING', currency: q.receivingCurrency, amount: q.totalReceivingAmount }
      : { accountId: destination.internalAccountId, currency: q.receivingCurrency, amount: q.totalReceivingAmount };
  const receiving = [{ purpose: 'FX' as const, currency: q.receivingCurrency, amount: -q.totalReceivingAmount }, receiver];
  return {
    hold: source === 'REALTIME_FUNDING' ? null : { accountId: source.accountId, amount: q.totalSendingAmount, currency: q.sendingCurrency },
    settle: [
      { key: 'send', legs: sending },
      { key: 'receive', legs: receiving },
    ],
    strand:
      destination === 'PAYOUT'
        ? { key: 'suspense', legs: [{ purpose: 'CLEARING', currency: q.receivingCurrency, amount: -q.totalReceivingAmount }, { purpose: 'SUSPENSE', currency: q.receivingCurrency, amount: q.totalReceivingAmount }] }
        : null,
  };
}
