export * from './rpc';
