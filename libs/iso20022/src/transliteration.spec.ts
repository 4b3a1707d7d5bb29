import { latinText, sepaFreeText } from './transliteration';

describe('remittance text for bank files', () => {
  it('spells Latin letters without marks, typographic punctuation as ASCII, and drops other scripts (never "?")', () => {
    expect(latinText('Zoë Šimůnková – 東京')).toBe('Zoe Simunkova -');
    expect(latinText('Invoice 42 – Zoë')).toBe('Invoice 42 - Zoe');
    expect(latinText('Straße Ørsted Łódź “quoted” l’été…')).toBe('Strasse Orsted Lodz "quoted" l\'ete...');
    expect(latinText('東京')).toBe('');
    expect(latinText('  a\t\nb  ')).toBe('a b');
  });

  it('keeps to the SEPA set and 140 characters', () => {
    expect(sepaFreeText('Zoë Šimůnková – 東京')).toBe('Zoe Simunkova -');
    expect(sepaFreeText('Tom & Jerry "Ltd" #7; 50% off_now')).toBe("Tom + Jerry 'Ltd' 7, 50 off now");
    expect(sepaFreeText('x'.repeat(150))).toBe('x'.repeat(140));
    expect(sepaFreeText(`${'a'.repeat(139)} b`)).toBe('a'.repeat(139));
    expect(sepaFreeText('東京')).toBeUndefined();
    expect(sepaFreeText('#*_')).toBeUndefined();
  });
});
