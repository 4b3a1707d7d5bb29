export * from './accounts';
export * from './accounts.server';
export * from './ledger/ledger.service';
export * from './ledger/ledger-check';
export * from './internal-accounts/internal-account.service';
