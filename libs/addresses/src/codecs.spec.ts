import { createHash } from 'node:crypto';
import { codecs } from './codecs';

/** Behaviour of the adapters over @scure/base and @noble/hashes: published vectors, and undefined (never a throw) on bad input. */
const { base58CheckDecode, base58Decode, bech32Decode, keccak256, sha256, wordsToBytes } = codecs;
const hex = (bytes: Uint8Array | undefined) => (bytes ? Buffer.from(bytes).toString('hex') : undefined);

describe('hashes', () => {
  it('keccak256 matches the published Keccak-256 digests of "" and "abc"', () => {
    expect(hex(keccak256(new Uint8Array()))).toBe('c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470');
    expect(hex(keccak256(Buffer.from('abc')))).toBe('4e03657aea45a94fc7d47ba826c8d667c0d1e6e33a64a036ec44f58fa12d6c45');
  });

  it.each([0, 1, 135, 136, 137, 272, 500])('keccak256 is Ethereum Keccak, not FIPS-202 SHA3-256, over %i bytes', (length) => {
    const data = Buffer.from(Array.from({ length }, (_, i) => (i * 31 + 7) & 0xff));
    expect(hex(keccak256(data))).toHaveLength(64);
    expect(hex(keccak256(data))).not.toBe(createHash('sha3-256').update(data).digest('hex'));
  });

  it.each([0, 1, 55, 56, 64, 500])('sha256 equals node SHA-256 over %i bytes', (length) => {
    const data = Buffer.from(Array.from({ length }, (_, i) => (i * 31 + 7) & 0xff));
    expect(hex(sha256(data))).toBe(createHash('sha256').update(data).digest('hex'));
  });
});

describe('base58', () => {
  it('decodes leading 1s as zero bytes and refuses characters outside the alphabet', () => {
    expect(hex(base58Decode('111'))).toBe('000000');
    expect(hex(base58Decode('2g'))).toBe('61');
    expect(base58Decode('0OIl')).toBeUndefined();
  });

  it('base58check returns the payload only when the double-SHA-256 checksum holds', () => {
    expect(hex(base58CheckDecode('1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa'))).toBe('0062e907b15cbf27d5425399ebf6f0fb50ebb88f18');
    expect(base58CheckDecode('1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNb')).toBeUndefined();
    expect(base58CheckDecode('1')).toBeUndefined();
    expect(base58CheckDecode('0A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa')).toBeUndefined();
  });

  it('base58check refuses an empty payload even though its checksum holds', () => {
    expect(base58CheckDecode('3QJmnh')).toBeUndefined(); // the 4 checksum bytes of SHA-256(SHA-256(""))
  });
});

describe('bech32 (BIP-173) and bech32m (BIP-350) test vectors', () => {
  it.each([
    'A12UEL5L',
    'a12uel5l',
    'an83characterlonghumanreadablepartthatcontainsthenumber1andtheexcludedcharactersbio1tt5tgs',
    'abcdef1qpzry9x8gf2tvdw0s3jn54khce6mua7lmqqqxw',
    `11${'q'.repeat(82)}c8247j`,
    'split1checkupstagehandshakeupstreamerranterredcaperred2y9e3w',
    '?1ezyfcl',
  ])('%s is valid bech32', (text) => expect(bech32Decode(text)?.encoding).toBe('bech32'));

  it.each([
    'A1LQFN3A',
    'a1lqfn3a',
    'abcdef1l7aum6echk45nj3s0wdvt2fg8x9yrzpqzd3ryx',
    `11${'l'.repeat(83)}udsr8`,
    'split1checkupstagehandshakeupstreamerranterredcaperredlc445v',
    '?1v759aa',
  ])('%s is valid bech32m', (text) => expect(bech32Decode(text)?.encoding).toBe('bech32m'));

  it.each([
    ['pzry9x0s0muk', 'no separator'],
    ['1pzry9x0s0muk', 'empty human-readable part'],
    ['x1b4n0q5v', 'b is outside the charset'],
    ['li1dgmt3', 'checksum shorter than 6'],
    ['A1G7SGD8', 'checksum computed over an upper-case hrp'],
    ['an84characterslonghumanreadablepartthatcontainsthenumber1andtheexcludedcharactersbio1569pvx', 'over 90 characters'],
    ['A12uEL5L', 'mixed case'],
    ['a12uel5m', 'last character changed'],
    ['\x201nwldj5', 'hrp character 0x20 out of range'],
    ['\x7f1axkwrx', 'hrp character 0x7f out of range'],
    ['\x801eym55h', 'hrp character 0x80 out of range'],
    ['de1lg7wt\xff', 'data character outside the charset'],
    ['10a06t8', 'empty human-readable part (bech32)'],
    ['1qzzfhee', 'empty human-readable part (bech32m)'],
    ['M1VUXWEZ', 'bech32m checksum computed over an upper-case hrp'],
    ['in1muywd', 'bech32m checksum shorter than 6'],
  ])('%j is refused (%s)', (text, _why) => expect(bech32Decode(text)).toBeUndefined());

  it('takes a larger length limit when asked (BOLT11 invoices run past 90 characters)', () => {
    const long = 'an84characterslonghumanreadablepartthatcontainsthenumber1andtheexcludedcharactersbio1569pvx';
    expect(bech32Decode(long, 91)).toEqual({ hrp: long.slice(0, -7), words: [], encoding: 'bech32' });
    expect(bech32Decode(long, 90)).toBeUndefined();
  });

  it('decodes the words of the data part without the checksum, hrp lower-cased', () => {
    expect(bech32Decode('abcdef1l7aum6echk45nj3s0wdvt2fg8x9yrzpqzd3ryx')).toEqual({
      hrp: 'abcdef',
      words: [31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0],
      encoding: 'bech32m',
    });
    expect(bech32Decode('A12UEL5L')).toEqual({ hrp: 'a', words: [], encoding: 'bech32' });
  });

  it('regroups words into bytes and refuses non-zero or over-long padding and out-of-range words', () => {
    expect(hex(wordsToBytes([12, 4]))).toBe('61'); // 01100 00100 -> 0x61 then 2 zero bits
    expect(hex(wordsToBytes([]))).toBe('');
    expect(wordsToBytes([12, 5])).toBeUndefined();
    expect(wordsToBytes([12, 4, 0])).toBeUndefined();
    expect(wordsToBytes([32, 0])).toBeUndefined();
    expect(wordsToBytes([-1, 0])).toBeUndefined();
  });
});
