import { IsObject, IsString, MaxLength } from 'class-validator';

/**
 * POST /customers/{customerId}/sca/passkey: the browser's answer to the registration options
 * (`RegistrationResponseJSON` of WebAuthn L3, as `PublicKeyCredential.toJSON()` or @simplewebauthn/browser produce it)
 * and the origin the ceremony ran on. The object is checked by the WebAuthn verification, not field by field here:
 * browsers add fields over time and a closed schema would refuse them.
 */
export class EnrolScaPasskeyRequest {
  @IsObject() registrationResponse!: Record<string, unknown>;
  @IsString() @MaxLength(512) origin!: string;
}

/** POST /customers/{customerId}/sca/passkey/registration-options: what `navigator.credentials.create` needs. */
export interface ScaPasskeyRegistrationOptions {
  /** PublicKeyCredentialCreationOptionsJSON; its single-use `challenge` expires at `expiresAt`. */
  options: Record<string, unknown>;
  /** Origins the ceremony may run on; echo the one used as `origin`. */
  passkeyAllowedOrigins: string[];
  expiresAt: string;
}

/** The customer's enrolled SCA passkey (one per customer). */
export interface ScaPasskey {
  id: string;
  customerId: string;
  /** base64url, as the authenticator reported it. */
  credentialId: string;
  transports: string[];
  createdAt: string;
}
