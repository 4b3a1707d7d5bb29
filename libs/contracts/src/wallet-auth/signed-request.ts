/**
 * The two headers of a signed retry, as the gateway read them (absent headers are undefined). Leg 1 carries
 * neither; the signed retry carries both (`Request-Id` alone answers a passkey challenge).
 */
export interface WalletSignatureHeaders {
  /** `Service-Wallet-Signature`: the API-key stamp over the challenge's payloadToSign. */
  walletSignature?: string;
  /** `Request-Id`: the requestId of the challenge answered. */
  requestId?: string;
}

/** The RPC body of an operation that may need a wallet signature. */
export type SignedBody<B> = B & { signature: WalletSignatureHeaders };

/** What such an operation answers: a challenge to sign (HTTP 202), or its result (the operation's own status). */
export type SignedOutcome<T, C> = { challenge: C; result?: never } | { result: T; challenge?: never };

/** Operations of other services that a wallet signs (their effect is theirs; wallet-auth checks the signature). */
export const SIGNED_REQUEST_OPERATIONS = ['UPDATE_INTERNAL_ACCOUNT', 'UPDATE_CUSTOMER_EMAIL', 'UPDATE_CUSTOMER_PHONE', 'UPDATE_CARD'] as const;
export type SignedRequestOperation = (typeof SIGNED_REQUEST_OPERATIONS)[number];

/**
 * WalletAuthRpc.authorizeSignedRequest: the signed retry of another service's request on an Embedded Wallet. Without
 * signature headers it answers the challenge (the service answers 202 with it); with them, the session that signed.
 */
export interface AuthorizeSignedRequestBody {
  accountId: string;
  operation: SignedRequestOperation;
  /** The resource the request acts on (its path id). */
  target: string;
  /** The request body the retry must repeat. */
  request: unknown;
  /** What payloadToSign shows the signer: the activity type and its parameters. */
  activity: string;
  parameters: Record<string, unknown>;
  signature: WalletSignatureHeaders;
}

/** WalletAuthRpc.verifyPayloadSignature: a stamp over a payload the caller issued itself (a quote's payloadToSign). */
export interface VerifyPayloadSignatureBody {
  accountId: string;
  payloadToSign: string;
  walletSignature: string;
}

/** Who signed: a live session of the wallet. */
export interface WalletSigner {
  sessionId: string;
}

/**
 * WalletAuthRpc.changeCustomerContact: identity is about to change a customer's email or phone. When the customer's
 * Embedded Wallets hold credentials tied to it (EMAIL_OTP, SMS_OTP), the change is a signed retry and the credentials
 * change with it; otherwise nothing is needed.
 */
export interface ChangeCustomerContactBody {
  customerId: string;
  /** The new values; only the ones that change. */
  email?: string;
  phoneNumber?: string;
  /** The PATCH body the retry must repeat. */
  request: unknown;
  signature: WalletSignatureHeaders;
}

/** How many wallets' credentials changed (0: no wallet credential is tied to the contact), and what they held before. */
export interface CustomerContactChanged {
  walletsChanged: number;
  previous?: { email?: string; phoneNumber?: string };
}

/** WalletAuthRpc.restoreCustomerContact: identity could not record a change wallet-auth already made; put it back. */
export interface RestoreCustomerContactBody {
  customerId: string;
  email?: string;
  phoneNumber?: string;
}
