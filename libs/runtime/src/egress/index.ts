export * from './address-ranges';
export * from './egress-client';
