import { Controller, Inject } from '@nestjs/common';
import {
  CreateVerificationRequest,
  ListVerificationsQuery,
  Page,
  RpcRequest,
  Verification,
  VerificationIdBody,
  VerificationsRpc,
} from '@payments/contracts';
import { Handles } from '@payments/runtime';
import type { Identity } from '../identity';
import { IDENTITY } from '../identity.tokens';

const now = () => new Date().toISOString();

/** Thin RPC adapter for the verification endpoints. */
@Controller()
export class VerificationRpcController {
  constructor(@Inject(IDENTITY) private readonly identity: Identity) {}

  @Handles(VerificationsRpc.submit)
  submit(r: RpcRequest<CreateVerificationRequest>): Promise<Verification> {
    return this.identity.verifications.submit(r.caller, r.body, now());
  }

  @Handles(VerificationsRpc.list)
  list(r: RpcRequest<ListVerificationsQuery>): Promise<Page<Verification>> {
    return this.identity.verifications.list(r.caller, r.body);
  }

  @Handles(VerificationsRpc.get)
  get(r: RpcRequest<VerificationIdBody>): Promise<Verification> {
    return this.identity.verifications.get(r.caller, r.body.verificationId);
  }
}
