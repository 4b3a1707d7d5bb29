export * from './error-codes';
export * from './error-envelope';
export * from './api-error';
export * from './outage';
