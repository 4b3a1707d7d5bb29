/**
 * Test fixture: the published Turnkey client libraries (`@turnkey/crypto`, `@turnkey/api-key-stamper`), the clients
 * a platform would use against Embedded Wallet Auth. Loaded with `require` and typed here: their .d.ts carries
 * `/// <reference lib="dom" />`, which would put the DOM lib into the whole project's type program. The signatures
 * are the subset our tests use, as the packages' sources define them.
 */
export interface TurnkeyCrypto {
  generateP256KeyPair(): { privateKey: string; publicKey: string; publicKeyUncompressed: string };
  getPublicKey(privateKey: Uint8Array | string, isCompressed?: boolean): Uint8Array;
  uncompressRawPublicKey(rawPublicKey: Uint8Array): Uint8Array;
  hpkeEncrypt(params: { plainTextBuf: Uint8Array; targetKeyBuf: Uint8Array }): Uint8Array;
  hpkeDecrypt(params: { ciphertextBuf: Uint8Array; encappedKeyBuf: Uint8Array; receiverPriv: string }): Uint8Array;
  formatHpkeBuf(encryptedBuf: Uint8Array): string;
  decryptCredentialBundle(credentialBundle: string, embeddedKey: string): string;
  decryptExportBundle(params: { exportBundle: string; embeddedKey: string; organizationId: string; returnMnemonic: boolean; dangerouslyOverrideSignerPublicKey?: string }): Promise<string>;
  encryptOtpCodeToBundle(otpCode: string, otpEncryptionTargetBundle: string, publicKey: string, dangerouslyOverrideSignerPublicKey?: string): Promise<string>;
  verifyStampSignature(publicKey: string, signature: string, signedData: string): Promise<boolean>;
  verifyOtpVerificationToken(jwt: string, dangerouslyOverrideSignerPublicKey?: string): Promise<Record<string, string>>;
}

export type StamperRuntime = 'browser' | 'node' | 'purejs';
export interface TurnkeyApiKeyStamper {
  ApiKeyStamper: new (config: { apiPublicKey: string; apiPrivateKey: string; runtimeOverride?: StamperRuntime }) => {
    stamp(payload: string): Promise<{ stampHeaderName: string; stampHeaderValue: string }>;
  };
}

// eslint-disable-next-line @typescript-eslint/no-require-imports
export const turnkeyCrypto: TurnkeyCrypto = require('@turnkey/crypto');
// eslint-disable-next-line @typescript-eslint/no-require-imports
export const turnkeyStamper: TurnkeyApiKeyStamper = require('@turnkey/api-key-stamper');

/** The `Service-Wallet-Signature` value a platform's client sends: the stamp of `payload` by the P-256 key. */
export async function walletStamp(key: { publicKeyCompressed: string; privateKeyHex: string }, payload: string): Promise<string> {
  const stamper = new turnkeyStamper.ApiKeyStamper({ apiPublicKey: key.publicKeyCompressed, apiPrivateKey: key.privateKeyHex });
  return (await stamper.stamp(payload)).stampHeaderValue;
}
