import { sha256 } from '@noble/hashes/sha2';
import { keccak_256 } from '@noble/hashes/sha3';
import { base58, bech32, bech32m, createBase58check } from '@scure/base';

/**
 * The encodings and hashes the address rules need, behind one small interface. The work is done by @scure/base
 * (base58, base58check, bech32, bech32m) and @noble/hashes (SHA-256, Keccak-256); this file only adapts them to
 * what the rules expect: every function returns undefined instead of throwing on bad input.
 */
export interface AddressCodecs {
  base58Decode(text: string): Uint8Array | undefined;
  /** The payload, when the 4-byte double-SHA-256 checksum holds. */
  base58CheckDecode(text: string): Uint8Array | undefined;
  /** `lengthMax` is 90 (BIP-173) unless given; BOLT11 invoices lift it. */
  bech32Decode(text: string, lengthMax?: number): Bech32Decoded | undefined;
  /** 5-bit words to bytes; padding must be under 5 bits and zero, as BIP-173 requires. */
  wordsToBytes(words: readonly number[]): Uint8Array | undefined;
  sha256(data: Uint8Array): Uint8Array;
  keccak256(data: Uint8Array): Uint8Array;
  /** False in `checksumBlindCodecs`: decoders skip checksums, and EIP-55 mixed case is not compared. */
  verifiesChecksums: boolean;
}

export type Bech32Encoding = 'bech32' | 'bech32m';

export interface Bech32Decoded {
  /** The human-readable part, lower-cased. */
  hrp: string;
  /** 5-bit words of the data part, checksum removed. */
  words: number[];
  /** Which checksum constant held: BIP-173 bech32 or BIP-350 bech32m; undefined when it was not verified. */
  encoding: Bech32Encoding | undefined;
}

/** Whether a decoded string's checksum is of `encoding`'s kind, or was not verified (checksumBlindCodecs). */
export const checksumKindFits = (decoded: Bech32Decoded, encoding: Bech32Encoding): boolean => decoded.encoding === undefined || decoded.encoding === encoding;

/** The bech32 data alphabet, for BOLT12 offers, which use its characters without a checksum. */
export const BECH32_CHARSET = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';

const orUndefined = <T>(decode: () => T): T | undefined => {
  try {
    return decode();
  } catch {
    return undefined;
  }
};

const base58check = createBase58check(sha256);

/** Tries bech32 then bech32m: a string's checksum can hold for at most one of them. */
function bech32Decode(text: string, lengthMax = 90): Bech32Decoded | undefined {
  for (const [encoding, coder] of [['bech32', bech32], ['bech32m', bech32m]] as const) {
    const decoded = coder.decodeUnsafe(text, lengthMax);
    if (decoded) return { hrp: decoded.prefix, words: decoded.words, encoding };
  }
  return undefined;
}

/** Base58Check with a double-SHA-256 checksum; an empty payload (which the library accepts) is no address. */
function base58CheckDecode(text: string): Uint8Array | undefined {
  const payload = orUndefined(() => base58check.decode(text));
  return payload && payload.length > 0 ? payload : undefined;
}

/** The library checks words < 32 and the padding, but lets a negative word through, so that is refused here. */
function wordsToBytes(words: readonly number[]): Uint8Array | undefined {
  if (!words.every((word) => Number.isInteger(word) && word >= 0)) return undefined;
  return orUndefined(() => bech32.fromWords([...words]));
}

export const codecs: AddressCodecs = {
  base58Decode: (text) => orUndefined(() => base58.decode(text)),
  base58CheckDecode,
  bech32Decode,
  wordsToBytes,
  sha256,
  keccak256: keccak_256,
  verifiesChecksums: true,
};

/** Bech32 or bech32m without checking the checksum: hrp, separator, alphabet, length, one case; the last 6 words dropped. */
function bech32DecodeUnverified(text: string, lengthMax = 90): Bech32Decoded | undefined {
  if (text.length > lengthMax || (text !== text.toLowerCase() && text !== text.toUpperCase())) return undefined;
  const lower = text.toLowerCase();
  const separator = lower.lastIndexOf('1');
  const hrp = lower.slice(0, separator);
  const words = [...lower.slice(separator + 1)].map((char) => BECH32_CHARSET.indexOf(char));
  if (separator < 1 || words.length < 6 || words.includes(-1) || [...hrp].some((char) => char < '!' || char > '~')) return undefined;
  return { hrp, words: words.slice(0, -6), encoding: undefined };
}

/**
 * The same decoders with every checksum left unverified (base58check, bech32/bech32m, EIP-55), to tell a value that is
 * well formed but for its checksum from a malformed one: `problem(value, checksumBlindCodecs)` is the format alone.
 * A string whose checksum does hold still reports its encoding.
 */
export const checksumBlindCodecs: AddressCodecs = {
  ...codecs,
  base58CheckDecode: (text) => {
    const bytes = codecs.base58Decode(text);
    return bytes && bytes.length > 4 ? bytes.slice(0, -4) : undefined;
  },
  bech32Decode: (text, lengthMax) => bech32Decode(text, lengthMax) ?? bech32DecodeUnverified(text, lengthMax),
  verifiesChecksums: false,
};
