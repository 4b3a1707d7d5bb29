export * from './cards';
export * from './cards.boot';
export * from './cards.server';
export * from './card-ledger-check';
