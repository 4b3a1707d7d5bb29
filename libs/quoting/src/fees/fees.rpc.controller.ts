import { Controller, Inject } from '@nestjs/common';
import {
  ListFeeScheduleHistoryQuery,
  ListNetworkFeeSchedulesQuery,
  ListServiceFeeSchedulesQuery,
  NetworkFeeSchedule,
  NetworkFeeScheduleVersion,
  OperatorFeesRpc,
  Page,
  RemoveFeeScheduleRequest,
  RpcRequest,
  ServiceFeeSchedule,
  ServiceFeeScheduleVersion,
  SetNetworkFeeScheduleRequest,
  SetServiceFeeScheduleRequest,
} from '@payments/contracts';
import { Handles } from '@payments/runtime';
import type { Quoting } from '../quoting';
import { QUOTING } from '../quoting.tokens';

/** Thin RPC adapter of the operator's fee schedules (operator API, /operator/v1/fees). */
@Controller()
export class FeesRpcController {
  constructor(@Inject(QUOTING) private readonly quoting: Quoting) {}

  @Handles(OperatorFeesRpc.listService)
  listService(r: RpcRequest<ListServiceFeeSchedulesQuery>): Promise<Page<ServiceFeeSchedule>> {
    return this.quoting.fees.listService(r.body);
  }

  @Handles(OperatorFeesRpc.setService)
  setService(r: RpcRequest<SetServiceFeeScheduleRequest>): Promise<ServiceFeeSchedule> {
    return this.quoting.fees.setService(r.caller, r.body, new Date().toISOString());
  }

  @Handles(OperatorFeesRpc.removeService)
  removeService(r: RpcRequest<RemoveFeeScheduleRequest>): Promise<ServiceFeeScheduleVersion> {
    return this.quoting.fees.removeService(r.caller, r.body, new Date().toISOString());
  }

  @Handles(OperatorFeesRpc.serviceHistory)
  serviceHistory(r: RpcRequest<ListFeeScheduleHistoryQuery>): Promise<Page<ServiceFeeScheduleVersion>> {
    return this.quoting.fees.serviceHistory(r.body);
  }

  @Handles(OperatorFeesRpc.listNetwork)
  listNetwork(r: RpcRequest<ListNetworkFeeSchedulesQuery>): Promise<Page<NetworkFeeSchedule>> {
    return this.quoting.fees.listNetwork(r.body);
  }

  @Handles(OperatorFeesRpc.setNetwork)
  setNetwork(r: RpcRequest<SetNetworkFeeScheduleRequest>): Promise<NetworkFeeSchedule> {
    return this.quoting.fees.setNetwork(r.caller, r.body, new Date().toISOString());
  }

  @Handles(OperatorFeesRpc.removeNetwork)
  removeNetwork(r: RpcRequest<RemoveFeeScheduleRequest>): Promise<NetworkFeeScheduleVersion> {
    return this.quoting.fees.removeNetwork(r.caller, r.body, new Date().toISOString());
  }

  @Handles(OperatorFeesRpc.networkHistory)
  networkHistory(r: RpcRequest<ListFeeScheduleHistoryQuery>): Promise<Page<NetworkFeeScheduleVersion>> {
    return this.quoting.fees.networkHistory(r.body);
  }
}
