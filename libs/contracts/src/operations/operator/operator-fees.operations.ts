import { ListFeeScheduleHistoryQuery, ListNetworkFeeSchedulesQuery, ListServiceFeeSchedulesQuery, RemoveFeeScheduleQuery, SetNetworkFeeScheduleRequest, SetServiceFeeScheduleRequest } from '../../operator/fees.dto';
import { OperatorFeesRpc } from '../../operator/fees.rpc';
import { operation } from '../http-operation';

const TAG = 'Fees';

const SET_SERVICE =
  "Sets the service's fee (what the deployment charges platforms on a cross-currency quote, on top of the platform's own " +
  'feeConfigs) for one scope: a platform (`platformId`) or the deployment (without), and a corridor (`sourceCurrency` and ' +
  '`destinationCurrency`) or every corridor (neither). A production quote is priced by the first schedule that exists of: ' +
  "the platform's corridor, the platform's default, the deployment's corridor, the deployment's default; with none, it " +
  'charges no service fee (GET /exchange-rates shows the same). `fixedFees` are per sending currency, in its smallest ' +
  'unit: a corridor names its source currency only; a default names each currency it charges a fixed fee on. Each change ' +
  'is a new version (the same values again change nothing), kept in the history and the audit log (`fees.set-service`). ' +
  'The sandbox keeps its built-in fees (0.5% and about 25 US cents).';
const SET_NETWORK =
  'Sets what a crypto withdrawal of `currency` on `cryptoNetwork` costs in production, for one platform (`platformId`) or ' +
  "the deployment (without; a platform's entry wins): `networkFee` (the chain's fee, in the smallest unit of `currency`) " +
  "and `applicationFeeBps` (the service's fee). A production withdrawal fee estimate on a network without one answers 501 " +
  'NOT_IMPLEMENTED. 400 for a network the currency is not on. Audited as `fees.set-network`.';

/** The service's fees and crypto withdrawal network fees of the deployment (quoting service). */
export const OPERATOR_FEES_OPERATIONS = [
  operation({
    operationId: 'listServiceFeeSchedules',
    method: 'GET',
    path: '/fees/service',
    tag: TAG,
    summary: 'The service fee schedules in force',
    description: 'By id. `platformId` narrows to a platform\'s schedules (`deployment`: the deployment-wide ones); `sourceCurrency` and `destinationCurrency` to a corridor.',
    permission: 'VIEW',
    auth: 'operator',
    operatorRole: 'VIEWER',
    service: 'quoting',
    rpc: OperatorFeesRpc.listService,
    query: ListServiceFeeSchedulesQuery,
    status: 200,
    response: { page: 'ServiceFeeSchedule' },
    request: ({ query }) => query,
  }),
  operation({
    operationId: 'setServiceFeeSchedule',
    method: 'PUT',
    path: '/fees/service',
    tag: TAG,
    summary: 'Set the service fee of a platform or the deployment, for a corridor or every corridor',
    description: SET_SERVICE,
    permission: 'MANAGE',
    auth: 'operator',
    operatorRole: 'ADMIN',
    service: 'quoting',
    rpc: OperatorFeesRpc.setService,
    body: SetServiceFeeScheduleRequest,
    status: 200,
    response: 'ServiceFeeSchedule',
    errors: [404],
    request: ({ body }) => body,
  }),
  operation({
    operationId: 'removeServiceFeeSchedule',
    method: 'DELETE',
    path: '/fees/service/{scheduleId}',
    tag: TAG,
    summary: 'Remove a service fee schedule: its scope falls back to the next one',
    description: 'Answers the schedule as it was removed (a new version, in the history; audited as `fees.remove-service`). 404 when no such schedule is in force.',
    permission: 'MANAGE',
    auth: 'operator',
    operatorRole: 'ADMIN',
    service: 'quoting',
    rpc: OperatorFeesRpc.removeService,
    query: RemoveFeeScheduleQuery,
    status: 200,
    response: 'ServiceFeeScheduleVersion',
    request: ({ params, query }) => ({ ...query, scheduleId: params.scheduleId }),
  }),
  operation({
    operationId: 'listServiceFeeScheduleHistory',
    method: 'GET',
    path: '/fees/service/history',
    tag: TAG,
    summary: 'Every change of the service fee schedules, newest first',
    description: 'Each version as it was set or removed, who did it, when and why. `scheduleId` narrows to one schedule, `platformId` to a platform\'s (`deployment`: the deployment-wide ones).',
    permission: 'VIEW',
    auth: 'operator',
    operatorRole: 'VIEWER',
    service: 'quoting',
    rpc: OperatorFeesRpc.serviceHistory,
    query: ListFeeScheduleHistoryQuery,
    status: 200,
    response: { page: 'ServiceFeeScheduleVersion' },
    request: ({ query }) => query,
  }),
  operation({
    operationId: 'listNetworkFeeSchedules',
    method: 'GET',
    path: '/fees/network',
    tag: TAG,
    summary: 'The crypto withdrawal network fees in force',
    description: 'By id. `platformId` narrows to a platform\'s entries (`deployment`: the deployment-wide ones); `currency` and `cryptoNetwork` narrow too.',
    permission: 'VIEW',
    auth: 'operator',
    operatorRole: 'VIEWER',
    service: 'quoting',
    rpc: OperatorFeesRpc.listNetwork,
    query: ListNetworkFeeSchedulesQuery,
    status: 200,
    response: { page: 'NetworkFeeSchedule' },
    request: ({ query }) => query,
  }),
  operation({
    operationId: 'setNetworkFeeSchedule',
    method: 'PUT',
    path: '/fees/network',
    tag: TAG,
    summary: 'Set the fee of crypto withdrawals of a currency on a network, for a platform or the deployment',
    description: SET_NETWORK,
    permission: 'MANAGE',
    auth: 'operator',
    operatorRole: 'ADMIN',
    service: 'quoting',
    rpc: OperatorFeesRpc.setNetwork,
    body: SetNetworkFeeScheduleRequest,
    status: 200,
    response: 'NetworkFeeSchedule',
    errors: [404],
    request: ({ body }) => body,
  }),
  operation({
    operationId: 'removeNetworkFeeSchedule',
    method: 'DELETE',
    path: '/fees/network/{scheduleId}',
    tag: TAG,
    summary: 'Remove a network fee: the deployment\'s applies again, or none (production estimates then answer 501)',
    description: 'Answers the entry as it was removed (a new version, in the history; audited as `fees.remove-network`). 404 when no such entry is in force.',
    permission: 'MANAGE',
    auth: 'operator',
    operatorRole: 'ADMIN',
    service: 'quoting',
    rpc: OperatorFeesRpc.removeNetwork,
    query: RemoveFeeScheduleQuery,
    status: 200,
    response: 'NetworkFeeScheduleVersion',
    request: ({ params, query }) => ({ ...query, scheduleId: params.scheduleId }),
  }),
  operation({
    operationId: 'listNetworkFeeScheduleHistory',
    method: 'GET',
    path: '/fees/network/history',
    tag: TAG,
    summary: 'Every change of the network fees, newest first',
    description: 'Each version as it was set or removed, who did it, when and why. `scheduleId` and `platformId` narrow.',
    permission: 'VIEW',
    auth: 'operator',
    operatorRole: 'VIEWER',
    service: 'quoting',
    rpc: OperatorFeesRpc.networkHistory,
    query: ListFeeScheduleHistoryQuery,
    status: 200,
    response: { page: 'NetworkFeeScheduleVersion' },
    request: ({ query }) => query,
  }),
];
