import { Controller, Inject } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { CreateVerificationRequest, ListVerificationsQuery, Page, RpcRequest, Verification, VerificationsRpc } from '@payments/contracts';
import type { Identity } from '../identity';
import { IDENTITY } from '../identity.tokens';

const now = () => new Date().toISOString();

/** Thin RPC adapter for the verification endpoints. */
@Controller()
export class VerificationRpcController {
  constructor(@Inject(IDENTITY) private readonly identity: Identity) {}

  @MessagePattern(VerificationsRpc.submit)
  submit(@Payload() r: RpcRequest<CreateVerificationRequest>): Promise<Verification> {
    return this.identity.verifications.submit(r.caller, r.body, now());
  }

  @MessagePattern(VerificationsRpc.list)
  list(@Payload() r: RpcRequest<ListVerificationsQuery>): Promise<Page<Verification>> {
    return this.identity.verifications.list(r.caller, r.body);
  }

  @MessagePattern(VerificationsRpc.get)
  get(@Payload() r: RpcRequest<{ verificationId: string }>): Promise<Verification> {
    return this.identity.verifications.get(r.caller, r.body.verificationId);
  }
}
