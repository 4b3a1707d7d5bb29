import { createHash } from 'node:crypto';
import { verifyAuthenticationResponse, verifyRegistrationResponse } from '@simplewebauthn/server';
import type { AuthenticationResponseJSON, AuthenticatorTransportFuture, RegistrationResponseJSON } from '@simplewebauthn/server';
import { decodeAttestationObject, decodeClientDataJSON, isoBase64URL } from '@simplewebauthn/server/helpers';

/** `attestation` of a PASSKEY registration body: the browser's credential, flattened, all base64url. */
export interface PasskeyAttestation {
  credentialId: string;
  clientDataJson: string;
  attestationObject: string;
  transports?: string[];
}

/** `assertion` of a PASSKEY verify body, all base64url. */
export interface PasskeyAssertion {
  credentialId: string;
  clientDataJson: string;
  authenticatorData: string;
  signature: string;
  userHandle?: string;
}

/** What is stored of a registered passkey. */
export interface RegisteredPasskey {
  credentialId: string;
  /** base64url of the COSE_Key from the attestation. */
  publicKey: string;
  counter: number;
  transports: AuthenticatorTransportFuture[];
}

/** The check that failed; `input` is a body that is not even the right shape. */
export type PasskeyCheck = 'input' | 'credentialId' | 'type' | 'challenge' | 'origin' | 'rpId' | 'userPresence' | 'counter' | 'attestation' | 'signature';
export type PasskeyFailure = { ok: false; reason: PasskeyCheck; message: string };

/** COSE algorithms accepted: ES256, EdDSA, RS256 (as for SCA passkeys). */
const ALGORITHMS = [-7, -8, -257];
const TRANSPORTS: readonly string[] = ['ble', 'cable', 'hybrid', 'internal', 'nfc', 'smart-card', 'usb'];
/** Bounds decoding work on hostile bodies; attestation objects with certificate chains stay far below. */
const MAX_FIELD = 65_536;
const FLAG_UP = 0x01;

const fail = (reason: PasskeyCheck, message: string): PasskeyFailure => ({ ok: false, reason, message });
const field = (value: unknown): value is string => typeof value === 'string' && value.length > 0 && value.length <= MAX_FIELD;
const sha256 = (data: string | Uint8Array) => createHash('sha256').update(data).digest();
const errorText = (error: unknown) => (error instanceof Error ? error.message : 'malformed');

/** The server's assertion challenge for a session creation: lowercase hex SHA-256 of the body string's UTF-8 bytes. */
export function passkeyChallengeFor(sessionCreationBody: string): string {
  return createHash('sha256').update(sessionCreationBody, 'utf8').digest('hex');
}

/** The WebAuthn challenge for a hex challenge: the authenticator signs its UTF-8 bytes, so clientData carries base64url of those. */
export function webauthnChallengeOf(hexChallenge: string): string {
  return Buffer.from(hexChallenge, 'utf8').toString('base64url');
}

/** The WebAuthn steps before the library's: each named, so the caller can say which one failed. */
function checkClientData(clientDataJson: string, type: string, challenge: string, origins: string[]): PasskeyFailure | undefined {
  let clientData: Record<string, unknown>;
  try {
    clientData = decodeClientDataJSON(clientDataJson) as unknown as Record<string, unknown>;
  } catch {
    return fail('input', 'clientDataJson is not base64url JSON');
  }
  if (!clientData || typeof clientData !== 'object') return fail('input', 'clientDataJson is not a JSON object');
  if (clientData.type !== type) return fail('type', `clientData type must be ${type}`);
  if (clientData.challenge !== challenge) return fail('challenge', 'clientData challenge is not the expected challenge');
  if (typeof clientData.origin !== 'string' || !origins.includes(clientData.origin)) return fail('origin', `clientData origin must be one of ${origins.join(', ')}`);
  return undefined;
}

function checkAuthData(authData: Uint8Array, rpId: string): PasskeyFailure | undefined {
  if (authData.length < 37) return fail('input', 'authenticator data is shorter than 37 bytes');
  if (!sha256(rpId).equals(authData.subarray(0, 32))) return fail('rpId', `the RP ID hash is not that of ${rpId}`);
  if ((authData[32] & FLAG_UP) === 0) return fail('userPresence', 'the user-present flag is not set');
  return undefined;
}

