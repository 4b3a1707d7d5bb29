import { Controller, Inject } from '@nestjs/common';
import { ListUmaProvidersQuery, Page, QuotingRpc, RpcRequest, UmaLookupBody, UmaProvider, UmaReceiverLookup } from '@payments/contracts';
import { Handles } from '@payments/runtime';
import { UMA_PROVIDERS } from '@payments/uma';
import type { Quoting } from '../quoting';
import { QUOTING } from '../quoting.tokens';
import { listUmaProviders } from './uma-providers';

/** Thin RPC adapter of UMA receiver lookups and the provider catalogue. */
@Controller()
export class UmaRpcController {
  constructor(@Inject(QUOTING) private readonly quoting: Quoting) {}

  @Handles(QuotingRpc.umaLookup)
  lookup(r: RpcRequest<UmaLookupBody>): Promise<UmaReceiverLookup> {
    const { receiverUmaAddress, ...query } = r.body;
    return this.quoting.umaLookups.lookup(r.caller, receiverUmaAddress, query);
  }

  @Handles(QuotingRpc.listUmaProviders)
  providers(r: RpcRequest<ListUmaProvidersQuery>): Page<UmaProvider> {
    return listUmaProviders(UMA_PROVIDERS, r.body);
  }
}
