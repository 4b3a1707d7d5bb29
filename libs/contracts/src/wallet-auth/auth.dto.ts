import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsIn, IsNotEmptyObject, IsString, Matches, MaxLength, MinLength, ValidateIf, ValidateNested } from 'class-validator';
import { OptionalNotNull } from '../optional-not-null';
import { AUTH_METHOD_TYPES, AuthMethodType } from './auth';

/** SEC1 P-256 public key, hex: compressed (02/03, 66) selects the client-held-key model, uncompressed (04, 130) the legacy one. */
export const CLIENT_PUBLIC_KEY = /^(0[23][0-9a-fA-F]{64}|04[0-9a-fA-F]{128})$/;
const BASE64URL = /^[A-Za-z0-9_-]+={0,2}$/;
/** Letters, digits, spaces and . _ - ' ( ) — what a passkey's name may hold. */
const PASSKEY_NICKNAME = /^[\p{L}\p{N} ._'()-]+$/u;
const TRANSPORTS = ['usb', 'nfc', 'ble', 'internal', 'hybrid', 'smart-card', 'cable'] as const;
/** Base64url WebAuthn fields (attestation objects of platform authenticators stay far below this). */
const WEBAUTHN_FIELD_MAX = 16_384;

/** The WebAuthn registration of a PASSKEY credential, each field base64url as the browser produced it. */
export class PasskeyAttestationDto {
  @IsString() @MinLength(1) @MaxLength(1024) @Matches(BASE64URL) credentialId!: string;
  @IsString() @MinLength(1) @MaxLength(WEBAUTHN_FIELD_MAX) @Matches(BASE64URL) clientDataJson!: string;
  @IsString() @MinLength(1) @MaxLength(WEBAUTHN_FIELD_MAX) @Matches(BASE64URL) attestationObject!: string;
  @OptionalNotNull() @IsArray() @ArrayMaxSize(8) @IsIn(TRANSPORTS, { each: true }) transports?: string[];
}

/** A WebAuthn assertion answering a PASSKEY challenge, each field base64url. */
export class PasskeyAssertionDto {
  @IsString() @MinLength(1) @MaxLength(1024) @Matches(BASE64URL) credentialId!: string;
  @IsString() @MinLength(1) @MaxLength(WEBAUTHN_FIELD_MAX) @Matches(BASE64URL) clientDataJson!: string;
  @IsString() @MinLength(1) @MaxLength(WEBAUTHN_FIELD_MAX) @Matches(BASE64URL) authenticatorData!: string;
  /** DER ECDSA, RSA PKCS#1 or Ed25519 signature, base64url (the sandbox also takes `sandbox-valid-passkey-signature`). */
  @IsString() @MinLength(1) @MaxLength(2048) signature!: string;
  @OptionalNotNull() @IsString() @MaxLength(1024) @Matches(BASE64URL) userHandle?: string;
}

/**
 * POST /auth/credentials: EMAIL_OTP and SMS_OTP take only `accountId` (the contact is the customer's), OAUTH an
 * `oidcToken`, PASSKEY a `nickname`, the platform-issued `challenge` and the `attestation`.
 */
export class CreateAuthCredentialRequest {
  @IsIn(AUTH_METHOD_TYPES) type!: AuthMethodType;
  @IsString() @MaxLength(64) accountId!: string;
  @ValidateIf((o: CreateAuthCredentialRequest) => o.type === 'OAUTH' || o.oidcToken !== undefined) @IsString() @MinLength(1) @MaxLength(8192) oidcToken?: string;
  @ValidateIf((o: CreateAuthCredentialRequest) => o.type === 'PASSKEY' || o.nickname !== undefined)
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  @Matches(PASSKEY_NICKNAME, { message: "nickname may hold letters, digits, spaces and . _ - ' ( )" })
  nickname?: string;
  @ValidateIf((o: CreateAuthCredentialRequest) => o.type === 'PASSKEY' || o.challenge !== undefined) @IsString() @MinLength(16) @MaxLength(1024) @Matches(BASE64URL) challenge?: string;
  @ValidateIf((o: CreateAuthCredentialRequest) => o.type === 'PASSKEY' || o.attestation !== undefined)
  @IsNotEmptyObject()
  @ValidateNested()
  @Type(() => PasskeyAttestationDto)
  attestation?: PasskeyAttestationDto;
}

/** POST /auth/credentials/{id}/challenge: `clientPublicKey` is required for a PASSKEY, ignored otherwise. */
export class ChallengeAuthCredentialRequest {
  @OptionalNotNull() @IsString() @Matches(CLIENT_PUBLIC_KEY, { message: 'clientPublicKey must be a SEC1 P-256 public key in hex (66 or 130 characters)' }) clientPublicKey?: string;
}

/**
 * POST /auth/credentials/{id}/verify: EMAIL_OTP / SMS_OTP an `encryptedOtpBundle`; OAUTH an `oidcToken` and the
 * `clientPublicKey`; PASSKEY the `assertion` (with the challenge's Request-Id header).
 */
export class VerifyAuthCredentialRequest {
  @IsIn(AUTH_METHOD_TYPES) type!: AuthMethodType;
  @ValidateIf((o: VerifyAuthCredentialRequest) => o.type === 'EMAIL_OTP' || o.type === 'SMS_OTP' || o.encryptedOtpBundle !== undefined)
  @IsString()
  @MinLength(1)
  @MaxLength(4096)
  encryptedOtpBundle?: string;
  @ValidateIf((o: VerifyAuthCredentialRequest) => o.type === 'OAUTH' || o.oidcToken !== undefined) @IsString() @MinLength(1) @MaxLength(8192) oidcToken?: string;
  @ValidateIf((o: VerifyAuthCredentialRequest) => o.type === 'OAUTH' || o.clientPublicKey !== undefined)
  @IsString()
  @Matches(CLIENT_PUBLIC_KEY, { message: 'clientPublicKey must be a SEC1 P-256 public key in hex (66 or 130 characters)' })
  clientPublicKey?: string;
  @ValidateIf((o: VerifyAuthCredentialRequest) => o.type === 'PASSKEY' || o.assertion !== undefined)
  @IsNotEmptyObject()
  @ValidateNested()
  @Type(() => PasskeyAssertionDto)
  assertion?: PasskeyAssertionDto;
}

/** GET /auth/credentials and GET /auth/sessions: the Embedded Wallet internal account. */
export class WalletAccountQuery {
  @IsString() @MinLength(1) @MaxLength(64) accountId!: string;
}

/** POST /auth/sessions/{id}/refresh; the same key on both legs. */
export class RefreshAuthSessionRequest {
  @IsString() @Matches(CLIENT_PUBLIC_KEY, { message: 'clientPublicKey must be a SEC1 P-256 public key in hex (66 or 130 characters)' }) clientPublicKey!: string;
}

/** POST /internal-accounts/{id}/export: a fresh uncompressed P-256 key, used once, to seal the mnemonic to. */
export class ExportInternalAccountRequest {
  @IsString() @Matches(/^04[0-9a-fA-F]{128}$/, { message: 'clientPublicKey must be an uncompressed SEC1 P-256 public key in hex (04 and 128 hex characters)' }) clientPublicKey!: string;
}
