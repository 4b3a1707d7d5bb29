import { AddressCodecs, checksumKindFits, codecs as defaultCodecs } from './codecs';

/** Spark token identifier prefixes (bech32m over the 32-byte token identifier), by network. */
export const SPARK_TOKEN_HRPS: Readonly<Record<string, string>> = { btkn: 'MAINNET', btknt: 'TESTNET', btknrt: 'REGTEST', btkns: 'SIGNET', btknl: 'LOCAL' };

/**
 * A Spark token identifier (`btkn1…` on mainnet, `btknrt1…` on regtest): bech32m with a valid checksum over exactly
 * 32 bytes. `mainnet` says which side the caller's mode is on: production tokens live on mainnet, sandbox ones never.
 */
export function sparkTokenIdentifierProblem(value: string, mainnet: boolean, codecs: AddressCodecs = defaultCodecs): string | undefined {
  const decoded = codecs.bech32Decode(value);
  if (!decoded || !checksumKindFits(decoded, 'bech32m')) return 'must be a bech32m Spark token identifier with a valid checksum';
  const network = SPARK_TOKEN_HRPS[decoded.hrp];
  if (!network) return `has unknown prefix ${decoded.hrp}; expected one of ${Object.keys(SPARK_TOKEN_HRPS).join(', ')}`;
  if (codecs.wordsToBytes(decoded.words)?.length !== 32) return 'must encode exactly 32 bytes';
  if (mainnet !== (network === 'MAINNET')) return mainnet ? 'must be a mainnet (btkn1) token in production' : `is a mainnet token; the sandbox uses test networks (e.g. btknrt1)`;
  return undefined;
}
