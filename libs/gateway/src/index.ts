export * from './gateway.server';
export * from './rpc/service-client';
export { servedRoutesOf, type ServedRoute } from './http/gateway-http';
