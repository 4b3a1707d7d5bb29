export * from './envelope';
export * from './catalogue';
export * from './identity.events';
export * from './accounts.events';
export * from './quoting.events';
export * from './payments.events';
export * from './catalogues';
export * from './wallet-auth.events';