/** `POST /auth/credentials` PASSKEY: the body's challenge, the attestation's client data, authenticator data and statement. */
export async function verifyPasskeyRegistration(input: {
  challenge: string;
  attestation: PasskeyAttestation;
  origins: string[];
  rpId: string;
}): Promise<{ ok: true; credential: RegisteredPasskey } | PasskeyFailure> {
  const { challenge, attestation, origins, rpId } = input;
  if (!field(challenge)) return fail('input', 'challenge must be a non-empty string');
  if (!attestation || typeof attestation !== 'object') return fail('input', 'attestation is required');
  const { credentialId, clientDataJson, attestationObject } = attestation;
  if (!field(credentialId) || !field(clientDataJson) || !field(attestationObject)) {
    return fail('input', 'attestation credentialId, clientDataJson and attestationObject must be base64url strings');
  }
  const clientFailure = checkClientData(clientDataJson, 'webauthn.create', challenge, origins);
  if (clientFailure) return clientFailure;
  let authData: Uint8Array;
  try {
    const decoded = decodeAttestationObject(isoBase64URL.toBuffer(attestationObject));
    authData = decoded.get('authData');
    if (!(authData instanceof Uint8Array)) throw new Error('no authData');
  } catch {
    return fail('input', 'attestationObject is not a CBOR attestation object');
  }
  const authFailure = checkAuthData(authData, rpId);
  if (authFailure) return authFailure;

  const transports = Array.isArray(attestation.transports)
    ? attestation.transports.filter((t): t is AuthenticatorTransportFuture => typeof t === 'string' && TRANSPORTS.includes(t)).slice(0, TRANSPORTS.length)
    : [];
  const response: RegistrationResponseJSON = {
    id: credentialId,
    rawId: credentialId,
    type: 'public-key',
    clientExtensionResults: {},
    response: { clientDataJSON: clientDataJson, attestationObject, transports },
  };
  let verified;
  try {
    verified = await verifyRegistrationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: origins,
      expectedRPID: rpId,
      // The interop rules ask for user presence only; UV is the authenticator's and the platform's choice.
      requireUserVerification: false,
      supportedAlgorithmIDs: ALGORITHMS,
    });
  } catch (error) {
    return fail('attestation', `the attestation does not verify: ${errorText(error)}`);
  }
  if (!verified.verified) return fail('attestation', 'the attestation statement does not verify');
  const { credential } = verified.registrationInfo;
  // The library does not tie the body's id to the attested one: a mismatch would store a key under a foreign id.
  if (credential.id !== credentialId) return fail('credentialId', 'credentialId is not the id in the attested credential data');
  return { ok: true, credential: { credentialId: credential.id, publicKey: isoBase64URL.fromBuffer(credential.publicKey), counter: credential.counter, transports } };
}

/**
 * `POST /auth/credentials/{id}/verify` PASSKEY: the assertion must answer `challengeHex` (see `passkeyChallengeFor`)
 * with the registered credential. On success the caller stores `newCounter`.
 */
export async function verifyPasskeyAssertion(input: {
  assertion: PasskeyAssertion;
  credential: RegisteredPasskey;
  challengeHex: string;
  origins: string[];
  rpId: string;
}): Promise<{ ok: true; newCounter: number } | PasskeyFailure> {
  const { assertion, credential, challengeHex, origins, rpId } = input;
  if (!assertion || typeof assertion !== 'object') return fail('input', 'assertion is required');
  const { credentialId, clientDataJson, authenticatorData, signature, userHandle } = assertion;
  if (!field(credentialId) || !field(clientDataJson) || !field(authenticatorData) || !field(signature)) {
    return fail('input', 'assertion credentialId, clientDataJson, authenticatorData and signature must be base64url strings');
  }
  // Absent, null or "" all mean no user handle (a non-discoverable credential).
  if (userHandle !== undefined && userHandle !== null && userHandle !== '' && !field(userHandle)) return fail('input', 'assertion userHandle must be a base64url string');
  if (credentialId !== credential.credentialId) return fail('credentialId', 'the assertion is not from the registered credential');
  const clientFailure = checkClientData(clientDataJson, 'webauthn.get', webauthnChallengeOf(challengeHex), origins);
  if (clientFailure) return clientFailure;
  let authData: Uint8Array;
  try {
    authData = isoBase64URL.toBuffer(authenticatorData);
  } catch {
    return fail('input', 'authenticatorData is not base64url');
  }
  const authFailure = checkAuthData(authData, rpId);
  if (authFailure) return authFailure;
  const counter = Buffer.from(authData).readUInt32BE(33); // rpIdHash (32) ‖ flags (1) ‖ signCount (4, big-endian)
  // A counter that does not grow betrays a cloned authenticator; 0 on both sides is an authenticator without one.
  if ((counter > 0 || credential.counter > 0) && counter <= credential.counter) return fail('counter', `the signature counter ${counter} did not increase past ${credential.counter}`);

  const response: AuthenticationResponseJSON = {
    id: credentialId,
    rawId: credentialId,
    type: 'public-key',
    clientExtensionResults: {},
    response: { clientDataJSON: clientDataJson, authenticatorData, signature, ...(field(userHandle) ? { userHandle } : {}) },
  };
  try {
    const result = await verifyAuthenticationResponse({
      response,
      expectedChallenge: webauthnChallengeOf(challengeHex),
      expectedOrigin: origins,
      expectedRPID: rpId,
      credential: {
        id: credential.credentialId,
        publicKey: new Uint8Array(isoBase64URL.toBuffer(credential.publicKey)),
        counter: credential.counter,
        transports: credential.transports,
      },
      requireUserVerification: false,
    });
    if (!result.verified) return fail('signature', 'the assertion signature does not verify');
    return { ok: true, newCounter: result.authenticationInfo.newCounter };
  } catch (error) {
    // Everything named above passed, so what is left is the signature (or its key): bad DER, wrong algorithm.
    return fail('signature', `the assertion does not verify: ${errorText(error)}`);
  }
}
