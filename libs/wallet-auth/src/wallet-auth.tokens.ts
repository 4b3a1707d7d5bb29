/** Nest DI token under which the RPC controller receives the WalletAuth service parts. */
export const WALLET_AUTH = Symbol('WalletAuth');
