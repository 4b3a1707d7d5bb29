import type { ACCOUNTS_EVENTS, Catalogued, InternalAccountBalanceChangedData, Mode } from '@payments/contracts';

export type { BalanceChangeCause } from '@payments/contracts';

/**
 * Who owns a ledger account. CUSTOMER and PLATFORM accounts hold real balances and can never go below zero; SYSTEM
 * accounts (rail clearing, FX, fees, sandbox funding) mirror the outside world and may, so that every posting still
 * has a balancing side: per currency, the sum over all accounts is always zero.
 */
export type LedgerOwner = 'CUSTOMER' | 'PLATFORM' | 'SYSTEM';

export type LedgerAccountOpened = {
  type: 'LedgerAccountOpened.v1';
  data: { accountId: string; platformId: string; mode: Mode; owner: LedgerOwner; customerId?: string; currency: string; purpose: string; openedAt: string };
};

/** One side of a balanced journal entry: `amount` > 0 is a credit to this account, < 0 a debit. */
export type PostingRecorded = {
  type: 'PostingRecorded.v1';
  data: { entryId: string; reference: string; amount: number; counterpartyAccountId: string; kind: string; holdId?: string; balanceAfter: number; at: string };
};

export type HoldPlaced = { type: 'HoldPlaced.v1'; data: { holdId: string; amount: number; expiresAt?: string; reference: string; at: string } };

/** The hold stops reserving funds: captured (its posting follows in the same entry), released, or expired. */
export type HoldClosed = { type: 'HoldClosed.v1'; data: { holdId: string; amount: number; outcome: 'CAPTURED' | 'RELEASED' | 'EXPIRED'; at: string } };

/**
 * The contract for consumers (webhooks, other services): a CUSTOMER or PLATFORM account's `balance` (available) or
 * `totalBalance` changed. Appended by the decider after the events that caused it, in the same append; never for
 * SYSTEM accounts. Its data is declared public in libs/contracts (ACCOUNTS_EVENTS); the ledger events above are internal.
 */
export type InternalAccountBalanceChanged = { type: 'InternalAccountBalanceChanged.v1'; data: InternalAccountBalanceChangedData };

export type LedgerAccountEvent = LedgerAccountOpened | PostingRecorded | HoldPlaced | HoldClosed | InternalAccountBalanceChanged;

/** Every event of the stream is declared in the accounts catalogue, its stored data fitting the declaration. */
const _declared: Catalogued<typeof ACCOUNTS_EVENTS, LedgerAccountEvent> = true;
