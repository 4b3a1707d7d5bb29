import { p256 } from '@noble/curves/p256';
import { sha256 } from '@noble/hashes/sha2';
import { bytesToHex, hexToBytes } from '@noble/hashes/utils';
import { createBase58check } from '@scure/base';
import { turnkeyCrypto } from '@payments/testing';
import {
  exportBundle,
  legacySessionKeyBundle,
  openOtpBundle,
  otpTargetBundle,
  type EnclaveSigner,
  type OpenOtpBundleResult,
} from './enclave-bundles';
import { hpkeSeal } from './hpke';
import { generateP256KeyPair, keyPairFromPrivateKey } from './p256-keys';
import { generateMnemonic } from './mnemonic';

const { decryptCredentialBundle, decryptExportBundle, encryptOtpCodeToBundle, formatHpkeBuf, hpkeDecrypt, hpkeEncrypt } =
  turnkeyCrypto;

type Envelope = { version: string; data: string; dataSignature: string; enclaveQuorumPublic: string };

const utf8 = new TextEncoder();
const signerPair = generateP256KeyPair();
const signer: EnclaveSigner = { privateKey: signerPair.privateKey, publicKeyUncompressed: signerPair.publicKeyUncompressed };

const parseEnvelope = (bundle: string): Envelope => JSON.parse(bundle) as Envelope;
const decodeData = (envelope: Envelope): Record<string, string> =>
  JSON.parse(new TextDecoder().decode(hexToBytes(envelope.data))) as Record<string, string>;

/** A bundle as a hostile client could build it: any plaintext, sealed the @turnkey/crypto way. */
function turnkeySeal(plaintext: string | Uint8Array, targetPublicUncompressed: string): string {
  const plainTextBuf = typeof plaintext === 'string' ? utf8.encode(plaintext) : plaintext;
  return formatHpkeBuf(hpkeEncrypt({ plainTextBuf, targetKeyBuf: hexToBytes(targetPublicUncompressed) }));
}

function flipHexAt(hex: string, index: number): string {
  const flipped = (parseInt(hex[index], 16) ^ 0x1).toString(16);
  return `${hex.slice(0, index)}${flipped}${hex.slice(index + 1)}`;
}

function expectFailure(result: OpenOtpBundleResult, reason: 'MALFORMED' | 'UNDECRYPTABLE'): void {
  expect(result).toMatchObject({ ok: false, reason });
}

