import type { AnyHttpOperation } from '@payments/contracts';
import { routerPath } from '../routing/operation-routes';

/**
 * `GET /2025-10-13/customers/:customerId` (or `GET /operator/v1/audit-events`) → its operationId: how the HTTP metrics name the operation a request
 * reached, keyed as the metrics middleware sees it (method and the route template Express matched).
 */
export function operationIdsByRoute(apis: readonly { operations: readonly AnyHttpOperation[]; prefix: string }[]): Map<string, string> {
  return new Map(apis.flatMap(({ operations, prefix }) => operations.map((op): [string, string] => [`${op.method} ${prefix}${routerPath(op.path)}`, op.operationId])));
}
