export * from './operator';
export * from './audit';
export * from './operator-core.dto';
export * from './operator-core.rpc';
export * from './kyc-review.dto';
export * from './kyc-review.rpc';
export * from './account-verification.dto';
export * from './account-verification.rpc';
