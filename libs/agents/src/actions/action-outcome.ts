import type { Quote, Transaction } from '@payments/contracts';

/**
 * What a run of an EXECUTE_QUOTE action does with its quote as it is now. A quote carries its transaction id from
 * creation, so only its status tells whether it was executed:
 * - EXPIRED: expired (or PENDING past its expiresAt): the action fails with QUOTE_EXPIRED;
 * - EXECUTE: PENDING and in time: execute it;
 * - EXECUTED: executed by this step before (PROCESSING, COMPLETED, FAILED): its transaction is the one;
 * - NOT_EXECUTABLE: any other status (PENDING_AUTHORIZATION).
 */
export function quoteStep(quote: Pick<Quote, 'status' | 'expiresAt'>, nowMs: number): 'EXPIRED' | 'EXECUTE' | 'EXECUTED' | 'NOT_EXECUTABLE' {
  if (quote.status === 'EXPIRED' || (quote.status === 'PENDING' && Date.parse(quote.expiresAt) <= nowMs)) return 'EXPIRED';
  if (quote.status === 'PENDING') return 'EXECUTE';
  return quote.status === 'PROCESSING' || quote.status === 'COMPLETED' || quote.status === 'FAILED' ? 'EXECUTED' : 'NOT_EXECUTABLE';
}

/**
 * Why the action failed when the operation ran but its transaction came back FAILED (a transfer beyond the balance
 * is created FAILED): the finer reason where there is one (INSUFFICIENT_FUNDS rather than QUOTE_EXECUTION_FAILED).
 * Undefined when the transaction did not fail.
 */
export function transactionFailure(transaction: Pick<Transaction, 'status'> & { failureReason?: string; failureDetail?: string }): string | undefined {
  if (transaction.status !== 'FAILED') return undefined;
  return transaction.failureDetail ?? transaction.failureReason ?? 'EXECUTION_FAILED';
}
