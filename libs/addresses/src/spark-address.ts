import { AddressCodecs, checksumKindFits, codecs as defaultCodecs } from './codecs';

/**
 * Spark (Bitcoin layer 2) address prefixes: the current `spark…` family and the earlier short `sp…` one, which
 * wallets still print. Network by prefix: mainnet, testnet, regtest, signet, local.
 */
export const SPARK_HRPS: Readonly<Record<string, string>> = {
  spark: 'MAINNET', sparkt: 'TESTNET', sparkrt: 'REGTEST', sparks: 'SIGNET', sparkl: 'LOCAL',
  sp: 'MAINNET', spt: 'TESTNET', sprt: 'REGTEST', sps: 'SIGNET', spl: 'LOCAL',
};

/**
 * A Spark address: bech32m over a protobuf message whose only field is the identity public key (tag 0x0a, length 33,
 * then a compressed secp256k1 key starting 02 or 03). Spark invoices (extra fields) are not accounts and are refused.
 */
export function sparkAddressProblem(value: string, codecs: AddressCodecs = defaultCodecs): string | undefined {
  const decoded = codecs.bech32Decode(value);
  if (!decoded || !checksumKindFits(decoded, 'bech32m')) return 'must be a bech32m Spark address with a valid checksum';
  if (!(decoded.hrp in SPARK_HRPS)) return `has unknown prefix ${decoded.hrp}; expected one of ${Object.keys(SPARK_HRPS).join(', ')}`;
  const payload = codecs.wordsToBytes(decoded.words);
  const keyPrefix = payload?.[2];
  const ok = payload?.length === 35 && payload[0] === 0x0a && payload[1] === 33 && (keyPrefix === 2 || keyPrefix === 3);
  return ok ? undefined : 'must encode exactly one 33-byte compressed identity public key';
}
