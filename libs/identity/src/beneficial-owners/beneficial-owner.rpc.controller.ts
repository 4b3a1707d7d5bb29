import { Controller, Inject } from '@nestjs/common';
import {
  BeneficialOwner,
  BeneficialOwnerIdBody,
  BeneficialOwnersRpc,
  CreateBeneficialOwnerRequest,
  ListBeneficialOwnersQuery,
  Page,
  RpcRequest,
  UpdateBeneficialOwnerBody,
} from '@payments/contracts';
import { Handles } from '@payments/runtime';
import type { Identity } from '../identity';
import { IDENTITY } from '../identity.tokens';

const now = () => new Date().toISOString();

/** Thin RPC adapter for the beneficial-owner endpoints. */
@Controller()
export class BeneficialOwnerRpcController {
  constructor(@Inject(IDENTITY) private readonly identity: Identity) {}

  @Handles(BeneficialOwnersRpc.create)
  create(r: RpcRequest<CreateBeneficialOwnerRequest>): Promise<BeneficialOwner> {
    return this.identity.beneficialOwners.create(r.caller, r.body, now());
  }

  @Handles(BeneficialOwnersRpc.list)
  list(r: RpcRequest<ListBeneficialOwnersQuery>): Promise<Page<BeneficialOwner>> {
    return this.identity.beneficialOwners.list(r.caller, r.body);
  }

  @Handles(BeneficialOwnersRpc.get)
  get(r: RpcRequest<BeneficialOwnerIdBody>): Promise<BeneficialOwner> {
    return this.identity.beneficialOwners.get(r.caller, r.body.beneficialOwnerId);
  }

  @Handles(BeneficialOwnersRpc.update)
  update(r: RpcRequest<UpdateBeneficialOwnerBody>): Promise<BeneficialOwner> {
    return this.identity.beneficialOwners.update(r.caller, r.body.beneficialOwnerId, r.body.patch, now());
  }
}
