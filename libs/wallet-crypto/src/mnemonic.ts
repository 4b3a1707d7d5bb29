import { generateMnemonic as bip39Generate, validateMnemonic } from '@scure/bip39';
import { wordlist } from '@scure/bip39/wordlists/english';

/** A 24-word BIP-39 English mnemonic: 256 bits of CSPRNG entropy. */
export function generateMnemonic(): string {
  return bip39Generate(wordlist, 256);
}

/** BIP-39 English with a valid checksum (any standard length); words separated by single spaces. */
export function isValidMnemonic(mnemonic: string): boolean {
  if (typeof mnemonic !== 'string') return false;
  try {
    return validateMnemonic(mnemonic, wordlist);
  } catch {
    return false;
  }
}
