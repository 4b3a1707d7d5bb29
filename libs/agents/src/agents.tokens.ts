/** Nest DI token under which the RPC controller receives the Agents service parts. */
export const AGENTS = Symbol('Agents');
