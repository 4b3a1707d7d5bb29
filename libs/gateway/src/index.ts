export * from './gateway.server';
export * from './rpc/service-client';
