import { p256 } from '@noble/curves/p256';
import { sha256 } from '@noble/hashes/sha2';
import { bytesToHex } from '@noble/hashes/utils';
import { turnkeyCrypto, turnkeyStamper, type StamperRuntime } from '@payments/testing';
import { generateP256KeyPair, type P256KeyPair } from './p256-keys';
import { STAMP_SCHEME, parseStamp, stampPayload, verifyStamp, type ParsedStamp } from './stamp';

const { ApiKeyStamper } = turnkeyStamper;
const { verifyStampSignature } = turnkeyCrypto;

const PAYLOADS = [
  '{"organizationId":"org","parameters":{"targetPublicKey":"02ab"},"timestampMs":"1700000000000","type":"ACTIVITY_TYPE_CREATE_READ_WRITE_SESSION_V2"}',
  'eyJhbGciOiJFUzI1NiIsImtpZCI6InR1cm5rZXkiLCJ0eXAiOiJKV1QifQ.eyJpZCI6IjEifQ.c2ln',
  'unicode survives byte-for-byte: é € 😀',
  '  leading and trailing whitespace is signed too \n',
];

type StampJson = { publicKey: unknown; scheme: unknown; signature: unknown; [extra: string]: unknown };

const encode = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');
const decode = (header: string): StampJson => JSON.parse(Buffer.from(header, 'base64url').toString('utf8')) as StampJson;

async function turnkeyStamp(key: P256KeyPair, payload: string, runtimeOverride?: StamperRuntime): Promise<string> {
  const stamper = new ApiKeyStamper({
    apiPublicKey: key.publicKeyCompressed,
    apiPrivateKey: bytesToHex(key.privateKey),
    runtimeOverride,
  });
  return (await stamper.stamp(payload)).stampHeaderValue;
}

function parsed(header: string): ParsedStamp {
  const result = parseStamp(header);
  if (!result.ok) throw new Error(`expected a parsed stamp, got: ${result.reason}`);
  return result.stamp;
}

function expectRejected(header: string, reason: RegExp): void {
  const result = parseStamp(header);
  expect(result.ok).toBe(false);
  if (!result.ok) expect(result.reason).toMatch(reason);
}

