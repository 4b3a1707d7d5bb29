import { Controller, Inject } from '@nestjs/common';
import { CreateKycLinkBody, KycLink, KycLinksRpc, OpenedKycLink, OpenKycLinkPayload, RpcRequest } from '@payments/contracts';
import { Handles } from '@payments/runtime';
import type { Identity } from '../identity';
import { IDENTITY } from '../identity.tokens';

/** Thin RPC adapter of the hosted KYC link: issued by the platform, opened by the end user's browser. */
@Controller()
export class KycLinkRpcController {
  constructor(@Inject(IDENTITY) private readonly identity: Identity) {}

  @Handles(KycLinksRpc.create)
  create(request: RpcRequest<CreateKycLinkBody>): Promise<KycLink> {
    return this.identity.kycLinks.create(request.caller, request.body, new Date().toISOString());
  }

  /** No caller: the gateway's public page forwards the token, which is the only credential. */
  @Handles(KycLinksRpc.open)
  open(request: OpenKycLinkPayload): Promise<OpenedKycLink> {
    return this.identity.kycLinks.open(String(request.body?.token ?? ''), new Date().toISOString());
  }
}
