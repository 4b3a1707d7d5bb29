import { mnemonicToEntropy } from '@scure/bip39';
import { wordlist } from '@scure/bip39/wordlists/english';
import { generateMnemonic, isValidMnemonic } from './mnemonic';

// BIP-39 reference vectors (trezor/python-mnemonic vectors.json).
const VECTOR_12 = 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';
const VECTOR_24 = `${'abandon '.repeat(23)}art`;

describe('mnemonic', () => {
  it('generates 24 English words carrying 256 bits of entropy', () => {
    const mnemonic = generateMnemonic();
    const words = mnemonic.split(' ');
    expect(words).toHaveLength(24);
    expect(words.every((w) => wordlist.includes(w))).toBe(true);
    expect(mnemonicToEntropy(mnemonic, wordlist)).toHaveLength(32);
    expect(isValidMnemonic(mnemonic)).toBe(true);
  });

  it('draws fresh entropy every time', () => {
    const seen = new Set(Array.from({ length: 8 }, () => generateMnemonic()));
    expect(seen.size).toBe(8);
  });

  it('accepts the BIP-39 reference vectors', () => {
    expect(isValidMnemonic(VECTOR_12)).toBe(true);
    expect(isValidMnemonic(VECTOR_24)).toBe(true);
  });

  it.each([
    ['a bad checksum', `${'abandon '.repeat(11)}abandon`],
    ['a word outside the list', VECTOR_12.replace('about', 'abuot')],
    ['a wrong word count', VECTOR_12.split(' ').slice(0, 11).join(' ')],
    ['double spaces', VECTOR_12.replace(' ', '  ')],
    ['upper case', VECTOR_12.toUpperCase()],
    ['an empty string', ''],
  ])('rejects %s', (_label, mnemonic) => {
    expect(isValidMnemonic(mnemonic)).toBe(false);
  });

  it('rejects non-strings without throwing', () => {
    expect(isValidMnemonic(undefined as unknown as string)).toBe(false);
    expect(isValidMnemonic(['abandon'] as unknown as string)).toBe(false);
  });
});
