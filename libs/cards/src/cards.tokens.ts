/** Nest DI token under which the RPC controller receives the Cards service parts. */
export const CARDS = Symbol('Cards');
