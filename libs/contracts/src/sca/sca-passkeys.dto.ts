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
  /**
   * PublicKeyCredentialCreationOptionsJSON (WebAuthn L3) for navigator.credentials.create; its single-use `challenge` expires at `expiresAt`.
   */
  options: Record<string, unknown>;
  /** Origins the ceremony may run on; send the one used as `origin`. */
  passkeyAllowedOrigins: string[];
  /**
   * The challenge cannot be answered after this.
   * @format date-time
   */
  expiresAt: string;
}

/** The customer's enrolled SCA passkey (one per customer). */
export interface ScaPasskey {
  /** @pattern ^ScaPasskey: */
  id: string;
  /** @pattern ^Customer: */
  customerId: string;
  /** The WebAuthn credential id, base64url, as the authenticator reported it. */
  credentialId: string;
  /** As the authenticator reported them (usb, nfc, ble, internal, hybrid). */
  transports: string[];
  /** @format date-time */
  createdAt: string;
}
