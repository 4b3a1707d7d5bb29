/** Nest DI token under which the RPC controller receives the Quoting service parts. */
export const QUOTING = Symbol('Quoting');
