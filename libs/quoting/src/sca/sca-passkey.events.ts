import type { Catalogued, Mode, QUOTING_EVENTS } from '@payments/contracts';

/**
 * Events of a customer's SCA passkey (stream `ScaPasskey:<customerId>`, one per customer), on the quoting topic.
 * The public key is public by nature and travels as is; assertions never enter an event or a log.
 */
export type ScaPasskeyEnrolled = {
  type: 'ScaPasskeyEnrolled.v1';
  data: {
    passkeyId: string;
    customerId: string;
    platformId: string;
    mode: Mode;
    /** base64url, as the authenticator reported it. */
    credentialId: string;
    /** COSE_Key, base64url. */
    publicKey: string;
    /** The authenticator's signature counter at registration (0 = it keeps none). */
    counter: number;
    transports: string[];
    aaguid: string;
    deviceType: 'singleDevice' | 'multiDevice';
    backedUp: boolean;
    /** The origin the registration ran on (one of the allowed origins). */
    origin: string;
    enrolledAt: string;
  };
};

/** A verified assertion for one SCA challenge: the counter it reported, so a replay with a stale counter fails. */
export type ScaPasskeyUsed = { type: 'ScaPasskeyUsed.v1'; data: { passkeyId: string; challengeId: string; counter: number; at: string } };

export type ScaPasskeyRemoved = { type: 'ScaPasskeyRemoved.v1'; data: { passkeyId: string; at: string } };

export type ScaPasskeyEvent = ScaPasskeyEnrolled | ScaPasskeyUsed | ScaPasskeyRemoved;

/** Every event of the stream is declared (internal) in the quoting catalogue. */
const _declared: Catalogued<typeof QUOTING_EVENTS, ScaPasskeyEvent> = true;
