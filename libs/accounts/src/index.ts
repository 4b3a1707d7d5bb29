export * from './accounts';
export * from './accounts.server';
export * from './ledger/ledger.service';
export * from './ledger/ledger-check';
export * from './ledger/ledger-commands';
export * from './internal-accounts/internal-account.service';
export * from './external-accounts/external-account.service';
export * from './external-accounts/receiver-lookup';
