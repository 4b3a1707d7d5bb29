import type { CurrencyAmount } from '../accounts/internal-accounts.dto';

/** Where a hold the ledger placed for a transaction stands: PENDING reserves funds; the others no longer do. */
export const LEDGER_HOLD_STATUSES = ['PENDING', 'CAPTURED', 'RELEASED', 'EXPIRED'] as const;
export type LedgerHoldStatus = (typeof LEDGER_HOLD_STATUSES)[number];

/**
 * One leg of a journal entry the ledger posted for a transaction (GET /transactions/{id}/ledger-postings). The
 * amount keeps the ledger's sign: negative debits `accountId`, positive credits it; an entry's legs sum to zero.
 */
export interface LedgerPosting {
  /** The entry: `<transactionId>/<key>` for a payment's, `<transactionId>/<key>/reversal` for its reversal. */
  entryId: string;
  /**
   * `InternalAccount:…` for a customer's or the platform's account; `SystemAccount:…` for the ledger's own
   * accounts (clearing, FX, fees, suspense, card network…), named as the ledger names them.
   */
  accountId: string;
  /** Signed, in the smallest unit: negative = a debit of the account, positive = a credit. */
  amount: CurrencyAmount;
  /** What the entry is, e.g. PAYMENT_PAYOUT, PAYMENT_SEND, CARD_PULL, REVERSAL. */
  kind: string;
  /** @format date-time */
  createdAt: string;
}

/** A hold the ledger placed on an account for the transaction (the amount reserved, positive). */
export interface LedgerHold {
  holdId: string;
  accountId: string;
  amount: CurrencyAmount;
  status: LedgerHoldStatus;
  /** @format date-time */
  createdAt: string;
  /** When it stopped reserving funds (absent while PENDING). @format date-time */
  closedAt?: string;
}

/** GET /transactions/{id}/ledger-postings: every posting and hold of the transaction, whole (a transaction has few). */
export interface TransactionLedger {
  /** By creation, then entry id, then account id. */
  data: LedgerPosting[];
  /** By creation, then hold id. */
  holds: LedgerHold[];
  /** Always false: the list is never cut. */
  hasMore: boolean;
}

