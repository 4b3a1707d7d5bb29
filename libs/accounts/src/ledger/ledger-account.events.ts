import type { Mode } from '@payments/contracts';

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

/** What moved a balance: the posting, hold or hold closing recorded just before it in the same append. */
export type BalanceChangeCause =
  | { type: 'POSTING'; entryId: string; kind: string; reference: string; amount: number; holdId?: string }
  | { type: 'HOLD_PLACED'; holdId: string; reference: string; amount: number }
  | { type: 'HOLD_CLOSED'; holdId: string; outcome: 'RELEASED' | 'EXPIRED'; amount: number };

/**
 * The contract for consumers (webhooks, other services): a CUSTOMER or PLATFORM account's `balance` (available) or
 * `totalBalance` changed. Appended by the decider after the events that caused it, in the same append; never for
 * SYSTEM accounts. Amounts are integers in the smallest unit of `currency`.
 */
export type InternalAccountBalanceChanged = {
  type: 'InternalAccountBalanceChanged.v1';
  data: {
    accountId: string;
    customerId?: string;
    mode: Mode;
    currency: string;
    balance: number;
    totalBalance: number;
    previousBalance: number;
    previousTotalBalance: number;
    cause: BalanceChangeCause;
    at: string;
  };
};

export type LedgerAccountEvent = LedgerAccountOpened | PostingRecorded | HoldPlaced | HoldClosed | InternalAccountBalanceChanged;
