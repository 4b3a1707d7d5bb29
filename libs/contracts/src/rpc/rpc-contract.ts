import type { RpcRequest } from './rpc';

/**
 * One RPC operation, declared once: its message pattern and, as types only, the payload it takes and what it
 * answers. `ServiceClient.call(contract, payload)` and the `@Handles(contract)` handler are checked by the compiler
 * against the same declaration, so a caller and its handler cannot drift apart.
 */
export interface RpcContract<Payload, Result> {
  readonly pattern: string;
  /** Never set at run time: it only carries the two types. */
  readonly types?: { payload: Payload; result: Result };
}

/** An operation called on behalf of a caller: the payload is `{ caller, body }` (tenancy travels with every call). */
export function rpc<Body, Result>(pattern: string): RpcContract<RpcRequest<Body>, Result> {
  return { pattern };
}

/** An operation whose payload is not `{ caller, body }` (credential checks, health pings, the public KYC page). */
export function rawRpc<Payload, Result>(pattern: string): RpcContract<Payload, Result> {
  return { pattern };
}

export type PayloadOf<C> = C extends RpcContract<infer P, unknown> ? P : never;
export type ResultOf<C> = C extends RpcContract<unknown, infer R> ? R : never;
