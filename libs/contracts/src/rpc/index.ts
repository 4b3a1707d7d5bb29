export * from './rpc';
export * from './customers.rpc';
export * from './documents.rpc';
export * from './verifications.rpc';
export * from './bulk.rpc';
export * from './kyc-link.rpc';
export * from './accounts.rpc';
export * from './quoting.rpc';
