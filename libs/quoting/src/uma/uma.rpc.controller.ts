import { Controller, Inject } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { ListUmaProvidersQuery, Page, QuotingRpc, ReceiverLookupQuery, RpcRequest, UmaProvider, UmaReceiverLookup } from '@payments/contracts';
import { UMA_PROVIDERS } from '@payments/uma';
import type { Quoting } from '../quoting';
import { QUOTING } from '../quoting.tokens';
import { listUmaProviders } from './uma-providers';

/** Thin RPC adapter of UMA receiver lookups and the provider catalogue. */
@Controller()
export class UmaRpcController {
  constructor(@Inject(QUOTING) private readonly quoting: Quoting) {}

  @MessagePattern(QuotingRpc.umaLookup)
  lookup(@Payload() r: RpcRequest<ReceiverLookupQuery & { receiverUmaAddress: string }>): Promise<UmaReceiverLookup> {
    const { receiverUmaAddress, ...query } = r.body;
    return this.quoting.umaLookups.lookup(r.caller, receiverUmaAddress, query);
  }

  @MessagePattern(QuotingRpc.listUmaProviders)
  providers(@Payload() r: RpcRequest<ListUmaProvidersQuery>): Page<UmaProvider> {
    return listUmaProviders(UMA_PROVIDERS, r.body);
  }
}
