export * from './wallet-auth';
export * from './wallet-auth.boot';
export * from './wallet-auth.server';
export * from './wallet-auth.migrations';
export * from './wallets/wallet.decider';
export * from './wallets/wallet.events';
export * from './wallets/wallet.state';
export * from './signed-retry/signed-retry';
