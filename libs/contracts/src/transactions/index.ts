export * from './transactions.dto';
export * from './transaction-events';
export * from './transaction-approvals.rpc';
export * from './transaction-ledger.dto';
