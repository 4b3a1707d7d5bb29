import { bytesToHex, hexToBytes } from '@noble/hashes/utils';
import { turnkeyCrypto } from '@payments/testing';
import {
  CLIENT_PUBLIC_KEY_PATTERN,
  generateP256KeyPair,
  isCompressedPublicKey,
  keyPairFromPrivateKey,
  parseP256PublicKey,
  samePublicKey,
} from './p256-keys';

const { getPublicKey, uncompressRawPublicKey } = turnkeyCrypto;

// RFC 6979 A.2.5 (P-256): private key x and its public point (Ux, Uy); Uy is odd, so the compressed prefix is 03.
const RFC6979_PRIVATE = 'c9afa9d845ba75166b5c215767b1d6934e50c3db36e89b127b8a622b120f6721';
const RFC6979_X = '60fed4ba255a9d31c961eb74c6356d68c049b8923b61fa6ce669622e60f29fb6';
const RFC6979_Y = '7903fe1008b8bc99a41ae9e95628bc64f2f1b20c2d7e9f5177a3c294d4462299';
const CURVE_ORDER = 'ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551';

describe('P-256 keys', () => {
  it('derives both encodings of a known key (RFC 6979 A.2.5)', () => {
    const pair = keyPairFromPrivateKey(hexToBytes(RFC6979_PRIVATE));
    expect(pair.publicKeyCompressed).toBe(`03${RFC6979_X}`);
    expect(pair.publicKeyUncompressed).toBe(`04${RFC6979_X}${RFC6979_Y}`);
    expect(bytesToHex(pair.privateKey)).toBe(RFC6979_PRIVATE);
  });

  it('copies the private key so the caller cannot mutate the pair', () => {
    const input = hexToBytes(RFC6979_PRIVATE);
    const pair = keyPairFromPrivateKey(input);
    input.fill(0);
    expect(bytesToHex(pair.privateKey)).toBe(RFC6979_PRIVATE);
  });

  it('rejects scalars outside [1, n-1]', () => {
    expect(() => keyPairFromPrivateKey(new Uint8Array(32))).toThrow();
    expect(() => keyPairFromPrivateKey(hexToBytes(CURVE_ORDER))).toThrow();
    expect(() => keyPairFromPrivateKey(new Uint8Array(31).fill(1))).toThrow();
  });

  it('generates fresh keys whose encodings agree with @turnkey/crypto', () => {
    const a = generateP256KeyPair();
    const b = generateP256KeyPair();
    expect(a.privateKey).toHaveLength(32);
    expect(bytesToHex(a.privateKey)).not.toBe(bytesToHex(b.privateKey));
    expect(a.publicKeyCompressed).toMatch(/^0[23][0-9a-f]{64}$/);
    expect(a.publicKeyUncompressed).toMatch(/^04[0-9a-f]{128}$/);
    expect(a.publicKeyCompressed).toBe(bytesToHex(getPublicKey(a.privateKey, true)));
    expect(a.publicKeyUncompressed).toBe(bytesToHex(uncompressRawPublicKey(hexToBytes(a.publicKeyCompressed))));
  });

  describe('parseP256PublicKey', () => {
    const pair = keyPairFromPrivateKey(hexToBytes(RFC6979_PRIVATE));
    const both = { compressed: pair.publicKeyCompressed, uncompressed: pair.publicKeyUncompressed };

    it('accepts compressed and uncompressed hex, in any case, and returns lowercase', () => {
      expect(parseP256PublicKey(pair.publicKeyCompressed)).toEqual(both);
      expect(parseP256PublicKey(pair.publicKeyUncompressed)).toEqual(both);
      expect(parseP256PublicKey(pair.publicKeyUncompressed.toUpperCase())).toEqual(both);
    });

    it('rejects a point off the curve', () => {
      const badY = `04${RFC6979_X}${RFC6979_Y.slice(0, -1)}0`;
      expect(parseP256PublicKey(badY)).toBeUndefined();
      expect(parseP256PublicKey(`02${'f'.repeat(64)}`)).toBeUndefined(); // x >= p
      expect(parseP256PublicKey(`04${'0'.repeat(128)}`)).toBeUndefined();
    });

    it('rejects an x with no point on the curve', () => {
      // About half of all x have no y; find one deterministically.
      const offCurve = Array.from({ length: 64 }, (_, i) => `02${i.toString(16).padStart(64, '0')}`).find(
        (hex) => parseP256PublicKey(hex) === undefined,
      );
      expect(offCurve).toBeDefined();
      expect(isCompressedPublicKey(offCurve as string)).toBe(false);
    });

    it.each([
      ['empty', ''],
      ['wrong prefix', `05${RFC6979_X}`],
      ['0x prefix', `0x03${RFC6979_X}`],
      ['short', pair.publicKeyCompressed.slice(0, 64)],
      ['long', `${pair.publicKeyCompressed}00`],
      ['uncompressed prefix with compressed length', `04${RFC6979_X}`],
      ['non-hex', `03${'g'.repeat(64)}`],
      ['whitespace', ` ${pair.publicKeyCompressed}`],
    ])('rejects %s', (_label, hex) => {
      expect(parseP256PublicKey(hex)).toBeUndefined();
    });

    it('rejects non-strings without throwing', () => {
      expect(parseP256PublicKey(undefined as unknown as string)).toBeUndefined();
      expect(parseP256PublicKey(42 as unknown as string)).toBeUndefined();
    });
  });

  it('isCompressedPublicKey tells the client-held-key encoding apart', () => {
    const pair = generateP256KeyPair();
    expect(isCompressedPublicKey(pair.publicKeyCompressed)).toBe(true);
    expect(isCompressedPublicKey(pair.publicKeyUncompressed)).toBe(false);
    expect(isCompressedPublicKey('02')).toBe(false);
  });

  it('samePublicKey compares curve points, not strings', () => {
    const a = generateP256KeyPair();
    const b = generateP256KeyPair();
    expect(samePublicKey(a.publicKeyCompressed, a.publicKeyUncompressed)).toBe(true);
    expect(samePublicKey(a.publicKeyUncompressed.toUpperCase(), a.publicKeyCompressed)).toBe(true);
    expect(samePublicKey(a.publicKeyCompressed, b.publicKeyCompressed)).toBe(false);
    expect(samePublicKey(a.publicKeyCompressed, b.publicKeyUncompressed)).toBe(false);
    expect(samePublicKey('', '')).toBe(false);
    expect(samePublicKey('zz', 'zz')).toBe(false);
  });

  it('CLIENT_PUBLIC_KEY_PATTERN accepts exactly 66-hex 02/03 and 130-hex 04', () => {
    const pair = generateP256KeyPair();
    expect(CLIENT_PUBLIC_KEY_PATTERN.test(pair.publicKeyCompressed)).toBe(true);
    expect(CLIENT_PUBLIC_KEY_PATTERN.test(pair.publicKeyUncompressed.toUpperCase())).toBe(true);
    expect(CLIENT_PUBLIC_KEY_PATTERN.test(`04${RFC6979_X}`)).toBe(false);
    expect(CLIENT_PUBLIC_KEY_PATTERN.test(`02${pair.publicKeyUncompressed.slice(2)}`)).toBe(false);
    expect(CLIENT_PUBLIC_KEY_PATTERN.test(`${pair.publicKeyCompressed}\n`)).toBe(false);
  });
});
