/** Nest DI token under which the RPC controller receives the Payments service parts. */
export const PAYMENTS = Symbol('Payments');
