import { AddressCodecs, codecs as defaultCodecs } from './codecs';

/**
 * An EVM account address (Ethereum, Polygon, Base, Plasma): `0x` + 40 hex digits. All-lower and all-upper hex carry
 * no checksum and are accepted; mixed case must be the EIP-55 checksum. The zero address is refused: what is sent
 * there is burned. Returns why the value is not an address, or undefined.
 */
export function evmAddressProblem(value: string, codecs: AddressCodecs = defaultCodecs): string | undefined {
  if (!/^0x[0-9a-fA-F]{40}$/.test(value)) return 'must be 0x followed by 40 hexadecimal digits';
  const hex = value.slice(2);
  if (/^0+$/.test(hex)) return 'must not be the zero address';
  if (hex === hex.toLowerCase() || hex === hex.toUpperCase() || !codecs.verifiesChecksums) return undefined;
  return hex === eip55(hex, codecs) ? undefined : 'has mixed case that is not a valid EIP-55 checksum';
}

/** EIP-55: upper-case each letter whose nibble in keccak256(lower-case hex as ASCII) is 8 or more. */
export function eip55(hex: string, codecs: AddressCodecs = defaultCodecs): string {
  const lower = hex.toLowerCase();
  const hash = codecs.keccak256(new TextEncoder().encode(lower));
  return [...lower].map((char, i) => ((hash[i >> 1] >> (i % 2 === 0 ? 4 : 0)) & 0xf) >= 8 ? char.toUpperCase() : char).join('');
}
