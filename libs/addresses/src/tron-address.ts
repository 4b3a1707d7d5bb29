import { AddressCodecs, codecs as defaultCodecs } from './codecs';

/**
 * A TRON account address: base58check of 21 bytes whose first is 0x41, which always renders as 34 characters
 * starting with T (mainnet and the Nile/Shasta testnets share the format).
 */
export function tronAddressProblem(value: string, codecs: AddressCodecs = defaultCodecs): string | undefined {
  if (!/^T[1-9A-HJ-NP-Za-km-z]{33}$/.test(value)) return 'must be a 34-character base58 address starting with T';
  const payload = codecs.base58CheckDecode(value);
  if (!payload) return 'has a bad base58check checksum';
  return payload.length === 21 && payload[0] === 0x41 ? undefined : 'must encode 21 bytes starting with 0x41';
}
