export * from './payments';
export * from './payments.server';
export * from './saga/transaction-saga';
export * from './quote-execution/quote-execution';
export * from './payments.boot';
