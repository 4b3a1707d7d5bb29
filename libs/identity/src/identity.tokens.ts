/** Nest DI token under which the RPC controllers receive the Identity service parts. */
export const IDENTITY = Symbol('Identity');
