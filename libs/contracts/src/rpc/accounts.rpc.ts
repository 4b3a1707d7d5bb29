import type {
  ConfirmUntrustRequest,
  CreateExternalAccountRequest,
  CreatePlatformExternalAccountRequest,
  CaptureHoldRequest,
  CreditRequest,
  DiscoveriesQuery,
  Discovery,
  ExternalAccount,
  FundInternalAccountRequest,
  InternalAccount,
  InternalAccountType,
  LedgerAccountBalance,
  LedgerEntryResult,
  ListExternalAccountsQuery,
  ListInternalAccountsQuery,
  ListPlatformExternalAccountsQuery,
  ListPlatformInternalAccountsQuery,
  LedgerReferenceBody,
  PlaceHoldRequest,
  ReceiverLookup,
  ReceiverLookupQuery,
  ReleaseHoldRequest,
  ReverseEntryRequest,
  TransferRequest,
  UntrustChallenge,
  UntrustConfirmed,
  UpdateInternalAccountRequest,
} from '../accounts';
import type { Page } from '../pagination';
import type { PaymentInstructions } from '../quotes';
import type { TransactionLedger } from '../transactions/transaction-ledger.dto';
import type { SignedBody, SignedOutcome, SignedRequestChallenge } from '../wallet-auth';
import type { Mode } from './rpc';
import { pingRpc } from './rpc';
import { rawRpc, rpc, sandboxRpc } from './rpc-contract';

/** RPC contracts of the accounts service: public endpoints, and ledger commands for other services. */
export const AccountsRpc = {
  listCustomerInternalAccounts: rpc<ListInternalAccountsQuery, Page<InternalAccount>>('accounts.internal-accounts.list'),
  listPlatformInternalAccounts: rpc<ListPlatformInternalAccountsQuery, PlatformInternalAccounts>('accounts.platform-internal-accounts.list'),
  sandboxFund: sandboxRpc<SandboxFundBody, InternalAccount>('accounts.sandbox.fund'),
  /**
   * PATCH /internal-accounts/{id}: an Embedded Wallet's settings (`privateEnabled`). A signed retry: without the
   * signature headers it answers the challenge (wallet-auth's), with them the updated account.
   */
  updateInternalAccount: rpc<SignedBody<UpdateInternalAccountBody>, SignedOutcome<InternalAccount, SignedRequestChallenge>>('accounts.internal-accounts.update'),
  ping: pingRpc('accounts.ping'),
  createExternalAccount: rpc<CreateExternalAccountRequest, ExternalAccount>('accounts.external-accounts.create'),
  createPlatformExternalAccount: rpc<CreatePlatformExternalAccountRequest, ExternalAccount>('accounts.platform-external-accounts.create'),
  listExternalAccounts: rpc<ListExternalAccountsQuery, Page<ExternalAccount>>('accounts.external-accounts.list'),
  listPlatformExternalAccounts: rpc<ListPlatformExternalAccountsQuery, Page<ExternalAccount>>('accounts.platform-external-accounts.list'),
  getExternalAccount: rpc<ExternalAccountIdBody, ExternalAccount>('accounts.external-accounts.get'),
  /** Answers null: undefined would send no reply at all. */
  deleteExternalAccount: rpc<ExternalAccountIdBody, null>('accounts.external-accounts.delete'),
  /** GET /platform/external-accounts/{id}: the platform's own accounts only (a customer's is 404 REFERENCE_NOT_FOUND). */
  getPlatformExternalAccount: rpc<ExternalAccountIdBody, ExternalAccount>('accounts.platform-external-accounts.get'),
  /** DELETE /platform/external-accounts/{id}: as deleteExternalAccount, the platform's own accounts only. */
  deletePlatformExternalAccount: rpc<ExternalAccountIdBody, null>('accounts.platform-external-accounts.delete'),
  beginUntrustExternalAccount: rpc<ExternalAccountIdBody, UntrustChallenge>('accounts.external-accounts.untrust'),
  confirmUntrustExternalAccount: rpc<ConfirmUntrustBody, UntrustConfirmed>('accounts.external-accounts.untrust-confirm'),
  /** For the SCA flow (quoting) once a customer confirms a beneficiary as trusted. */
  trustExternalAccount: rpc<ExternalAccountIdBody, ExternalAccount>('accounts.external-accounts.trust'),
  /**
   * For payments: 400 EXTERNAL_ACCOUNT_VERIFICATION_REQUIRED unless the account is ACTIVE, 404 if none. Scoped by the
   * platform and mode in the payload itself (no `{caller, body}`).
   */
  assertExternalAccountCanReceive: rawRpc<AssertExternalAccountCanReceiveRequest, PayableExternalAccount>('accounts.external-accounts.assert-can-receive'),
  /**
   * The entry point of a payout rail that verifies accounts (PAYOUT_RAIL, e.g. an ACH prenote: the next rail to come;
   * nothing calls it yet): a production account waiting for its rail becomes ACTIVE (VERIFIED) or UNVERIFIED (FAILED),
   * with the EXTERNAL_ACCOUNT.STATUS_UPDATED webhook. A repeat of the outcome already recorded answers the account and
   * appends nothing (rails redeliver); another outcome, or an account not waiting for a rail, is 409; unknown is 404.
   */
  recordRailVerification: rawRpc<RecordRailVerificationRequest, ExternalAccount>('accounts.external-accounts.rail-verification'),
  receiverLookup: rpc<ReceiverLookupBody, ReceiverLookup>('accounts.receiver.external-account'),
  /** For payments' rail simulation: `{externalAccountId}` → `{suffix}`, the sandbox magic suffix of the primary identifier (or null). */
  getExternalAccountSandboxSuffix: rpc<ExternalAccountIdBody, ExternalAccountSandboxSuffix>('accounts.external-accounts.sandbox-suffix'),
  /** For quoting: `{accountId}` → AccountCurrency of an internal or external account of the caller's platform; 404 otherwise. */
  getAccountCurrency: rpc<AccountIdBody, AccountCurrency>('accounts.account-currency.get'),
  /**
   * For payments' transfers: both accounts of a transfer and the external one as a payee, in one call (the money
   * path's lookups, issue #30). Nothing is refused here: the caller applies its own rules in its own order.
   */
  getTransferAccounts: rpc<TransferAccountsBody, TransferAccounts>('accounts.transfer-accounts.get'),
  /** For quoting: `{reference, currency}` → PaymentInstructions[] for paying a REALTIME_FUNDING quote in (sandbox only; none in production). */
  /**
   * For payments' incoming credits: the production internal account a credit to the deposit account is for, by a
   * virtual account number or a reference code in the texts (funding-references.ts), or the account an operator
   * names (`internalAccountId`); null when none (or two) match. Across every platform: the answer names its platform.
   */
  matchFunding: rawRpc<MatchFundingRequest, FundingAccountMatch | null>('accounts.funding.match'),
  realtimeFundingInstructions: rpc<RealtimeFundingInstructionsBody, PaymentInstructions[]>('accounts.realtime-funding.instructions'),
} as const;

