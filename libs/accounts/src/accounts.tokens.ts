/** Nest DI token under which the RPC controllers receive the Accounts service parts. */
export const ACCOUNTS = Symbol('Accounts');
