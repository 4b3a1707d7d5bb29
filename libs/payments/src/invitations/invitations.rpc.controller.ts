import { Controller, Inject } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { ClaimInvitationRequest, CreateInvitationRequest, InvitationsRpc, RpcRequest, SandboxUmaReceiveRequest, Transaction, UmaInvitation } from '@payments/contracts';
import type { Payments } from '../payments';
import { PAYMENTS } from '../payments.tokens';

const now = () => new Date().toISOString();

/** Thin RPC adapter of invitations and the sandbox UMA receive. */
@Controller()
export class InvitationsRpcController {
  constructor(@Inject(PAYMENTS) private readonly payments: Payments) {}

  @MessagePattern(InvitationsRpc.create)
  create(@Payload() r: RpcRequest<CreateInvitationRequest>): Promise<UmaInvitation> {
    return this.payments.invitations.create(r.caller, r.body, now());
  }

  @MessagePattern(InvitationsRpc.get)
  get(@Payload() r: RpcRequest<{ code: string }>): Promise<UmaInvitation> {
    return this.payments.invitations.get(r.caller, r.body.code);
  }

  @MessagePattern(InvitationsRpc.claim)
  claim(@Payload() r: RpcRequest<{ code: string } & ClaimInvitationRequest>): Promise<UmaInvitation> {
    return this.payments.invitations.claim(r.caller, r.body.code, { inviteeUma: r.body.inviteeUma }, now());
  }

  @MessagePattern(InvitationsRpc.cancel)
  cancel(@Payload() r: RpcRequest<{ code: string }>): Promise<UmaInvitation> {
    return this.payments.invitations.cancel(r.caller, r.body.code, now());
  }

  @MessagePattern(InvitationsRpc.sandboxUmaReceive)
  umaReceive(@Payload() r: RpcRequest<SandboxUmaReceiveRequest>): Promise<Transaction> {
    return this.payments.umaReceive.receive(r.caller, r.body, now());
  }
}
