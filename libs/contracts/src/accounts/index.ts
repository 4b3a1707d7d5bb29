export * from './internal-accounts.dto';
export * from './external-accounts.dto';
export * from './ledger.dto';
export * from './discoveries.dto';
export * from './receiver-lookup-id';
