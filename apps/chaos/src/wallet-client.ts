import type { ApiClient } from './client';

/**
 * What a platform's client does for an Embedded Wallet (docs/wallet-auth.md) with the published Turnkey client
 * libraries, as libs/testing/src/turnkey-clients.ts loads them for the e2e specs (libs/testing is test-only, not
 * built; the chaos runner is): an OTP login, and the API-key stamp of a payload by the session key.
 */
interface TurnkeyCrypto {
  generateP256KeyPair(): { privateKey: string; publicKey: string; publicKeyUncompressed: string };
  encryptOtpCodeToBundle(otpCode: string, otpEncryptionTargetBundle: string, publicKey: string, dangerouslyOverrideSignerPublicKey?: string): Promise<string>;
}
interface TurnkeyApiKeyStamper {
  ApiKeyStamper: new (config: { apiPublicKey: string; apiPrivateKey: string }) => { stamp(payload: string): Promise<{ stampHeaderValue: string }> };
}
// eslint-disable-next-line @typescript-eslint/no-require-imports
const turnkeyCrypto: TurnkeyCrypto = require('@turnkey/crypto');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const turnkeyStamper: TurnkeyApiKeyStamper = require('@turnkey/api-key-stamper');

/** A session key the client holds (compressed public key: the key never leaves the client). */
export interface SessionKey {
  privateKeyHex: string;
  publicKeyCompressed: string;
}

/** The `Service-Wallet-Signature` value: the stamp of `payload` by the session key. */
export async function walletStamp(key: SessionKey, payload: string): Promise<string> {
  const stamper = new turnkeyStamper.ApiKeyStamper({ apiPublicKey: key.publicKeyCompressed, apiPrivateKey: key.privateKeyHex });
  return (await stamper.stamp(payload)).stampHeaderValue;
}

/**
 * The OTP login of the wallet's EMAIL_OTP credential (the sandbox OTP is 000000): challenge, the OTP sealed to the
 * target bundle with a fresh client key, verify (202 with a verification token to sign), the signed retry (200: the
 * session, whose key is the client key).
 */
export async function otpLogin(client: ApiClient, credentialId: string): Promise<SessionKey> {
  const challenge = await client.must('POST', `/auth/credentials/${credentialId}/challenge`, {});
  const pair = turnkeyCrypto.generateP256KeyPair();
  const key = { privateKeyHex: pair.privateKey, publicKeyCompressed: pair.publicKey };
  // The client pins the signer of the bundle; a self-hosted server's is the key its bundles carry.
  const pinned = JSON.parse(challenge.otpEncryptionTargetBundle).enclaveQuorumPublic as string;
  const encryptedOtpBundle = await turnkeyCrypto.encryptOtpCodeToBundle('000000', challenge.otpEncryptionTargetBundle, key.publicKeyCompressed, pinned);
  const body = { type: challenge.type, encryptedOtpBundle };
  const first = await client.send('POST', `/auth/credentials/${credentialId}/verify`, body);
  if (first.status !== 202) throw new Error(`OTP verify: ${first.status} ${JSON.stringify(first.body)}`);
  const headers = { 'service-wallet-signature': await walletStamp(key, first.body.payloadToSign), 'request-id': first.body.requestId };
  const session = await client.send('POST', `/auth/credentials/${credentialId}/verify`, body, undefined, headers);
  if (session.status !== 200) throw new Error(`OTP verify (signed): ${session.status} ${JSON.stringify(session.body)}`);
  return key;
}
