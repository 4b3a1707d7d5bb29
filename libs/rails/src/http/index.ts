export * from './protocol';
export * from './status-order';
export * from './callback-verifier';
export * from './http-rail-client';
