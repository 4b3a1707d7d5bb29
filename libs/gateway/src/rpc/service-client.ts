// The RPC client lives in libs/runtime so services calling each other use the same one (payments → accounts, quoting).
export { ServiceClient } from '@payments/runtime';
export type { RpcSample, ServiceEndpoint } from '@payments/runtime';
