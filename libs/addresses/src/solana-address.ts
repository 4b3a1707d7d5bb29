import { AddressCodecs, codecs as defaultCodecs } from './codecs';

/**
 * A Solana account address: the base58 form of a 32-byte public key (32 to 44 characters). Solana addresses carry no
 * checksum, so a typo that stays in the alphabet and decodes to 32 bytes cannot be caught here.
 */
export function solanaAddressProblem(value: string, codecs: AddressCodecs = defaultCodecs): string | undefined {
  if (!/^[1-9A-HJ-NP-Za-km-z]{32,44}$/.test(value)) return 'must be 32 to 44 base58 characters';
  return codecs.base58Decode(value)?.length === 32 ? undefined : 'must decode to a 32-byte public key';
}
