/** RPC patterns of the accounts service: public endpoints, and ledger commands for other services. */
export const AccountsRpc = {
  listCustomerInternalAccounts: 'accounts.internal-accounts.list',
  listPlatformInternalAccounts: 'accounts.platform-internal-accounts.list',
  sandboxFund: 'accounts.sandbox.fund',
  ping: 'accounts.ping',
} as const;
