import { Controller, Inject } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { CreateKycLinkBody, KycLink, KycLinksRpc, OpenedKycLink, RpcRequest } from '@payments/contracts';
import type { Identity } from '../identity';
import { IDENTITY } from '../identity.tokens';

/** Thin RPC adapter of the hosted KYC link: issued by the platform, opened by the end user's browser. */
@Controller()
export class KycLinkRpcController {
  constructor(@Inject(IDENTITY) private readonly identity: Identity) {}

  @MessagePattern(KycLinksRpc.create)
  create(@Payload() request: RpcRequest<CreateKycLinkBody>): Promise<KycLink> {
    return this.identity.kycLinks.create(request.caller, request.body, new Date().toISOString());
  }

  /** No caller: the gateway's public page forwards the token, which is the only credential. */
  @MessagePattern(KycLinksRpc.open)
  open(@Payload() request: { body: { token: string } }): Promise<OpenedKycLink> {
    return this.identity.kycLinks.open(String(request.body?.token ?? ''), new Date().toISOString());
  }
}