describe('enclave bundles', () => {
  describe('otpEncryptionTargetBundle', () => {
    const target = generateP256KeyPair();

    it('is the signed {version,data,dataSignature,enclaveQuorumPublic} envelope around targetPublic', () => {
      const bundle = otpTargetBundle(target.publicKeyCompressed, signer);
      const envelope = parseEnvelope(bundle);
      expect(Object.keys(envelope)).toEqual(['version', 'data', 'dataSignature', 'enclaveQuorumPublic']);
      expect(envelope.version).toBe('v1.0.0');
      expect(envelope.enclaveQuorumPublic).toBe(signer.publicKeyUncompressed);
      expect(decodeData(envelope)).toEqual({ targetPublic: target.publicKeyUncompressed });
      const verified = p256.verify(
        hexToBytes(envelope.dataSignature),
        sha256(hexToBytes(envelope.data)),
        hexToBytes(signer.publicKeyUncompressed),
        { format: 'der', prehash: false },
      );
      expect(verified).toBe(true);
    });

    it('refuses a signer whose public key does not match its private key', () => {
      const mismatched = { ...signer, publicKeyUncompressed: target.publicKeyUncompressed };
      expect(() => otpTargetBundle(target.publicKeyUncompressed, mismatched)).toThrow(/does not match/);
      expect(() => otpTargetBundle('04ab', signer)).toThrow(/not a P-256 public key/);
    });

    it('is rejected by encryptOtpCodeToBundle under another pinned key or with altered data', async () => {
      const bundle = otpTargetBundle(target.publicKeyUncompressed, signer);
      const tek = generateP256KeyPair();
      await expect(
        encryptOtpCodeToBundle('123456', bundle, tek.publicKeyCompressed, generateP256KeyPair().publicKeyUncompressed),
      ).rejects.toThrow(/expected signer key/);
      const attacker = generateP256KeyPair();
      const envelope = parseEnvelope(bundle);
      const altered = JSON.stringify({
        ...envelope,
        data: bytesToHex(utf8.encode(JSON.stringify({ targetPublic: attacker.publicKeyUncompressed }))),
      });
      await expect(
        encryptOtpCodeToBundle('123456', altered, tek.publicKeyCompressed, signer.publicKeyUncompressed),
      ).rejects.toThrow(/verification failed/);
    });
  });

  describe('encryptedOtpBundle: @turnkey/crypto encryptOtpCodeToBundle → openOtpBundle', () => {
    const target = generateP256KeyPair();
    const targetBundle = otpTargetBundle(target.publicKeyUncompressed, signer);

    it.each(['publicKeyCompressed', 'publicKeyUncompressed'] as const)('opens with a %s TEK', async (form) => {
      const tek = generateP256KeyPair();
      const encrypted = await encryptOtpCodeToBundle('042917', targetBundle, tek[form], signer.publicKeyUncompressed);
      expect(Object.keys(JSON.parse(encrypted) as object)).toEqual(['encappedPublic', 'ciphertext']);
      const result = await openOtpBundle(encrypted, target.privateKey);
      expect(result).toEqual({
        ok: true,
        otpCode: '042917',
        publicKey: { compressed: tek.publicKeyCompressed, uncompressed: tek.publicKeyUncompressed },
      });
    });

    describe('failures', () => {
      let good: { encappedPublic: string; ciphertext: string };
      const tek = generateP256KeyPair();
      const sealInner = (inner: unknown): string => turnkeySeal(JSON.stringify(inner), target.publicKeyUncompressed);

      beforeAll(async () => {
        const encrypted = await encryptOtpCodeToBundle('123456', targetBundle, tek.publicKeyCompressed, signer.publicKeyUncompressed);
        good = JSON.parse(encrypted) as typeof good;
        // Control: the untampered bundle opens, so each failure below is caused by its one change.
        expect((await openOtpBundle(encrypted, target.privateKey)).ok).toBe(true);
      });

      it('tampered ciphertext or tag → UNDECRYPTABLE', async () => {
        for (const index of [0, good.ciphertext.length - 1]) {
          const tampered = JSON.stringify({ ...good, ciphertext: flipHexAt(good.ciphertext, index) });
          expectFailure(await openOtpBundle(tampered, target.privateKey), 'UNDECRYPTABLE');
        }
      });

      it('tampered enc → UNDECRYPTABLE', async () => {
        const tampered = JSON.stringify({ ...good, encappedPublic: flipHexAt(good.encappedPublic, 129) });
        expectFailure(await openOtpBundle(tampered, target.privateKey), 'UNDECRYPTABLE');
        const swapped = JSON.stringify({ ...good, encappedPublic: generateP256KeyPair().publicKeyUncompressed });
        expectFailure(await openOtpBundle(swapped, target.privateKey), 'UNDECRYPTABLE');
      });

      it('wrong target key → UNDECRYPTABLE', async () => {
        expectFailure(await openOtpBundle(JSON.stringify(good), generateP256KeyPair().privateKey), 'UNDECRYPTABLE');
      });

      it.each([
        ['not JSON', 'not json'],
        ['a JSON array', '[]'],
        ['JSON null', 'null'],
        ['an empty object', '{}'],
        ['a missing ciphertext', JSON.stringify({ encappedPublic: `04${'a'.repeat(128)}` })],
        ['a compressed enc', JSON.stringify({ encappedPublic: `02${'a'.repeat(64)}`, ciphertext: 'ab'.repeat(32) })],
        ['a non-hex ciphertext', JSON.stringify({ encappedPublic: `04${'a'.repeat(128)}`, ciphertext: 'zz'.repeat(32) })],
        ['an odd-length ciphertext', JSON.stringify({ encappedPublic: `04${'a'.repeat(128)}`, ciphertext: 'a'.repeat(33) })],
        ['a ciphertext shorter than the tag', JSON.stringify({ encappedPublic: `04${'a'.repeat(128)}`, ciphertext: 'ab'.repeat(15) })],
        ['an oversized bundle', 'x'.repeat(100_000)],
      ])('%s → MALFORMED', async (_label, bundle) => {
        expectFailure(await openOtpBundle(bundle, target.privateKey), 'MALFORMED');
      });

      it('non-string input → MALFORMED', async () => {
        expectFailure(await openOtpBundle(undefined as unknown as string, target.privateKey), 'MALFORMED');
        expectFailure(await openOtpBundle({} as unknown as string, target.privateKey), 'MALFORMED');
      });

      it('decrypts but the plaintext is not the expected JSON → MALFORMED', async () => {
        const cases = [
          turnkeySeal('hello', target.publicKeyUncompressed),
          turnkeySeal(new Uint8Array([0xff, 0xfe, 0xfd]), target.publicKeyUncompressed),
          sealInner(['123456', tek.publicKeyCompressed]),
          sealInner({ public_key: tek.publicKeyCompressed }),
          sealInner({ otp_code: 123456, public_key: tek.publicKeyCompressed }),
          sealInner({ otp_code: '', public_key: tek.publicKeyCompressed }),
          sealInner({ otp_code: '1'.repeat(65), public_key: tek.publicKeyCompressed }),
          sealInner({ otp_code: '123456' }),
          sealInner({ otp_code: '123456', public_key: `02${'f'.repeat(64)}` }),
          sealInner({ otp_code: '123456', public_key: tek.publicKeyCompressed.slice(2) }),
        ];
        for (const bundle of cases) {
          expectFailure(await openOtpBundle(bundle, target.privateKey), 'MALFORMED');
        }
        // Control: the same path with a well-formed plaintext succeeds.
        const control = await openOtpBundle(sealInner({ otp_code: '123456', public_key: tek.publicKeyCompressed }), target.privateKey);
        expect(control).toMatchObject({ ok: true, otpCode: '123456' });
      });

      it('never throws on mutated input', async () => {
        const encrypted = JSON.stringify(good);
        for (let i = 0; i < encrypted.length; i += 7) {
          const mutated = `${encrypted.slice(0, i)}${String.fromCharCode((encrypted.charCodeAt(i) + 1) % 128)}${encrypted.slice(i + 1)}`;
          const result = await openOtpBundle(mutated, target.privateKey);
          expect(result.ok).toBe(false);
        }
      });
    });
  });

  describe('encryptedWalletCredentials (export)', () => {
    const client = generateP256KeyPair();
    const organizationId = 'org-7c1f';

    it('signed: decryptExportBundle returns the mnemonic with our signer pinned', async () => {
      const mnemonic = generateMnemonic();
      const bundle = await exportBundle(mnemonic, client.publicKeyUncompressed, organizationId, signer);
      const envelope = parseEnvelope(bundle);
      expect(Object.keys(envelope)).toEqual(['version', 'data', 'dataSignature', 'enclaveQuorumPublic']);
      expect(envelope.version).toBe('v1.0.0');
      const data = decodeData(envelope);
      expect(Object.keys(data)).toEqual(['encappedPublic', 'ciphertext', 'organizationId']);
      expect(data.encappedPublic).toMatch(/^04[0-9a-f]{128}$/);
      expect(data.organizationId).toBe(organizationId);

      const decrypted = await decryptExportBundle({
        exportBundle: bundle,
        embeddedKey: bytesToHex(client.privateKey),
        organizationId,
        returnMnemonic: true,
        dangerouslyOverrideSignerPublicKey: signer.publicKeyUncompressed,
      });
      expect(decrypted).toBe(mnemonic);
    });

    it('signed: decryptExportBundle refuses another pinned key, another organization, another client key', async () => {
      const bundle = await exportBundle(generateMnemonic(), client.publicKeyUncompressed, organizationId, signer);
      const params = {
        exportBundle: bundle,
        embeddedKey: bytesToHex(client.privateKey),
        organizationId,
        returnMnemonic: true,
        dangerouslyOverrideSignerPublicKey: signer.publicKeyUncompressed,
      };
      await expect(
        decryptExportBundle({ ...params, dangerouslyOverrideSignerPublicKey: generateP256KeyPair().publicKeyUncompressed }),
      ).rejects.toThrow();
      await expect(decryptExportBundle({ ...params, organizationId: 'org-other' })).rejects.toThrow(/organization id/);
      await expect(
        decryptExportBundle({ ...params, embeddedKey: bytesToHex(generateP256KeyPair().privateKey) }),
      ).rejects.toThrow();
      await expect(decryptExportBundle(params)).resolves.toBeTruthy(); // control
    });

    it('sandbox: no signature, decrypts with hpkeDecrypt', async () => {
      const mnemonic = generateMnemonic();
      const bundle = await exportBundle(mnemonic, client.publicKeyCompressed, organizationId, undefined);
      const envelope = parseEnvelope(bundle);
      expect(envelope.dataSignature).toBe('');
      expect(envelope.enclaveQuorumPublic).toBe('');
      const data = decodeData(envelope);
      expect(data.organizationId).toBe(organizationId);
      const opened = hpkeDecrypt({
        ciphertextBuf: hexToBytes(data.ciphertext),
        encappedKeyBuf: hexToBytes(data.encappedPublic),
        receiverPriv: bytesToHex(client.privateKey),
      });
      expect(new TextDecoder().decode(opened)).toBe(mnemonic);
      // decryptExportBundle cannot take an unsigned bundle: its signature check is mandatory.
      await expect(
        decryptExportBundle({
          exportBundle: bundle,
          embeddedKey: bytesToHex(client.privateKey),
          organizationId,
          returnMnemonic: true,
        }),
      ).rejects.toThrow();
    });

    it('refuses an invalid client key', async () => {
      await expect(exportBundle('words', '04ab', organizationId, signer)).rejects.toThrow(/not a P-256 public key/);
    });
  });

  describe('encryptedSessionSigningKey (legacy)', () => {
    it('decryptCredentialBundle returns the session private key as hex', async () => {
      const client = generateP256KeyPair();
      const session = generateP256KeyPair();
      const bundle = await legacySessionKeyBundle(session.privateKey, client.publicKeyUncompressed);
      const raw = createBase58check(sha256).decode(bundle);
      expect(raw).toHaveLength(33 + 32 + 16);
      expect([0x02, 0x03]).toContain(raw[0]);
      const decrypted = decryptCredentialBundle(bundle, bytesToHex(client.privateKey));
      expect(decrypted).toBe(bytesToHex(session.privateKey));
      expect(keyPairFromPrivateKey(hexToBytes(decrypted)).publicKeyCompressed).toBe(session.publicKeyCompressed);
      expect(() => decryptCredentialBundle(bundle, bytesToHex(generateP256KeyPair().privateKey))).toThrow();
    });

    it('refuses an invalid session key or client key', async () => {
      const client = generateP256KeyPair();
      await expect(legacySessionKeyBundle(new Uint8Array(32), client.publicKeyUncompressed)).rejects.toThrow();
      await expect(legacySessionKeyBundle(new Uint8Array(16).fill(1), client.publicKeyUncompressed)).rejects.toThrow();
      await expect(legacySessionKeyBundle(generateP256KeyPair().privateKey, 'nope')).rejects.toThrow();
    });
  });

  it('hpkeSeal output is what openOtpBundle expects (our own client path)', async () => {
    const target = generateP256KeyPair();
    const tek = generateP256KeyPair();
    const sealed = await hpkeSeal(
      target.publicKeyUncompressed,
      utf8.encode(JSON.stringify({ otp_code: 'AB12CD', public_key: tek.publicKeyUncompressed })),
    );
    const bundle = JSON.stringify({
      encappedPublic: bytesToHex(sealed.encappedPublic),
      ciphertext: bytesToHex(sealed.ciphertext),
    });
    await expect(openOtpBundle(bundle, target.privateKey)).resolves.toMatchObject({ ok: true, otpCode: 'AB12CD' });
  });
});
