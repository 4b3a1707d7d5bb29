/**
 * RPC patterns of the hosted KYC link (identity service). `open` comes from the gateway's public page and carries
 * no caller: the link token is the credential.
 */
export const KycLinksRpc = {
  create: 'identity.customers.kyc-link.create',
  open: 'identity.kyc-links.open',
} as const;
