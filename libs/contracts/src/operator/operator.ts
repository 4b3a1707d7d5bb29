import { ApiError } from '../errors/api-error';
import type { CallerContext } from '../rpc/rpc';

/**
 * What an operator may do, each role including the ones below it:
 * - VIEWER reads everything of the deployment (queues, platforms, rates, fees, the audit log);
 * - REVIEWER also decides: KYC/KYB verifications, external accounts;
 * - ADMIN also configures: rates and rate sources, fees, account verification per currency.
 */
export const OPERATOR_ROLES = ['VIEWER', 'REVIEWER', 'ADMIN'] as const;
export type OperatorRole = (typeof OPERATOR_ROLES)[number];

/** The operator behind a request of the operator API, as the gateway resolved it from their credentials. */
export interface OperatorPrincipal {
  operatorId: string;
  name: string;
  role: OperatorRole;
}

export const isOperatorRole = (value: unknown): value is OperatorRole => typeof value === 'string' && (OPERATOR_ROLES as readonly string[]).includes(value);

/** Whether `role` includes everything `needed` may do. */
export function roleIncludes(role: OperatorRole, needed: OperatorRole): boolean {
  return OPERATOR_ROLES.indexOf(role) >= OPERATOR_ROLES.indexOf(needed);
}

/**
 * The one check of the operator boundary, made by the gateway (from the operation's `operatorRole`) and again by the
 * service (from the RPC contract's, `operatorRpc`): a caller that is not an operator never reaches an operator
 * operation (404, as a route that does not exist for it), and an operator without the role gets 403.
 */
export function requireOperator(caller: Partial<CallerContext> | undefined, needed: OperatorRole): OperatorPrincipal {
  const operator = caller?.operator;
  if (!operator || typeof operator.operatorId !== 'string' || !operator.operatorId || !isOperatorRole(operator.role)) {
    throw new ApiError('NOT_FOUND', 'no such resource or route');
  }
  if (!roleIncludes(operator.role, needed)) throw new ApiError('FORBIDDEN', `this operation needs the ${needed} operator role; this operator is ${operator.role}`);
  return operator;
}

/**
 * The caller an operator request carries to the services: no platform (operators see every platform and name the
 * one an action concerns in its body or path), production mode (the operator API decides real money; sandbox
 * decisions stay with the sandbox's rules), no platform permission.
 */
export function operatorCaller(operator: OperatorPrincipal, correlationId?: string): CallerContext {
  return { platformId: '', mode: 'PRODUCTION', clientId: operator.operatorId, permissions: [], operator, correlationId };
}

/** Stored data of identity's internal `OperatorCreated.v1` (never published: it carries the secret's keyed hash). */
export interface OperatorCreatedData {
  operatorId: string;
  name: string;
  role: OperatorRole;
  clientId: string;
  secretHash: string;
  createdAt: string;
}

export interface OperatorDisabledData {
  operatorId: string;
  disabledAt: string;
}