/** AccountsRpc.listPlatformInternalAccounts: every platform internal account, unpaginated. */
export interface PlatformInternalAccounts {
  data: InternalAccount[];
}

export interface AccountIdBody {
  accountId: string;
}

/** AccountsRpc.sandboxFund: POST /sandbox/internal-accounts/{accountId}/fund. */
export interface SandboxFundBody extends AccountIdBody, FundInternalAccountRequest {}

/** AccountsRpc.updateInternalAccount (with the signature headers): PATCH /internal-accounts/{id}. */
export interface UpdateInternalAccountBody extends AccountIdBody, UpdateInternalAccountRequest {}

export interface ExternalAccountIdBody {
  externalAccountId: string;
}

/** AccountsRpc.confirmUntrustExternalAccount. */
export interface ConfirmUntrustBody extends ExternalAccountIdBody, ConfirmUntrustRequest {}

/** AccountsRpc.assertExternalAccountCanReceive: the whole payload (no caller). */
export interface AssertExternalAccountCanReceiveRequest extends ExternalAccountIdBody {
  platformId: string;
  mode: Mode;
}

/** AccountsRpc.recordRailVerification: the whole payload (no caller: a rail acts for no platform credential). */
export interface RecordRailVerificationRequest extends ExternalAccountIdBody {
  platformId: string;
  mode: Mode;
  outcome: 'VERIFIED' | 'FAILED';
  /** The rail that verified, e.g. `ACH` (recorded on the account's stream, ExternalAccountRailVerificationRecorded.v1). */
  rail: string;
  /** Why it failed, in the rail's words (e.g. an ACH return code). */
  reason?: string;
}

