import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { DiscoveriesQuery, DiscoveriesRpc, Discovery, RpcRequest } from '@payments/contracts';
import { discover } from './discover';

/** GET /discoveries: served from the institution catalogue shipped with the service (the gateway validates the query). */
@Controller()
export class DiscoveriesRpcController {
  @MessagePattern(DiscoveriesRpc.list)
  list(@Payload() r: RpcRequest<DiscoveriesQuery>): { data: Discovery[] } {
    return { data: discover({ country: r.body?.country, currency: r.body?.currency }) };
  }
}
