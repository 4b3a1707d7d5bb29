/** RPC patterns of the verification and beneficial-owner endpoints (identity service). */
export const VerificationsRpc = {
  submit: 'identity.verifications.submit',
  list: 'identity.verifications.list',
  get: 'identity.verifications.get',
} as const;

export const BeneficialOwnersRpc = {
  create: 'identity.beneficial-owners.create',
  list: 'identity.beneficial-owners.list',
  get: 'identity.beneficial-owners.get',
  update: 'identity.beneficial-owners.update',
} as const;
