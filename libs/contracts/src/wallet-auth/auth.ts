/** The kinds of Embedded Wallet credential. */
export const AUTH_METHOD_TYPES = ['EMAIL_OTP', 'SMS_OTP', 'OAUTH', 'PASSKEY'] as const;
export type AuthMethodType = (typeof AUTH_METHOD_TYPES)[number];

/** A credential that authenticates an Embedded Wallet internal account. */
export interface AuthMethod {
  /** @pattern ^AuthMethod: */
  id: string;
  /** @pattern ^InternalAccount: */
  accountId: string;
  type: AuthMethodType;
  /** PASSKEY only: the WebAuthn credential id (base64url), for `allowCredentials[].id`. */
  credentialId?: string;
  /** EMAIL_OTP: the email; SMS_OTP: the E.164 phone number; OAUTH: the token's email claim; PASSKEY: the name given at registration. */
  nickname: string;
  /** @format date-time */
  createdAt: string;
  /** @format date-time */
  updatedAt: string;
}

/** An AuthMethod, with the HPKE target for the OTP just sent when the response issued one. */
export interface AuthMethodResponse extends AuthMethod {
  /**
   * EMAIL_OTP / SMS_OTP responses that sent an OTP: a JSON string `{version, data, dataSignature, enclaveQuorumPublic}` whose
   * `data` (hex of JSON) carries `targetPublic`, the P-256 key to HPKE-encrypt `{otp_code, public_key}` to. One-time.
   */
  otpEncryptionTargetBundle?: string;
}

/** POST /auth/credentials/{id}/challenge of a PASSKEY: what `navigator.credentials.get()` answers. */
export interface PasskeyAuthChallenge extends AuthMethod {
  credentialId: string;
  /** Lowercase hex SHA-256 of the session-creation request; the WebAuthn challenge is its UTF-8 bytes. */
  challenge: string;
  /** @pattern ^Request: */
  requestId: string;
  /** @format date-time */
  expiresAt: string;
}

/** An authentication session of an Embedded Wallet; its key signs wallet requests until `expiresAt`. */
export interface AuthSession extends Omit<AuthMethod, 'id'> {
  /** @pattern ^Session: */
  id: string;
  /**
   * Deprecated legacy flow only (an uncompressed `clientPublicKey` was sent): the session's private key, HPKE-sealed to
   * that key, base58check. Never listed.
   */
  encryptedSessionSigningKey?: string;
  /** @format date-time */
  expiresAt: string;
}

export interface AuthCredentialList {
  data: AuthMethod[];
}

export interface SessionList {
  data: AuthSession[];
}

/** 202 of a request that needs a wallet signature: sign `payloadToSign`, repeat the request with the signature. */
export interface SignedRequestChallenge {
  /** Sign these exact bytes (UTF-8) with the wallet key; do not parse or re-serialise. */
  payloadToSign: string;
  /** Send back as the `Request-Id` header of the signed retry. @pattern ^Request: */
  requestId: string;
  /** @format date-time */
  expiresAt: string;
}

/** The challenge of an Embedded Wallet Auth operation: also the type of the credential added, revoked, authenticated or that issued the session. */
export interface AuthSignedRequestChallenge extends SignedRequestChallenge {
  type: AuthMethodType;
}

/** POST /internal-accounts/{id}/export: the wallet's mnemonic, HPKE-sealed to the request's `clientPublicKey`. */
export interface InternalAccountExportResponse {
  /** @pattern ^InternalAccount: */
  id: string;
  /** JSON string `{version, data, dataSignature, enclaveQuorumPublic}`; `data` (hex of JSON) holds `encappedPublic`, `ciphertext`, `organizationId`. */
  /** Shown once: absent on an Idempotency-Key replay. */
  encryptedWalletCredentials?: string;
}

/** POST /auth/credentials/{id}/challenge: the OTP credential with its new target bundle, or the passkey challenge. */
export type AuthCredentialChallenge = AuthMethodResponse | PasskeyAuthChallenge;
