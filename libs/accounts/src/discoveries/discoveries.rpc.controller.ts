import { Controller } from '@nestjs/common';
import { Discoveries, DiscoveriesQuery, DiscoveriesRpc, RpcRequest } from '@payments/contracts';
import { Handles } from '@payments/runtime';
import { discover } from './discover';

/** GET /discoveries: served from the institution catalogue shipped with the service (the gateway validates the query). */
@Controller()
export class DiscoveriesRpcController {
  @Handles(DiscoveriesRpc.list)
  list(r: RpcRequest<DiscoveriesQuery>): Discoveries {
    return { data: discover({ country: r.body?.country, currency: r.body?.currency }) };
  }
}
