/** RPC patterns of the accounts service: public endpoints, and ledger commands for other services. */
export const AccountsRpc = {
  listCustomerInternalAccounts: 'accounts.internal-accounts.list',
  listPlatformInternalAccounts: 'accounts.platform-internal-accounts.list',
  sandboxFund: 'accounts.sandbox.fund',
  ping: 'accounts.ping',
  createExternalAccount: 'accounts.external-accounts.create',
  createPlatformExternalAccount: 'accounts.platform-external-accounts.create',
  listExternalAccounts: 'accounts.external-accounts.list',
  listPlatformExternalAccounts: 'accounts.platform-external-accounts.list',
  getExternalAccount: 'accounts.external-accounts.get',
  deleteExternalAccount: 'accounts.external-accounts.delete',
  beginUntrustExternalAccount: 'accounts.external-accounts.untrust',
  confirmUntrustExternalAccount: 'accounts.external-accounts.untrust-confirm',
  /** For the SCA flow (quoting) once a customer confirms a beneficiary as trusted. */
  trustExternalAccount: 'accounts.external-accounts.trust',
  /** For payments: 400 EXTERNAL_ACCOUNT_VERIFICATION_REQUIRED unless the account is ACTIVE, 404 if none. */
  assertExternalAccountCanReceive: 'accounts.external-accounts.assert-can-receive',
  receiverLookup: 'accounts.receiver.external-account',
  /** For payments' rail simulation: `{externalAccountId}` → `{suffix}`, the sandbox magic suffix of the primary identifier (or null). */
  getExternalAccountSandboxSuffix: 'accounts.external-accounts.sandbox-suffix',
  /** For quoting: `{accountId}` → AccountCurrency of an internal or external account of the caller's platform; 404 otherwise. */
  getAccountCurrency: 'accounts.account-currency.get',
  /** For quoting: `{reference, currency}` → PaymentInstructions[] for paying a REALTIME_FUNDING quote in (sandbox only; none in production). */
  realtimeFundingInstructions: 'accounts.realtime-funding.instructions',
} as const;

/** What quoting needs to know about an account it quotes from or to (accounts owns currencies). */
export interface AccountCurrency {
  accountId: string;
  kind: 'INTERNAL' | 'EXTERNAL';
  currency: string;
  /** CUSTOMER or PLATFORM (internal); the external account's owner likewise. */
  owner: 'CUSTOMER' | 'PLATFORM';
  customerId?: string;
  /** Internal accounts: ACTIVE; external accounts: their verification status. */
  status: string;
}

/** Ledger commands for other services (payments); no public HTTP. Bodies and answers: libs/contracts/src/accounts/ledger.dto.ts. */
export const LedgerRpc = {
  placeHold: 'accounts.ledger.hold.place',
  captureHold: 'accounts.ledger.hold.capture',
  releaseHold: 'accounts.ledger.hold.release',
  credit: 'accounts.ledger.credit',
  reverse: 'accounts.ledger.reverse',
  transfer: 'accounts.ledger.transfer',
} as const;

/** GET /discoveries: the institution catalogue. */
export const DiscoveriesRpc = {
  list: 'accounts.discoveries.list',
} as const;
