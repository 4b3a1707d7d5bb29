export * from './production-capabilities';
export * from './rails-config';
export * from './deposit-accounts';
export * from './customer-readiness';
