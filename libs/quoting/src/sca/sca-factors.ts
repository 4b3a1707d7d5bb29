import { createHash } from 'node:crypto';
import { generateAuthenticationOptions, verifyAuthenticationResponse } from '@simplewebauthn/server';
import type { AuthenticationResponseJSON, AuthenticatorTransportFuture, PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/server';
import { ApiError, Mode, ScaFactor } from '@payments/contracts';
import { DomainError } from '@payments/eventsourcing';
import { ScaPasskeyService } from './sca-passkey.service';
import { ScaPasskeyRow } from './sca-passkey.view';

/** The sandbox's fixed SCA code (spec: every SCA code in the sandbox is 123456; nothing is delivered). */
export const SANDBOX_SCA_CODE = '123456';
/** Interop §7: a legacy sandbox literal that stands in for a real assertion signature (sandbox only). */
export const LEGACY_SANDBOX_PASSKEY_SIGNATURE = 'sandbox-valid-passkey-signature';

export interface ScaAuthorizationProof {
  code?: string;
  /** AuthenticationResponseJSON, or the flat `{credentialId, clientDataJson, authenticatorData, signature, userHandle?}`. */
  passkeyAssertion?: Record<string, unknown>;
  origin?: string;
}

export interface ScaVerifyArgs {
  platformId: string;
  mode: Mode;
  customerId: string;
  /** The challenge being answered (`ScaChallenge:<uuid>`): the WebAuthn challenge is derived from it. */
  challengeId: string;
  factor: ScaFactor;
  authorization: ScaAuthorizationProof;
  now: string;
}

export type ScaVerification =
  | { ok: true }
  | { ok: false; code: 'SCA_AUTHORIZATION_FAILED' | 'INVALID_INPUT' | 'NOT_IMPLEMENTED'; message: string; details?: Record<string, unknown> };

type ScaFailure = Extract<ScaVerification, { ok: false }>;
const fail = (code: ScaFailure['code'], field: string, message: string): ScaFailure => ({ ok: false, code, message, details: { errors: [{ field, message }] } });

/**
 * The factors that authorize an SCA challenge, for the quote lifecycle (`POST /quotes/{id}/authorize`). It does not
 * know quotes: the caller names the challenge, the factor it was issued for, and passes the customer's proof.
 */
export class ScaFactors {
  constructor(private readonly passkeys: ScaPasskeyService) {}

  get passkeyAllowedOrigins(): string[] {
    return this.passkeys.config.origins;
  }

  /**
   * SMS_OTP in the sandbox (it needs no enrolment; production has no SMS provider, so none there); PASSKEY once the
   * customer enrolled one. TOTP is never per-transaction.
   */
  async availableFactors(platformId: string, mode: Mode, customerId: string): Promise<ScaFactor[]> {
    const sms: ScaFactor[] = mode === 'SANDBOX' ? ['SMS_OTP'] : [];
    return (await this.passkeys.find({ platformId, mode }, customerId)) ? [...sms, 'PASSKEY'] : sms;
  }

  /**
   * PublicKeyCredentialRequestOptionsJSON for a PASSKEY challenge: the enrolled credential only, and a challenge
   * derived from the challenge id, so nothing is stored and each round (a new id) asks for a new signature.
   */
  async passkeyAssertionOptions(platformId: string, mode: Mode, customerId: string, challengeId: string): Promise<PublicKeyCredentialRequestOptionsJSON> {
    const passkey = await this.passkeys.find({ platformId, mode }, customerId);
    if (!passkey) throw new ApiError('INVALID_INPUT', 'the customer has no enrolled passkey: PASSKEY is not available', { errors: [{ field: 'scaFactor', message: 'no passkey enrolled' }] });
    return generateAuthenticationOptions({
      rpID: this.passkeys.config.rpId,
      allowCredentials: [{ id: passkey.credential_id, transports: passkey.transports as AuthenticatorTransportFuture[] }],
      // Bytes: a string would be taken as UTF-8 and encoded once more.
      challenge: Buffer.from(passkeyChallenge(challengeId), 'base64url'),
      userVerification: 'required',
      timeout: 5 * 60_000,
    });
  }

  async verify(args: ScaVerifyArgs): Promise<ScaVerification> {
    switch (args.factor) {
      case 'SMS_OTP':
        return this.verifyCode(args);
      case 'PASSKEY':
        return this.verifyPasskey(args);
      case 'TOTP':
        return fail('INVALID_INPUT', 'factor', 'TOTP cannot authorize a transaction');
      default:
        return fail('INVALID_INPUT', 'factor', 'unknown SCA factor');
    }
  }

  private verifyCode({ mode, authorization }: ScaVerifyArgs): ScaVerification {
    // Production has no SMS provider yet: nothing was sent, so no code can be right. Say so instead of "wrong code".
    if (mode !== 'SANDBOX') return fail('NOT_IMPLEMENTED', 'code', 'SMS_OTP needs an SMS provider, which production does not have yet: use PASSKEY');
    if (typeof authorization.code !== 'string' || authorization.code === '') return fail('INVALID_INPUT', 'code', 'code is required for SMS_OTP');
    return authorization.code === SANDBOX_SCA_CODE ? { ok: true } : fail('SCA_AUTHORIZATION_FAILED', 'code', 'the code is not correct');
  }

  private async verifyPasskey(args: ScaVerifyArgs): Promise<ScaVerification> {
    const { authorization } = args;
    const origin = authorization.origin;
    const passkey = await this.passkeys.find(args, args.customerId);
    if (!passkey) return fail('SCA_AUTHORIZATION_FAILED', 'passkeyAssertion', 'the customer has no enrolled passkey');
    const assertion = toAssertion(authorization.passkeyAssertion);
    if (!assertion) return fail('INVALID_INPUT', 'passkeyAssertion', 'passkeyAssertion is required for PASSKEY: the WebAuthn assertion (AuthenticationResponseJSON)');
    const allowed = this.passkeys.config.origins;
    if (origin !== undefined && !allowed.includes(origin)) return fail('SCA_AUTHORIZATION_FAILED', 'origin', `origin must be one of ${allowed.join(', ')}`);
    if (assertion.id !== passkey.credential_id) return fail('SCA_AUTHORIZATION_FAILED', 'passkeyAssertion', 'the assertion is not from the enrolled passkey');
    if (assertion.response.signature === LEGACY_SANDBOX_PASSKEY_SIGNATURE) {
      return args.mode === 'SANDBOX' ? { ok: true } : fail('SCA_AUTHORIZATION_FAILED', 'passkeyAssertion', 'the sandbox signature literal is not accepted in production');
    }
    const checked = await this.checkAssertion(assertion, passkey, args.challengeId, origin ? [origin] : allowed);
    if (!checked.ok) return checked;
    try {
      await this.passkeys.run(args, args.customerId, {
        type: 'RecordScaPasskeyUse',
        passkeyId: passkey.passkey_id,
        challengeId: args.challengeId,
        counter: checked.counter,
        platformId: args.platformId,
        mode: args.mode,
        now: args.now,
      });
    } catch (error) {
      if (error instanceof DomainError) return { ok: false, code: 'SCA_AUTHORIZATION_FAILED', message: error.message, details: error.details };
      throw error;
    }
    return { ok: true };
  }

  /** The library does every WebAuthn check: type, challenge, origin, RP id hash, UP and UV flags, counter, signature. */
  private async checkAssertion(assertion: AuthenticationResponseJSON, passkey: ScaPasskeyRow, challengeId: string, origins: string[]): Promise<{ ok: true; counter: number } | ScaFailure> {
    try {
      const result = await verifyAuthenticationResponse({
        response: assertion,
        expectedChallenge: passkeyChallenge(challengeId),
        expectedOrigin: origins,
        expectedRPID: this.passkeys.config.rpId,
        credential: { id: passkey.credential_id, publicKey: new Uint8Array(passkey.public_key), counter: Number(passkey.counter), transports: passkey.transports as AuthenticatorTransportFuture[] },
        requireUserVerification: true,
      });
      if (!result.verified) return fail('SCA_AUTHORIZATION_FAILED', 'passkeyAssertion', 'the assertion signature does not verify');
      return { ok: true, counter: result.authenticationInfo.newCounter };
    } catch (error) {
      // The library's reasons name the failed check; they never contain key material or the signature.
      return fail('SCA_AUTHORIZATION_FAILED', 'passkeyAssertion', `the assertion does not verify: ${error instanceof Error ? error.message : 'malformed'}`);
    }
  }
}

/** base64url(SHA-256(domain ‖ challengeId)): a fixed-length WebAuthn challenge bound to one SCA round. */
export function passkeyChallenge(challengeId: string): string {
  return createHash('sha256').update(`payments-platform/sca-passkey-challenge/v1\n${challengeId}`).digest('base64url');
}

/**
 * Accepts the WebAuthn JSON form and the flat form of the reference clients (interop §2.7); anything else is
 * undefined (400). Field types are the library's to check.
 */
function toAssertion(value: Record<string, unknown> | undefined): AuthenticationResponseJSON | undefined {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const response = value.response;
  if (response && typeof response === 'object' && !Array.isArray(response)) {
    return { ...(value as object), clientExtensionResults: (value.clientExtensionResults as object) ?? {} } as AuthenticationResponseJSON;
  }
  if (typeof value.credentialId !== 'string') return undefined;
  return {
    id: value.credentialId,
    rawId: value.credentialId,
    type: 'public-key',
    clientExtensionResults: {},
    response: {
      clientDataJSON: value.clientDataJson as string,
      authenticatorData: value.authenticatorData as string,
      signature: value.signature as string,
      ...(typeof value.userHandle === 'string' ? { userHandle: value.userHandle } : {}),
    },
  };
}
