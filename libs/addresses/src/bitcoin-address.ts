import { AddressCodecs, Bech32Decoded, checksumKindFits, codecs as defaultCodecs } from './codecs';

export type BitcoinNetwork = 'MAINNET' | 'TESTNET' | 'REGTEST';

export interface BitcoinAddress {
  network: BitcoinNetwork;
  kind: 'P2PKH' | 'P2SH' | 'P2WPKH' | 'P2WSH' | 'P2TR';
}

/** Base58Check version bytes; testnet, signet and regtest share 0x6f / 0xc4. */
const BASE58_VERSIONS: Record<number, BitcoinAddress> = {
  0x00: { network: 'MAINNET', kind: 'P2PKH' },
  0x05: { network: 'MAINNET', kind: 'P2SH' },
  0x6f: { network: 'TESTNET', kind: 'P2PKH' },
  0xc4: { network: 'TESTNET', kind: 'P2SH' },
};

/** Segwit human-readable parts (BIP-173): bc mainnet, tb testnet and signet, bcrt regtest. */
const SEGWIT_HRPS: Record<string, BitcoinNetwork> = { bc: 'MAINNET', tb: 'TESTNET', bcrt: 'REGTEST' };

/**
 * A Bitcoin L1 address: base58check P2PKH/P2SH (20-byte hash), or segwit v0 (bech32, 20 or 32 bytes) or v1 taproot
 * (bech32m, 32 bytes). Witness versions 2-16 are valid BIP-350 strings but have no spending rules yet, so coins sent
 * to them could be taken by anyone: they are refused here on purpose.
 */
export function decodeBitcoinAddress(value: string, codecs: AddressCodecs = defaultCodecs): BitcoinAddress | undefined {
  const segwit = codecs.bech32Decode(value);
  // A base58 string can look like bech32 to checksumBlindCodecs: it is one only if the segwit rules hold.
  const address = segwit && decodeSegwit(segwit, codecs);
  if (address) return address;
  const payload = codecs.base58CheckDecode(value);
  if (!payload || payload.length !== 21) return undefined;
  return BASE58_VERSIONS[payload[0]];
}

function decodeSegwit(segwit: Bech32Decoded, codecs: AddressCodecs): BitcoinAddress | undefined {
  const { hrp, words } = segwit;
  const network = SEGWIT_HRPS[hrp];
  if (!network || words.length < 1) return undefined;
  const program = codecs.wordsToBytes(words.slice(1));
  if (!program) return undefined;
  const version = words[0];
  const v0 = version === 0 && checksumKindFits(segwit, 'bech32');
  if (v0 && program.length === 20) return { network, kind: 'P2WPKH' };
  if (v0 && program.length === 32) return { network, kind: 'P2WSH' };
  if (version === 1 && checksumKindFits(segwit, 'bech32m') && program.length === 32) return { network, kind: 'P2TR' };
  return undefined;
}

export const bitcoinAddressProblem = (value: string, codecs: AddressCodecs = defaultCodecs): string | undefined =>
  decodeBitcoinAddress(value, codecs) ? undefined : 'must be a Bitcoin P2PKH, P2SH, segwit v0 or taproot address with a valid checksum';
