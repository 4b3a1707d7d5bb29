import { AddressCodecs, BECH32_CHARSET, checksumKindFits, codecs as defaultCodecs } from './codecs';

/** LUD-16 lightning address `user@domain`: user in a-z 0-9 - _ . +, domain a dotted host name. */
const LIGHTNING_ADDRESS = /^[a-z0-9\-_.+]{1,64}@(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i;

export function lightningAddressProblem(value: string): string | undefined {
  const [user] = value.split('@');
  if (user !== user.toLowerCase()) return 'must have a lower-case user part (LUD-16)';
  return LIGHTNING_ADDRESS.test(value) ? undefined : 'must be user@domain';
}

/** BOLT11 prefixes: ln + bc (mainnet), tb (testnet), tbs (signet), bcrt (regtest), then an optional amount. */
const BOLT11_HRP = /^ln(bcrt|bc|tbs|tb)(?:([1-9]\d*)([munp])?)?$/;
const BOLT11_LENGTH_MAX = 7089; // the most a QR code holds in alphanumeric mode
const TIMESTAMP_WORDS = 7;
const SIGNATURE_WORDS = 104; // 520 bits: 64-byte signature and recovery id
const PAYMENT_HASH_TYPE = 1; // 'p'
const PAYMENT_HASH_WORDS = 52; // 256 bits

/** A single-use BOLT11 invoice: bech32 checksum, network prefix and amount, tagged fields that parse, a payment hash. */
export function bolt11Problem(value: string, codecs: AddressCodecs = defaultCodecs): string | undefined {
  const decoded = codecs.bech32Decode(value, BOLT11_LENGTH_MAX);
  if (!decoded || !checksumKindFits(decoded, 'bech32')) return 'must be a BOLT11 invoice with a valid bech32 checksum';
  const hrp = BOLT11_HRP.exec(decoded.hrp);
  if (!hrp) return 'must start lnbc, lntb, lntbs or lnbcrt, optionally followed by an amount';
  if (hrp[3] === 'p' && !hrp[2].endsWith('0')) return 'has a pico-bitcoin amount that is not a whole millisatoshi';
  const fields = decoded.words.slice(TIMESTAMP_WORDS, decoded.words.length - SIGNATURE_WORDS);
  if (decoded.words.length < TIMESTAMP_WORDS + SIGNATURE_WORDS) return 'is too short to carry a timestamp and signature';
  const tags = taggedFieldLengths(fields);
  if (!tags) return 'has tagged fields that do not parse';
  return tags.get(PAYMENT_HASH_TYPE) === PAYMENT_HASH_WORDS ? undefined : 'has no 256-bit payment hash';
}

/** Tagged fields: type (1 word), data length (2 words), data. Returns type → first length seen, or undefined. */
function taggedFieldLengths(words: readonly number[]): Map<number, number> | undefined {
  const tags = new Map<number, number>();
  let at = 0;
  while (at < words.length) {
    if (at + 3 > words.length) return undefined;
    const length = words[at + 1] * 32 + words[at + 2];
    if (at + 3 + length > words.length) return undefined;
    if (!tags.has(words[at])) tags.set(words[at], length);
    at += 3 + length;
  }
  return tags;
}

const OFFER_PATHS = 16n;
const OFFER_ISSUER_ID = 22n;

/**
 * A reusable BOLT12 offer: `lno1` then bech32 characters with no checksum (BOLT12 drops it; `+` may join split
 * lines). The bytes must be a TLV stream with strictly increasing types that names an issuer id or blinded paths.
 */
export function bolt12Problem(value: string, codecs: AddressCodecs = defaultCodecs): string | undefined {
  const joined = value.replace(/\+\s*/g, '');
  if (joined !== joined.toLowerCase() && joined !== joined.toUpperCase()) return 'must not mix upper and lower case';
  const match = /^lno1(.+)$/.exec(joined.toLowerCase());
  if (!match || [...match[1]].some((c) => !BECH32_CHARSET.includes(c))) return 'must be lno1 followed by bech32 characters';
  const bytes = codecs.wordsToBytes([...match[1]].map((c) => BECH32_CHARSET.indexOf(c)));
  const types = bytes && tlvTypes(bytes);
  if (!types) return 'does not decode to a BOLT12 TLV stream';
  return types.includes(OFFER_PATHS) || types.includes(OFFER_ISSUER_ID) ? undefined : 'names neither an issuer id nor blinded paths';
}

/** The record types of a TLV stream (BigSize type, BigSize length, value), or undefined if it is malformed. */
function tlvTypes(bytes: Uint8Array): bigint[] | undefined {
  const types: bigint[] = [];
  let at = 0;
  while (at < bytes.length) {
    const type = readBigSize(bytes, at);
    const length = type && readBigSize(bytes, type.next);
    if (!type || !length || length.next + Number(length.value) > bytes.length) return undefined;
    if (types.length > 0 && type.value <= types[types.length - 1]) return undefined;
    types.push(type.value);
    at = length.next + Number(length.value);
  }
  return types.length > 0 ? types : undefined;
}

function readBigSize(bytes: Uint8Array, at: number): { value: bigint; next: number } | undefined {
  if (at >= bytes.length) return undefined;
  const first = bytes[at];
  const width = first < 0xfd ? 0 : first === 0xfd ? 2 : first === 0xfe ? 4 : 8;
  if (width === 0) return { value: BigInt(first), next: at + 1 };
  if (at + 1 + width > bytes.length) return undefined;
  let value = 0n;
  for (let i = 1; i <= width; i++) value = (value << 8n) | BigInt(bytes[at + i]);
  return { value, next: at + 1 + width };
}
