/** Nest DI tokens of the per-service RPC clients (one ServiceClient each). */
export const ACCOUNTS_CLIENT = Symbol('AccountsClient');
