/** RPC patterns of invitations and the sandbox UMA receive (gateway → payments). */
export const InvitationsRpc = {
  create: 'payments.invitations.create',
  get: 'payments.invitations.get',
  claim: 'payments.invitations.claim',
  cancel: 'payments.invitations.cancel',
  /** POST /sandbox/uma/receive: answers the IncomingTransaction. */
  sandboxUmaReceive: 'payments.sandbox.uma-receive',
} as const;
