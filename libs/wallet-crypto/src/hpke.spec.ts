import { Aes256Gcm, CipherSuite, DhkemP256HkdfSha256, HkdfSha256 } from '@hpke/core';
import { bytesToHex, concatBytes, hexToBytes } from '@noble/hashes/utils';
import { turnkeyCrypto } from '@payments/testing';
import { HPKE_INFO, HpkeOpenError, hpkeOpen, hpkeSeal } from './hpke';
import { generateP256KeyPair } from './p256-keys';

const { formatHpkeBuf, hpkeDecrypt, hpkeEncrypt } = turnkeyCrypto;

const utf8 = new TextEncoder();
const text = new TextDecoder();

function flipByte(bytes: Uint8Array, index: number): Uint8Array {
  const copy = Uint8Array.from(bytes);
  copy[index] ^= 0x01;
  return copy;
}

async function expectOpenError(promise: Promise<unknown>): Promise<void> {
  await expect(promise).rejects.toBeInstanceOf(HpkeOpenError);
}

describe('HPKE (DHKEM-P256 / HKDF-SHA256 / AES-256-GCM, info turnkey_hpke, AAD enc‖pkR)', () => {
  const recipient = generateP256KeyPair();
  const message = utf8.encode('{"otp_code":"123456"}');

  it('round-trips and has the expected shape', async () => {
    const sealed = await hpkeSeal(recipient.publicKeyUncompressed, message);
    expect(sealed.encappedPublic).toHaveLength(65);
    expect(sealed.encappedPublic[0]).toBe(0x04);
    expect(sealed.ciphertext).toHaveLength(message.length + 16);
    expect(text.decode(await hpkeOpen(recipient.privateKey, sealed.encappedPublic, sealed.ciphertext))).toBe(
      text.decode(message),
    );
  });

  it('uses a fresh ephemeral key per seal', async () => {
    const a = await hpkeSeal(recipient.publicKeyUncompressed, message);
    const b = await hpkeSeal(recipient.publicKeyUncompressed, message);
    expect(bytesToHex(a.encappedPublic)).not.toBe(bytesToHex(b.encappedPublic));
  });

  it('what we seal, @turnkey/crypto hpkeDecrypt opens (uncompressed and compressed recipient forms)', async () => {
    for (const recipientHex of [recipient.publicKeyUncompressed, recipient.publicKeyCompressed]) {
      const sealed = await hpkeSeal(recipientHex, message);
      const opened = hpkeDecrypt({
        ciphertextBuf: sealed.ciphertext,
        encappedKeyBuf: sealed.encappedPublic,
        receiverPriv: bytesToHex(recipient.privateKey),
      });
      expect(text.decode(opened)).toBe(text.decode(message));
    }
  });

  it('what @turnkey/crypto hpkeEncrypt seals, we open', async () => {
    const plaintext = utf8.encode('mnemonic words and unicode: é€😀');
    const bundle = JSON.parse(
      formatHpkeBuf(hpkeEncrypt({ plainTextBuf: plaintext, targetKeyBuf: hexToBytes(recipient.publicKeyUncompressed) })),
    ) as { encappedPublic: string; ciphertext: string };
    const opened = await hpkeOpen(recipient.privateKey, hexToBytes(bundle.encappedPublic), hexToBytes(bundle.ciphertext));
    expect(text.decode(opened)).toBe(text.decode(plaintext));
  });

  it('opens plaintext held in a view of a larger buffer', async () => {
    const backing = utf8.encode('xxxxsecretyyyy');
    const sealed = await hpkeSeal(recipient.publicKeyUncompressed, backing.subarray(4, 10));
    expect(text.decode(await hpkeOpen(recipient.privateKey, sealed.encappedPublic, sealed.ciphertext))).toBe('secret');
  });

  it('binds the AAD and info: a standard seal with empty AAD or another info does not open', async () => {
    const suite = new CipherSuite({ kem: new DhkemP256HkdfSha256(), kdf: new HkdfSha256(), aead: new Aes256Gcm() });
    const recipientPublicKey = await suite.kem.deserializePublicKey(hexToBytes(recipient.publicKeyUncompressed));
    const noAad = await suite.seal({ recipientPublicKey, info: utf8.encode(HPKE_INFO) }, message);
    await expectOpenError(hpkeOpen(recipient.privateKey, new Uint8Array(noAad.enc), new Uint8Array(noAad.ct)));

    const otherInfo = await suite.createSenderContext({ recipientPublicKey, info: utf8.encode('other_info') });
    const enc = new Uint8Array(otherInfo.enc);
    const ct = new Uint8Array(await otherInfo.seal(message, concatBytes(enc, hexToBytes(recipient.publicKeyUncompressed))));
    await expectOpenError(hpkeOpen(recipient.privateKey, enc, ct));

    // Control: the same construction with our info and AAD opens, so the two failures above are about info/AAD.
    const ours = await suite.createSenderContext({ recipientPublicKey, info: utf8.encode(HPKE_INFO) });
    const oursEnc = new Uint8Array(ours.enc);
    const oursCt = new Uint8Array(await ours.seal(message, concatBytes(oursEnc, hexToBytes(recipient.publicKeyUncompressed))));
    expect(text.decode(await hpkeOpen(recipient.privateKey, oursEnc, oursCt))).toBe(text.decode(message));
  });

  describe('open failures throw HpkeOpenError', () => {
    let sealed: { encappedPublic: Uint8Array; ciphertext: Uint8Array };
    beforeAll(async () => {
      sealed = await hpkeSeal(recipient.publicKeyUncompressed, message);
    });

    it('wrong recipient key', async () => {
      await expectOpenError(hpkeOpen(generateP256KeyPair().privateKey, sealed.encappedPublic, sealed.ciphertext));
    });

    it('flipped ciphertext byte and flipped tag byte', async () => {
      await expectOpenError(hpkeOpen(recipient.privateKey, sealed.encappedPublic, flipByte(sealed.ciphertext, 0)));
      await expectOpenError(
        hpkeOpen(recipient.privateKey, sealed.encappedPublic, flipByte(sealed.ciphertext, sealed.ciphertext.length - 1)),
      );
    });

    it('flipped enc byte (off the curve) and another valid enc', async () => {
      await expectOpenError(hpkeOpen(recipient.privateKey, flipByte(sealed.encappedPublic, 64), sealed.ciphertext));
      const other = hexToBytes(generateP256KeyPair().publicKeyUncompressed);
      await expectOpenError(hpkeOpen(recipient.privateKey, other, sealed.ciphertext));
    });

    it('enc of the wrong length or encoding', async () => {
      await expectOpenError(hpkeOpen(recipient.privateKey, sealed.encappedPublic.subarray(0, 33), sealed.ciphertext));
      await expectOpenError(hpkeOpen(recipient.privateKey, new Uint8Array(65), sealed.ciphertext));
    });

    it('truncated or empty ciphertext', async () => {
      await expectOpenError(hpkeOpen(recipient.privateKey, sealed.encappedPublic, sealed.ciphertext.subarray(0, 15)));
      await expectOpenError(hpkeOpen(recipient.privateKey, sealed.encappedPublic, new Uint8Array(0)));
    });

    it('an invalid recipient private key', async () => {
      await expectOpenError(hpkeOpen(new Uint8Array(32), sealed.encappedPublic, sealed.ciphertext));
    });
  });

  it('refuses to seal to something that is not a P-256 key', async () => {
    await expect(hpkeSeal('04abcd', message)).rejects.toThrow(/not a P-256 public key/);
    await expect(hpkeSeal(`04${'0'.repeat(128)}`, message)).rejects.toThrow(/not a P-256 public key/);
  });
});
