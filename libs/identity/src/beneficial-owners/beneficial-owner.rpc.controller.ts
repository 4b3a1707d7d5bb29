import { Controller, Inject } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { BeneficialOwner, BeneficialOwnersRpc, CreateBeneficialOwnerRequest, ListBeneficialOwnersQuery, Page, RpcRequest, UpdateBeneficialOwnerRequest } from '@payments/contracts';
import type { Identity } from '../identity';
import { IDENTITY } from '../identity.tokens';

type ById<T = unknown> = RpcRequest<{ beneficialOwnerId: string } & T>;
const now = () => new Date().toISOString();

/** Thin RPC adapter for the beneficial-owner endpoints. */
@Controller()
export class BeneficialOwnerRpcController {
  constructor(@Inject(IDENTITY) private readonly identity: Identity) {}

  @MessagePattern(BeneficialOwnersRpc.create)
  create(@Payload() r: RpcRequest<CreateBeneficialOwnerRequest>): Promise<BeneficialOwner> {
    return this.identity.beneficialOwners.create(r.caller, r.body, now());
  }

  @MessagePattern(BeneficialOwnersRpc.list)
  list(@Payload() r: RpcRequest<ListBeneficialOwnersQuery>): Promise<Page<BeneficialOwner>> {
    return this.identity.beneficialOwners.list(r.caller, r.body);
  }

  @MessagePattern(BeneficialOwnersRpc.get)
  get(@Payload() r: ById): Promise<BeneficialOwner> {
    return this.identity.beneficialOwners.get(r.caller, r.body.beneficialOwnerId);
  }

  @MessagePattern(BeneficialOwnersRpc.update)
  update(@Payload() r: ById<{ patch: UpdateBeneficialOwnerRequest }>): Promise<BeneficialOwner> {
    return this.identity.beneficialOwners.update(r.caller, r.body.beneficialOwnerId, r.body.patch, now());
  }
}
