export * from './errors';
export * from './rpc';
export * from './config';
