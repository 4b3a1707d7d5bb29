import type { Catalogued, IDENTITY_EVENTS, KycLinkIssuedData, KycLinkOpenedData } from '@payments/contracts';

/**
 * A hosted KYC link (stream `KycLink:<uuid>`). `secretHash` is a keyed hash of the link's token (the token itself
 * is only in the URL handed to the platform); like every secret hash it is not published (IDENTITY_EVENTS).
 */
export type KycLinkIssued = { type: 'KycLinkIssued.v1'; data: KycLinkIssuedData & { secretHash: string } };

/** The end user opened the page; the link cannot be used again. kycStatus is not touched. */
export type KycLinkOpened = { type: 'KycLinkOpened.v1'; data: KycLinkOpenedData };

export type KycLinkEvent = KycLinkIssued | KycLinkOpened;

/** Every event of the stream is declared in the identity catalogue, its stored data fitting the declaration. */
const _declared: Catalogued<typeof IDENTITY_EVENTS, KycLinkEvent> = true;
