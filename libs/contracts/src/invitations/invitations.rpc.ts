import { rpc, sandboxRpc } from '../rpc/rpc-contract';
import type { Transaction } from '../transactions';
import type { ClaimInvitationRequest, CreateInvitationRequest, UmaInvitation } from './invitations.dto';
import type { SandboxUmaReceiveRequest } from './sandbox-uma-receive.dto';

/** RPC contracts of invitations and the sandbox UMA receive (gateway → payments). */
export const InvitationsRpc = {
  create: rpc<CreateInvitationRequest, UmaInvitation>('payments.invitations.create'),
  get: rpc<InvitationCodeBody, UmaInvitation>('payments.invitations.get'),
  claim: rpc<ClaimInvitationBody, UmaInvitation>('payments.invitations.claim'),
  cancel: rpc<InvitationCodeBody, UmaInvitation>('payments.invitations.cancel'),
  /** POST /sandbox/uma/receive: answers the IncomingTransaction. */
  sandboxUmaReceive: sandboxRpc<SandboxUmaReceiveRequest, Transaction>('payments.sandbox.uma-receive'),
} as const;

export interface InvitationCodeBody {
  code: string;
}

/** InvitationsRpc.claim: POST /invitations/{invitationCode}/claim. */
export interface ClaimInvitationBody extends InvitationCodeBody, ClaimInvitationRequest {}
