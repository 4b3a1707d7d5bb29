import { IBAN_LENGTHS, ibanMod97, ibanProblem } from './iban';

/** Public example IBANs: the ECBS / SWIFT IBAN Registry examples for each country. */
const EXAMPLES: Record<string, string> = {
  DE: 'DE89370400440532013000',
  GB: 'GB29NWBK60161331926819',
  AE: 'AE070331234567890123456',
  EG: 'EG380019000500000000263180002',
  PK: 'PK36SCBL0000001123456702',
  DK: 'DK5000400440116243',
  FR: 'FR1420041010050500013M02606',
  NL: 'NL91ABNA0417164300',
  BE: 'BE68539007547034',
  ES: 'ES9121000418450200051332',
  IT: 'IT60X0542811101000000123456',
};

describe('IBAN', () => {
  it.each(Object.entries(EXAMPLES))('%s example %s passes MOD 97-10 at its registry length', (country, iban) => {
    expect(iban.length).toBe(IBAN_LENGTHS[country]);
    expect(ibanMod97(iban)).toBe(1);
    expect(ibanProblem(iban)).toBeUndefined();
  });

  it('has the lengths the seed names', () => {
    expect([IBAN_LENGTHS.AE, IBAN_LENGTHS.EG, IBAN_LENGTHS.PK, IBAN_LENGTHS.DK]).toEqual([23, 29, 24, 18]);
  });

  it.each(Object.entries(EXAMPLES))('%s: any single changed digit or swapped check digits fail the checksum', (_, iban) => {
    const lastDigit = iban.length - 1;
    const changed = iban.slice(0, lastDigit) + String((Number(iban[lastDigit]) + 1) % 10);
    expect(ibanProblem(changed)).toMatch(/MOD 97-10/);
    const swapped = iban.slice(0, 2) + iban[3] + iban[2] + iban.slice(4);
    if (swapped !== iban) expect(ibanProblem(swapped)).toMatch(/MOD 97-10/);
  });

  it.each([
    ['DE8937040044053201300', /22 characters/],
    ['DE893704004405320130000', /22 characters/],
    ['XX89370400440532013000', /does not issue IBANs/],
    ['de89370400440532013000', /electronic format/],
    ['DE89 3704 0044 0532 0130 00', /electronic format/],
    ['DEAB370400440532013000', /electronic format/],
  ])('%s is refused', (iban, reason) => expect(ibanProblem(iban)).toMatch(reason));

  it('refuses a valid IBAN from a country outside the allowed list', () => {
    expect(ibanProblem(EXAMPLES.DE, ['AE'])).toBe('must be an IBAN from AE');
    expect(ibanProblem(EXAMPLES.AE, ['AE'])).toBeUndefined();
  });
});