/** AccountsRpc.receiverLookup: GET /receiver/external-account/{accountId}. */
export interface ReceiverLookupBody extends ReceiverLookupQuery {
  accountId: string;
}

/** AccountsRpc.assertExternalAccountCanReceive: an ACTIVE account and its sandbox suffix (one call on the money path). */
export interface PayableExternalAccount {
  account: ExternalAccount;
  sandboxSuffix: string | null;
}

/** AccountsRpc.getExternalAccountSandboxSuffix. */
export interface ExternalAccountSandboxSuffix {
  suffix: string | null;
}

/** AccountsRpc.matchFunding. */
export interface MatchFundingRequest {
  currency: string;
  /** Free texts of the credit (remittance information, creditor reference, end-to-end id): searched for a reference code. */
  texts: string[];
  /** Account numbers the credit was addressed to (the creditor account): a virtual account number matches. */
  accountNumbers: string[];
  /** An operator's choice instead: this production customer or platform account, if it is in `currency`. */
  internalAccountId?: string;
}

/** AccountsRpc.matchFunding's answer: the account and its owner, and what matched. */
export interface FundingAccountMatch {
  accountId: string;
  platformId: string;
  mode: Mode;
  customerId: string | null;
  currency: string;
  matchedBy: 'REFERENCE' | 'VIRTUAL_ACCOUNT_NUMBER' | 'OPERATOR';
}

/** AccountsRpc.realtimeFundingInstructions. */
export interface RealtimeFundingInstructionsBody {
  reference: string;
  currency: string;
}

/** AccountsRpc.getTransferAccounts: the transfer's two account ids as given, and which one should be the payee. */
export interface TransferAccountsBody {
  sourceAccountId: string;
  destinationAccountId: string;
  /** The side that must be an external account the money comes from or goes to. */
  externalSide: 'source' | 'destination';
}

/** AccountsRpc.getTransferAccounts: null where the caller has no such internal or external account. */
export interface TransferAccounts {
  source: AccountCurrency | null;
  destination: AccountCurrency | null;
  /** The external side's account and sandbox suffix, whatever its status; null when it is not an external account. */
  payee: PayableExternalAccount | null;
}

/** What quoting needs to know about an account it quotes from or to (accounts owns currencies). */
export interface AccountCurrency {
  accountId: string;
  kind: 'INTERNAL' | 'EXTERNAL';
  /** Internal accounts: INTERNAL_FIAT, INTERNAL_CRYPTO or EMBEDDED_WALLET. */
  internalType?: InternalAccountType;
  currency: string;
  /** CUSTOMER or PLATFORM (internal); the external account's owner likewise. */
  owner: 'CUSTOMER' | 'PLATFORM';
  customerId?: string;
  /** Internal accounts: ACTIVE; external accounts: their verification status. */
  status: string;
}

/** Ledger commands for other services (payments); no public HTTP. Bodies and answers: libs/contracts/src/accounts/ledger.dto.ts. */
export const LedgerRpc = {
  placeHold: rpc<PlaceHoldRequest, LedgerAccountBalance>('accounts.ledger.hold.place'),
  captureHold: rpc<CaptureHoldRequest, LedgerAccountBalance>('accounts.ledger.hold.capture'),
  releaseHold: rpc<ReleaseHoldRequest, LedgerAccountBalance>('accounts.ledger.hold.release'),
  credit: rpc<CreditRequest, LedgerAccountBalance>('accounts.ledger.credit'),
  reverse: rpc<ReverseEntryRequest, LedgerEntryResult>('accounts.ledger.reverse'),
  transfer: rpc<TransferRequest, LedgerEntryResult>('accounts.ledger.transfer'),
  /**
   * A read: the postings whose reference is `reference` (and the reversals of their entries) and the holds placed
   * with it, in the caller's platform and mode. Empty lists when there are none (whether the reference names
   * anything is its owner's to say: payments answers 404 for a transaction it does not know).
   */
  ofReference: rpc<LedgerReferenceBody, TransactionLedger>('accounts.ledger.reference.get'),
} as const;

/** GET /discoveries: the institution catalogue. */
export const DiscoveriesRpc = {
  list: rpc<DiscoveriesQuery, Discoveries>('accounts.discoveries.list'),
} as const;

/** DiscoveriesRpc.list. */
export interface Discoveries {
  data: Discovery[];
}
