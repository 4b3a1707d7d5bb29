import type { KycLinkProvider, Mode } from '@payments/contracts';

/**
 * A hosted KYC link (stream `KycLink:<uuid>`). `secretHash` is a keyed hash of the link's token (the token itself
 * is only in the URL handed to the platform); like every secret hash it is removed before publishing.
 */
export type KycLinkIssued = {
  type: 'KycLinkIssued.v1';
  data: { linkId: string; customerId: string; platformId: string; mode: Mode; provider: KycLinkProvider; secretHash: string; redirectUri?: string; expiresAt: string; issuedAt: string };
};

/** The end user opened the page; the link cannot be used again. kycStatus is not touched. */
export type KycLinkOpened = { type: 'KycLinkOpened.v1'; data: { linkId: string; customerId: string; openedAt: string } };

export type KycLinkEvent = KycLinkIssued | KycLinkOpened;
