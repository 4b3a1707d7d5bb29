export * from './config';
export * from './database';
export * from './service-host';
export * from './logger';
export * from './rpc/rpc-error.filter';
export * from './secret-key';
export * from './ops';
export * from './sql/keyset-page';
