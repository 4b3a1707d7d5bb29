export * from './sca-factors';
export * from './sca-passkey.config';
export * from './sca-passkey.service';
export * from './sca-passkey.events';
