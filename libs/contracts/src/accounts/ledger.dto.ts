/**
 * Ledger commands other services (payments) send to accounts over RPC (`LedgerRpc`); no public HTTP route. Every
 * command is idempotent by the id the caller supplies (`holdId`, `entryId`, `reversalEntryId`): sending it again
 * changes nothing and answers the current balances; the same id with other amounts is 409 CONFLICT. Amounts are
 * positive integers in the smallest unit of the currency. Accounts are the caller's own (platformId and mode of the
 * RpcRequest caller); any other account answers 404 NOT_FOUND. Errors travel as the error envelope
 * (INSUFFICIENT_FUNDS, HOLD_NOT_FOUND, HOLD_ALREADY_CLOSED, HOLD_EXPIRED, CAPTURE_EXCEEDS_HOLD, INVALID_CURRENCY, ...).
 */

/** System accounts (one per platform, mode, purpose and currency) that balance movements in and out of the platform. */
/** SUSPENSE holds money a failed payout could not return (sandbox 007) until an operator resolves it; CARD_NETWORK is the card network's clearing: what card pulls took and settlements, refunds and releases gave back; STABLECOIN_RESERVE is the fiat a provider holds behind the stablecoins minted (mints credit it, burns debit it); RETURN_SHORTFALL is what a bank took back that an account could no longer give (a return after the money was spent): its negative balance is the platform's debt to recover (docs/accounts.md). */
export const LEDGER_SYSTEM_PURPOSES = ['CLEARING', 'FX', 'FEES', 'PLATFORM_FEES', 'SANDBOX_FUNDING', 'SUSPENSE', 'CARD_NETWORK', 'STABLECOIN_RESERVE', 'RETURN_SHORTFALL'] as const;
export type LedgerSystemPurpose = (typeof LEDGER_SYSTEM_PURPOSES)[number];

/** Longest hold a caller can ask for (7 days); longer reservations are a modelling error. */
export const HOLD_EXPIRY_MAX_MS = 7 * 24 * 60 * 60 * 1000;

/** Reserves `amount` on a customer or platform account; with `expiresInMs`, released as EXPIRED unless captured first. */
export interface PlaceHoldRequest {
  accountId: string;
  holdId: string;
  amount: number;
  currency: string;
  /** Real milliseconds (not scaled by SANDBOX_TIME_SCALE), at most HOLD_EXPIRY_MAX_MS. */
  expiresInMs?: number;
  /** What the hold is for (e.g. `Transaction:<id>`); defaults to holdId. */
  reference?: string;
}

/** Debits `amount` (at most the held amount) out of the hold to a system account or another account; the rest is freed. */
export interface CaptureHoldRequest {
  accountId: string;
  holdId: string;
  amount: number;
  entryId: string;
  /** Exactly one of toPurpose and toAccountId. */
  toPurpose?: LedgerSystemPurpose;
  toAccountId?: string;
  reference?: string;
  kind?: string;
}

export interface ReleaseHoldRequest {
  accountId: string;
  holdId: string;
}

/** Credits an account from a system account (an incoming payment settles from CLEARING, for example). */
export interface CreditRequest {
  accountId: string;
  amount: number;
  currency: string;
  fromPurpose: LedgerSystemPurpose;
  entryId: string;
  reference?: string;
  kind?: string;
}

/** Posts the inverse of a posted entry (a returned payment). An entry can be reversed once. */
export interface ReverseEntryRequest {
  originalEntryId: string;
  reversalEntryId: string;
  /**
   * What a debited customer or platform account can no longer give back (its available balance is short) is taken
   * from this system account instead, so the reversal posts whole (a bank return after the money was spent).
   */
  shortfallTo?: LedgerSystemPurpose;
}

/** One leg of a transfer: exactly one of accountId and purpose; `amount` > 0 credits, < 0 debits (with holdId: captures). */
export interface TransferLeg {
  accountId?: string;
  purpose?: LedgerSystemPurpose;
  currency: string;
  amount: number;
  holdId?: string;
}

/** A balanced entry of two or more legs in one currency, posted all or nothing. */
export interface TransferRequest {
  entryId: string;
  legs: TransferLeg[];
  reference?: string;
  kind?: string;
}

/** A customer or platform account's balances after the command. */
export interface LedgerAccountBalance {
  accountId: string;
  customerId?: string;
  currency: string;
  /** Available: total minus held funds. */
  balance: number;
  totalBalance: number;
}

/** The answer to reverse and transfer: the entry and the balances of the customer and platform accounts it touched. */
export interface LedgerEntryResult {
  entryId: string;
  balances: LedgerAccountBalance[];
}

/** What the ledger holds under one reference (a transaction id), in the caller's platform and mode: LedgerRpc.ofReference. */
export interface LedgerReferenceBody {
  reference: string;
}
