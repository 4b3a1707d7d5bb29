import { ListAuditEventsQuery, ListOperatorPlatformsQuery } from '../../operator/operator-core.dto';
import { OperatorRpc } from '../../operator/operator-core.rpc';
import { operation } from '../http-operation';

/** The operator themselves, the platforms of the deployment and the audit log (identity service). */
export const OPERATOR_CORE_OPERATIONS = [
  operation({
    operationId: 'getOperatorSelf',
    method: 'GET',
    path: '/me',
    tag: 'Operators',
    summary: 'The operator these credentials belong to, with their role',
    permission: 'VIEW',
    auth: 'operator',
    operatorRole: 'VIEWER',
    service: 'identity',
    rpc: OperatorRpc.me,
    status: 200,
    response: 'OperatorView',
    request: () => ({}),
  }),
  operation({
    operationId: 'listOperatorPlatforms',
    method: 'GET',
    path: '/platforms',
    tag: 'Platforms',
    summary: 'Every platform of the deployment, oldest first',
    permission: 'VIEW',
    auth: 'operator',
    operatorRole: 'VIEWER',
    service: 'identity',
    rpc: OperatorRpc.listPlatforms,
    query: ListOperatorPlatformsQuery,
    status: 200,
    response: { page: 'OperatorPlatformView' },
    request: ({ query }) => query,
  }),
  operation({
    operationId: 'listAuditEvents',
    method: 'GET',
    path: '/audit-events',
    tag: 'Audit log',
    summary: 'What operators did: who, what, when and why, newest first',
    description:
      'Every operator action is recorded with its effect, in the same transaction, by the service that performed it, and gathered here from every service (within about a second). Filters narrow: operatorId, action (or a family: `kyc.*`), targetType, targetId, platformId, occurredAfter, occurredBefore.',
    permission: 'VIEW',
    auth: 'operator',
    operatorRole: 'VIEWER',
    service: 'identity',
    rpc: OperatorRpc.listAuditEvents,
    query: ListAuditEventsQuery,
    status: 200,
    response: { page: 'AuditEvent' },
    request: ({ query }) => query,
  }),
];
