import { Controller, Inject } from '@nestjs/common';
import {
  ClaimInvitationBody,
  CreateInvitationRequest,
  InvitationCodeBody,
  InvitationsRpc,
  RpcRequest,
  SandboxUmaReceiveRequest,
  Transaction,
  UmaInvitation,
} from '@payments/contracts';
import { Handles } from '@payments/runtime';
import type { Payments } from '../payments';
import { PAYMENTS } from '../payments.tokens';

const now = () => new Date().toISOString();

/** Thin RPC adapter of invitations and the sandbox UMA receive. */
@Controller()
export class InvitationsRpcController {
  constructor(@Inject(PAYMENTS) private readonly payments: Payments) {}

  @Handles(InvitationsRpc.create)
  create(r: RpcRequest<CreateInvitationRequest>): Promise<UmaInvitation> {
    return this.payments.invitations.create(r.caller, r.body, now());
  }

  @Handles(InvitationsRpc.get)
  get(r: RpcRequest<InvitationCodeBody>): Promise<UmaInvitation> {
    return this.payments.invitations.get(r.caller, r.body.code);
  }

  @Handles(InvitationsRpc.claim)
  claim(r: RpcRequest<ClaimInvitationBody>): Promise<UmaInvitation> {
    return this.payments.invitations.claim(r.caller, r.body.code, { inviteeUma: r.body.inviteeUma }, now());
  }

  @Handles(InvitationsRpc.cancel)
  cancel(r: RpcRequest<InvitationCodeBody>): Promise<UmaInvitation> {
    return this.payments.invitations.cancel(r.caller, r.body.code, now());
  }

  @Handles(InvitationsRpc.sandboxUmaReceive)
  umaReceive(r: RpcRequest<SandboxUmaReceiveRequest>): Promise<Transaction> {
    return this.payments.umaReceive.receive(r.caller, r.body, now());
  }
}
