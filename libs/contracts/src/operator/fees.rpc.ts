import type { Page } from '../pagination';
import { operatorRpc } from '../rpc/rpc-contract';
import type {
  ListFeeScheduleHistoryQuery,
  ListNetworkFeeSchedulesQuery,
  ListServiceFeeSchedulesQuery,
  NetworkFeeSchedule,
  NetworkFeeScheduleVersion,
  RemoveFeeScheduleQuery,
  ServiceFeeSchedule,
  ServiceFeeScheduleVersion,
  SetNetworkFeeScheduleRequest,
  SetServiceFeeScheduleRequest,
} from './fees.dto';

/** DELETE /operator/v1/fees/…/{scheduleId}. */
export interface RemoveFeeScheduleRequest extends RemoveFeeScheduleQuery {
  scheduleId: string;
}

/** The service's fees and crypto withdrawal network fees (quoting): ADMIN sets and removes, VIEWER reads. */
export const OperatorFeesRpc = {
  listService: operatorRpc<ListServiceFeeSchedulesQuery, Page<ServiceFeeSchedule>>('quoting.operator.fees.listService', 'VIEWER'),
  setService: operatorRpc<SetServiceFeeScheduleRequest, ServiceFeeSchedule>('quoting.operator.fees.setService', 'ADMIN'),
  removeService: operatorRpc<RemoveFeeScheduleRequest, ServiceFeeScheduleVersion>('quoting.operator.fees.removeService', 'ADMIN'),
  serviceHistory: operatorRpc<ListFeeScheduleHistoryQuery, Page<ServiceFeeScheduleVersion>>('quoting.operator.fees.serviceHistory', 'VIEWER'),
  listNetwork: operatorRpc<ListNetworkFeeSchedulesQuery, Page<NetworkFeeSchedule>>('quoting.operator.fees.listNetwork', 'VIEWER'),
  setNetwork: operatorRpc<SetNetworkFeeScheduleRequest, NetworkFeeSchedule>('quoting.operator.fees.setNetwork', 'ADMIN'),
  removeNetwork: operatorRpc<RemoveFeeScheduleRequest, NetworkFeeScheduleVersion>('quoting.operator.fees.removeNetwork', 'ADMIN'),
  networkHistory: operatorRpc<ListFeeScheduleHistoryQuery, Page<NetworkFeeScheduleVersion>>('quoting.operator.fees.networkHistory', 'VIEWER'),
} as const;
