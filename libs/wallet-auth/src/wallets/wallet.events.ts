import type { AuthMethodType, Catalogued, Mode, SignedRequestOperation, WALLET_AUTH_EVENTS } from '@payments/contracts';

/**
 * Events of one Embedded Wallet (stream `EmbeddedWallet:<accountId>`), all internal to wallet-auth. Secrets never
 * enter them in the clear: the mnemonic and delegated private keys are sealed, OTPs are HMACs, other private keys
 * are not recorded at all (an OTP's target key is derived from the server key and the issue id).
 */

/** What a credential is, beyond its type: the OTP contact, the OIDC identity, the passkey's public key. */
export interface CredentialRecord {
  id: string;
  type: AuthMethodType;
  nickname: string;
  /** EMAIL_OTP / SMS_OTP: where the OTP goes (the customer's email or phone at the time). */
  contact?: string;
  oauth?: { iss: string; aud: string; sub: string };
  passkey?: { credentialId: string; publicKey: string; counter: number; transports: string[]; registrationChallenge: string };
  createdAt: string;
}

export type WalletOperation =
  | 'CREATE_CREDENTIAL'
  | 'REVOKE_CREDENTIAL'
  | 'VERIFY_OTP'
  | 'VERIFY_PASSKEY'
  | 'REVOKE_SESSION'
  | 'REFRESH_SESSION'
  | 'EXPORT'
  /** POST /auth/delegated-keys: leg 2 answers CREATE (the key is made PENDING), leg 3 answers ACTIVATE. */
  | 'CREATE_DELEGATED_KEY'
  | 'ACTIVATE_DELEGATED_KEY'
  /** Signed requests of other services (WalletAuthRpc.authorizeSignedRequest). */
  | SignedRequestOperation;

export type { SignedRequestOperation } from '@payments/contracts';

/** Who may answer a challenge: a session of the wallet (optionally not one of a given credential, or one session), or one key. */
export type ChallengeSigner = { kind: 'SESSION'; notOfCredentialId?: string; sessionId?: string } | { kind: 'KEY'; publicKey: string } | { kind: 'PASSKEY'; credentialId: string };

export interface PendingChallenge {
  requestId: string;
  operation: WalletOperation;
  /** The credential or session the request acts on (the path's id), so a challenge cannot answer another target. */
  target: string | null;
  /** SHA-256 of the request body (canonical JSON): the signed retry must carry the same body. */
  bodySha256: string;
  payloadToSign: string;
  signer: ChallengeSigner;
  /** PASSKEY verification: the client key the session will be opened for. */
  clientPublicKey?: string;
  /** A contact change: the credentials it was issued for (the retry finds another set: 409). */
  boundCredentialIds?: string[];
  /** ACTIVATE_DELEGATED_KEY: the PENDING key the third leg activates (its public key is in payloadToSign). */
  delegatedKeyId?: string;
  createdAt: string;
  expiresAt: string;
}

export interface SessionRecord {
  id: string;
  credentialId: string;
  type: AuthMethodType;
  /** Compressed SEC1 hex of the key that signs for this session. */
  publicKey: string;
  createdAt: string;
  expiresAt: string;
}

/**
 * A server-custodied P-256 key of a card funding source (interop §2.10). The private key is sealed with the
 * service's sealer, the stream and key id as associated data; it never appears in the clear in an event or a log.
 */
export interface DelegatedKeyRecord {
  id: string;
  cardId: string;
  fundingSourceId: string;
  /** Compressed SEC1 hex. */
  publicKey: string;
  nickname: string;
  sealedPrivateKey: string;
  createdAt: string;
}

export type WalletProvisioned = {
  type: 'WalletProvisioned.v1';
  data: { accountId: string; customerId: string; platformId: string; mode: Mode; organizationId: string; sealedMnemonic: string; at: string };
};
export type WalletCredentialAdded = { type: 'WalletCredentialAdded.v1'; data: { credential: CredentialRecord; at: string } };
export type WalletCredentialContactChanged = { type: 'WalletCredentialContactChanged.v1'; data: { credentialId: string; contact: string; at: string } };
export type WalletCredentialRevoked = { type: 'WalletCredentialRevoked.v1'; data: { credentialId: string; at: string } };
export type WalletOtpIssued = { type: 'WalletOtpIssued.v1'; data: { credentialId: string; issueId: string; codeHash: string; expiresAt: string; at: string } };
export type WalletOtpAttemptFailed = { type: 'WalletOtpAttemptFailed.v1'; data: { credentialId: string; reason: string; at: string } };
export type WalletOtpConsumed = { type: 'WalletOtpConsumed.v1'; data: { credentialId: string; issueId: string; at: string } };
export type WalletChallengeIssued = { type: 'WalletChallengeIssued.v1'; data: { challenge: PendingChallenge; at: string } };
export type WalletChallengeAnswered = { type: 'WalletChallengeAnswered.v1'; data: { requestId: string; at: string } };
export type WalletSessionOpened = { type: 'WalletSessionOpened.v1'; data: { session: SessionRecord; at: string } };
export type WalletSessionRevoked = { type: 'WalletSessionRevoked.v1'; data: { sessionId: string; at: string } };
export type WalletPasskeyUsed = { type: 'WalletPasskeyUsed.v1'; data: { credentialId: string; counter: number; at: string } };
/** `keyDigest`: SHA-256 of the export key, so a key is never used twice. */
export type WalletExported = { type: 'WalletExported.v1'; data: { keyDigest: string; at: string } };
export type WalletDelegatedKeyCreated = { type: 'WalletDelegatedKeyCreated.v1'; data: { key: DelegatedKeyRecord; at: string } };
export type WalletDelegatedKeyActivated = { type: 'WalletDelegatedKeyActivated.v1'; data: { delegatedKeyId: string; at: string } };
export type WalletDelegatedKeyRevoked = { type: 'WalletDelegatedKeyRevoked.v1'; data: { delegatedKeyId: string; at: string } };

export type WalletEvent =
  | WalletProvisioned
  | WalletCredentialAdded
  | WalletCredentialRevoked
  | WalletCredentialContactChanged
  | WalletOtpIssued
  | WalletOtpAttemptFailed
  | WalletOtpConsumed
  | WalletChallengeIssued
  | WalletChallengeAnswered
  | WalletSessionOpened
  | WalletSessionRevoked
  | WalletPasskeyUsed
  | WalletExported
  | WalletDelegatedKeyCreated
  | WalletDelegatedKeyActivated
  | WalletDelegatedKeyRevoked;

/** Every event of the stream is declared (internal) in the wallet-auth catalogue. */
const _declared: Catalogued<typeof WALLET_AUTH_EVENTS, WalletEvent> = true;