describe('API-key stamp (Service-Wallet-Signature)', () => {
  const key = generateP256KeyPair();
  const otherKey = generateP256KeyPair();

  it.each(['node', 'purejs'] as const)('verifies stamps made by @turnkey/api-key-stamper (%s runtime)', async (runtime) => {
    for (const payload of PAYLOADS) {
      const header = await turnkeyStamp(key, payload, runtime);
      expect(header).toMatch(/^[A-Za-z0-9_-]+$/); // unpadded base64url, as documented
      const stamp = parsed(header);
      expect(stamp.publicKey).toBe(key.publicKeyCompressed);
      expect(bytesToHex(stamp.signatureDer)).toBe(decode(header).signature);
      expect(verifyStamp(stamp, payload)).toBe(true);
    }
  });

  it('agrees with @turnkey/crypto verifyStampSignature on the same stamp', async () => {
    const header = await turnkeyStamp(key, PAYLOADS[0]);
    const json = decode(header);
    await expect(verifyStampSignature(json.publicKey as string, json.signature as string, PAYLOADS[0])).resolves.toBe(true);
    expect(verifyStamp(parsed(header), PAYLOADS[0])).toBe(true);
  });

  it('stampPayload makes the stamp @turnkey/api-key-stamper makes: same JSON shape, verifiable by both sides', async () => {
    for (const payload of PAYLOADS) {
      const header = stampPayload(key.privateKey, payload);
      expect(header).toMatch(/^[A-Za-z0-9_-]+$/);
      const json = decode(header);
      expect(Object.keys(json)).toEqual(Object.keys(decode(await turnkeyStamp(key, payload))));
      expect(json).toEqual({ publicKey: key.publicKeyCompressed, scheme: STAMP_SCHEME, signature: expect.stringMatching(/^30[0-9a-f]+$/) });
      expect(verifyStamp(parsed(header), payload)).toBe(true);
      expect(verifyStamp(parsed(header), `${payload}x`)).toBe(false);
      await expect(verifyStampSignature(json.publicKey as string, json.signature as string, payload)).resolves.toBe(true);
    }
  });

  it('rejects a stamp over another payload, even one differing by whitespace', async () => {
    const stamp = parsed(await turnkeyStamp(key, PAYLOADS[0]));
    expect(verifyStamp(stamp, PAYLOADS[1])).toBe(false);
    expect(verifyStamp(stamp, `${PAYLOADS[0]} `)).toBe(false);
    expect(verifyStamp(stamp, '')).toBe(false);
  });

  it('rejects a signature presented under another key', async () => {
    const json = decode(await turnkeyStamp(key, PAYLOADS[0]));
    const swapped = parsed(encode({ ...json, publicKey: otherKey.publicKeyCompressed }));
    expect(swapped.publicKey).toBe(otherKey.publicKeyCompressed);
    expect(verifyStamp(swapped, PAYLOADS[0])).toBe(false);
  });

  it('rejects a signature with a flipped byte in r or s', async () => {
    const json = decode(await turnkeyStamp(key, PAYLOADS[0]));
    const sig = json.signature as string;
    // The last byte belongs to s, byte 10 to r; flipping the low bit keeps the DER valid.
    for (const index of [sig.length - 2, 20]) {
      const byte = parseInt(sig.slice(index, index + 2), 16) ^ 0x01;
      const flipped = `${sig.slice(0, index)}${byte.toString(16).padStart(2, '0')}${sig.slice(index + 2)}`;
      const stamp = parsed(encode({ ...json, signature: flipped }));
      expect(verifyStamp(stamp, PAYLOADS[0])).toBe(false);
    }
  });

  it('accepts high-S signatures (low-S is not mandated)', () => {
    const payload = PAYLOADS[0];
    const low = p256.sign(sha256(new TextEncoder().encode(payload)), key.privateKey, { lowS: true, prehash: false });
    const n = p256.Point.Fn.ORDER;
    const high = new p256.Signature(low.r, n - low.s);
    expect(high.hasHighS()).toBe(true);
    const header = encode({
      publicKey: key.publicKeyCompressed,
      scheme: STAMP_SCHEME,
      signature: bytesToHex(high.toBytes('der')),
    });
    expect(verifyStamp(parsed(header), payload)).toBe(true);
    expect(verifyStamp(parsed(header), PAYLOADS[1])).toBe(false);
  });

  it('tolerates standard base64 with padding and upper-case signature hex', async () => {
    const header = await turnkeyStamp(key, PAYLOADS[2]);
    const json = decode(header);
    const standard = Buffer.from(JSON.stringify({ ...json, signature: (json.signature as string).toUpperCase() })).toString(
      'base64',
    );
    expect(verifyStamp(parsed(standard), PAYLOADS[2])).toBe(true);
  });

  describe('parse failures name what is wrong', () => {
    let good: StampJson;
    beforeAll(async () => {
      good = decode(await turnkeyStamp(key, PAYLOADS[0]));
    });

    it('empty, oversized and non-string input', () => {
      expectRejected('', /empty/);
      expectRejected('A'.repeat(5000), /too long/);
      expectRejected(undefined as unknown as string, /empty/);
    });

    it.each([
      ['characters outside base64', 'not base64!'],
      ['a dangling character', 'QUJDR'],
      ['non-zero trailing bits', 'QR'],
      ['misplaced padding', 'QQ=A'],
      ['padding on a bad length', 'QUJD='],
    ])('garbage base64: %s', (_label, header) => {
      expectRejected(header, /base64/);
    });

    it('not JSON (plain text and invalid UTF-8)', () => {
      expectRejected(Buffer.from('hello').toString('base64url'), /not JSON/);
      expectRejected(Buffer.from([0xff, 0xfe, 0x7b, 0x7d]).toString('base64url'), /not JSON/);
    });

    it('JSON that is not an object', () => {
      expectRejected(encode([good.publicKey, good.scheme, good.signature]), /not a JSON object/);
      expectRejected(encode(null), /not a JSON object/);
      expectRejected(encode('stamp'), /not a JSON object/);
    });

    it.each(['publicKey', 'scheme', 'signature'])('missing %s', (field) => {
      const json: Record<string, unknown> = { ...good };
      delete json[field];
      expectRejected(encode(json), new RegExp(`missing ${field}`));
    });

    it('a field that is not a string', () => {
      expectRejected(encode({ ...good, signature: 1234 }), /signature is not a string/);
    });

    it('an unexpected extra field', () => {
      expectRejected(encode({ ...good, extra: 'x' }), /unexpected field extra/);
    });

    it('wrong scheme', () => {
      expectRejected(encode({ ...good, scheme: 'SIGNATURE_SCHEME_TK_API_SECP256K1' }), /wrong scheme/);
      expectRejected(encode({ ...good, scheme: STAMP_SCHEME.toLowerCase() }), /wrong scheme/);
    });

    it('bad public key: uncompressed, truncated, off the curve', () => {
      expectRejected(encode({ ...good, publicKey: key.publicKeyUncompressed }), /bad public key/);
      expectRejected(encode({ ...good, publicKey: key.publicKeyCompressed.slice(0, 64) }), /bad public key/);
      expectRejected(encode({ ...good, publicKey: `02${'f'.repeat(64)}` }), /bad public key: not a point/);
    });

    it('signature not DER hex: not hex, odd length, raw r‖s, trailing bytes, zero r', () => {
      const sig = good.signature as string;
      const raw = bytesToHex(p256.Signature.fromBytes(Buffer.from(sig, 'hex'), 'der').toBytes('compact'));
      expectRejected(encode({ ...good, signature: 'zz' }), /signature is not DER hex/);
      expectRejected(encode({ ...good, signature: sig.slice(1) }), /signature is not DER hex/);
      expectRejected(encode({ ...good, signature: '' }), /signature is not DER hex/);
      expectRejected(encode({ ...good, signature: raw }), /signature is not DER hex/);
      expectRejected(encode({ ...good, signature: `${sig}00` }), /signature is not DER hex/);
      expectRejected(encode({ ...good, signature: '3006020100020101' }), /signature is not DER hex/);
    });
  });

  it('verifyStamp returns false rather than throwing on a hand-made stamp', () => {
    expect(verifyStamp({ publicKey: 'zz', signatureDer: new Uint8Array([1, 2]) }, 'x')).toBe(false);
  });
});
