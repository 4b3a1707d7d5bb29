import type { CreateKycLinkBody, KycLink, OpenedKycLink } from '../kyc-link.dto';
import { rawRpc, rpc } from './rpc-contract';

/**
 * RPC contracts of the hosted KYC link (identity service). `open` comes from the gateway's public page and carries
 * no caller: the link token is the credential.
 */
export const KycLinksRpc = {
  create: rpc<CreateKycLinkBody, KycLink>('identity.customers.kyc-link.create'),
  open: rawRpc<OpenKycLinkPayload, OpenedKycLink>('identity.kyc-links.open'),
} as const;

/** KycLinksRpc.open: `{ body: { token } }` without a caller. */
export interface OpenKycLinkPayload {
  body: { token: string };
}
