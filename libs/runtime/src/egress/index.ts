export * from './address-ranges';
export * from './egress-client';
export * from './egress-fetch';
