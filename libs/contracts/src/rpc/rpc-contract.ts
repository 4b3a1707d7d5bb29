import { ApiError } from '../errors/api-error';
import type { OperatorRole } from '../operator/operator';
import type { Mode, RpcRequest } from './rpc';

/**
 * One RPC operation, declared once: its message pattern and, as types only, the payload it takes and what it
 * answers. `ServiceClient.call(contract, payload)` and the `@Handles(contract)` handler are checked by the compiler
 * against the same declaration, so a caller and its handler cannot drift apart.
 */
export interface RpcContract<Payload, Result> {
  readonly pattern: string;
  /** Only sandbox callers may call it: `@Handles` refuses any other mode before the handler runs (sandboxRpc). */
  readonly sandboxOnly?: true;
  /** Only operators holding this role may call it: `@Handles` refuses anyone else before the handler runs (operatorRpc). */
  readonly operatorRole?: OperatorRole;
  /** Never set at run time: it only carries the two types. */
  readonly types?: { payload: Payload; result: Result };
}

/** An operation called on behalf of a caller: the payload is `{ caller, body }` (tenancy travels with every call). */
export function rpc<Body, Result>(pattern: string): RpcContract<RpcRequest<Body>, Result> {
  return { pattern };
}

/**
 * An operation that exists only in the sandbox (a simulator, a test delivery): its handler refuses a caller of any
 * other mode with 404, as an unknown route (`refuseOutsideSandbox`), whoever called and however the gateway was passed.
 */
export function sandboxRpc<Body, Result>(pattern: string): RpcContract<RpcRequest<Body>, Result> {
  return { pattern, sandboxOnly: true };
}

/**
 * An operation of the operator API: its handler refuses a caller that is not an operator holding `role` (404 to a
 * platform, 403 to an operator with a lesser role: `requireOperator`), whoever called and however the gateway was passed.
 */
export function operatorRpc<Body, Result>(pattern: string, role: OperatorRole): RpcContract<RpcRequest<Body>, Result> {
  return { pattern, operatorRole: role };
}

/**
 * The one decision of the sandbox boundary, made by the gateway (from the HTTP operation's `sandboxOnly`) and again by
 * the service (from the RPC contract's): anything but a SANDBOX caller gets the 404 of a route that does not exist,
 * so production learns nothing about sandbox operations. A missing or malformed mode is not SANDBOX.
 */
export function refuseOutsideSandbox(mode: Mode | undefined): void {
  if (mode !== 'SANDBOX') throw new ApiError('NOT_FOUND', 'no such resource or route');
}

/** An operation whose payload is not `{ caller, body }` (credential checks, health pings, the public KYC page). */
export function rawRpc<Payload, Result>(pattern: string): RpcContract<Payload, Result> {
  return { pattern };
}

export type PayloadOf<C> = C extends RpcContract<infer P, unknown> ? P : never;
export type ResultOf<C> = C extends RpcContract<unknown, infer R> ? R : never;
