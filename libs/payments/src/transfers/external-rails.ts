import type { ExternalAccount } from '@payments/contracts';

/** Rails an external account can be debited on (a pull): transfer-in sources and ACH-funded stablecoin mints. */
export const PULL_RAILS = ['ACH'];

/** The payment rails an external account's published form lists (fiat accounts; none for wallets). */
export const railsOf = (account: ExternalAccount): string[] => (Array.isArray(account.accountInfo.paymentRails) ? (account.accountInfo.paymentRails as string[]) : []);
