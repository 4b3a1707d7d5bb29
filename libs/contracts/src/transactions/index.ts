export * from './transactions.dto';
export * from './transaction-events';
