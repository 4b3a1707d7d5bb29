export * from './p256-keys';
export * from './stamp';
export * from './hpke';
export * from './enclave-bundles';
export * from './verification-token';
export * from './mnemonic';
export * from './oidc-token';
export * from './passkey';
