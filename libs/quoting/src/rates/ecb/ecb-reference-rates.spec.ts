import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { EcbDocumentError, frankfurtTime, parseEcbReferenceRates } from './ecb-reference-rates';
import { ProductionRateBook } from '../production/production-rate-book';

/** The ECB's daily document of Friday 8 July 2022, recorded (fixtures/README.md says where it comes from). */
const RECORDED_ECB_DOCUMENT = readFileSync(join(__dirname, 'fixtures', 'eurofxref-daily.2022-07-08.xml'), 'utf8');

describe('the ECB reference rates document', () => {
  const parsed = parseEcbReferenceRates(RECORDED_ECB_DOCUMENT);

  it('reads the reference date, every currency and its rate exactly as written', () => {
    expect(parsed.referenceDate).toBe('2022-07-08');
    expect(Object.keys(parsed.perEur)).toHaveLength(31);
    expect(parsed.perEur).toMatchObject({ USD: '1.0163', JPY: '138.05', GBP: '0.84585', MXN: '20.8477', IDR: '15210.73', PLN: '4.7630', NOK: '10.2630', ZAR: '17.1922' });
    expect(parsed.perEur.EUR).toBeUndefined();
  });

  it('keeps the publication time: 16:00 in Frankfurt on the reference date (CEST in July, CET in January)', () => {
    expect(parsed.publishedAt).toBe('2022-07-08T14:00:00.000Z');
    expect(frankfurtTime('2022-01-07', 16)).toBe('2022-01-07T15:00:00.000Z');
    expect(frankfurtTime('2024-03-29', 16)).toBe('2024-03-29T15:00:00.000Z'); // the Friday before the change to summer time
    expect(frankfurtTime('2024-04-02', 16)).toBe('2024-04-02T14:00:00.000Z');
  });

  it('prices cross rates through EUR exactly, rounded half up to 15 significant digits', () => {
    const book = new ProductionRateBook([], { ...parsed, fetchedAt: '2022-07-08T15:00:00.000Z' }, { operatorMaxAgeMs: 1, ecb: { url: 'https://ecb.example/x.xml', maxAgeMs: 86_400_000 } }, '2022-07-09T10:00:00.000Z');
    const rate = (s: string, d: string) => {
      const found = book.lookup(s, d);
      if (!found.ok) throw found.error;
      return [found.rate.midRate, found.rate.pricing.derivation];
    };
    // 20.8477 / 1.0163 = 20.51333267735904752...; 1 / 1.0163 = 0.98396142871199449...
    expect(rate('USD', 'MXN')).toEqual(['20.513332677359', 'CROSS_VIA_EUR']);
    expect(rate('EUR', 'USD')).toEqual(['1.0163', 'DIRECT']);
    expect(rate('USD', 'EUR')).toEqual(['0.983961428711994', 'INVERSE']);
    expect(rate('GBP', 'USD')).toEqual(['1.20151327067447', 'CROSS_VIA_EUR']);
    expect(rate('MYR', 'IDR')).toEqual(['3380.76324679943', 'CROSS_VIA_EUR']);
    const found = book.lookup('USD', 'MXN');
    expect(found.ok && found.rate.pricing).toMatchObject({ source: 'ECB', publishedAt: '2022-07-08T14:00:00.000Z', referenceDate: '2022-07-08', fetchedAt: '2022-07-08T15:00:00.000Z' });
  });

  it('takes the newest day of a multi-day document (the 90-day history has the same shape)', () => {
    const twoDays = RECORDED_ECB_DOCUMENT.replace("<Cube time='2022-07-08'>", "<Cube time='2022-07-07'><Cube currency='USD' rate='1.0180'/></Cube>\n\t\t<Cube time='2022-07-08'>");
    expect(parseEcbReferenceRates(twoDays)).toMatchObject({ referenceDate: '2022-07-08', perEur: { USD: '1.0163' } });
  });

  it.each([
    ['malformed XML', RECORDED_ECB_DOCUMENT.replace('</gesmes:Envelope>', ''), /malformed XML/],
    ['another document', '<?xml version="1.0"?><html><body>Maintenance</body></html>', /no gesmes:Envelope/],
    ['another subject', RECORDED_ECB_DOCUMENT.replace('Reference rates', 'Something else'), /subject/],
    ['a decimal comma', RECORDED_ECB_DOCUMENT.replace("rate='1.0163'", "rate='1,0163'"), /USD .* not a positive decimal/],
    ['a zero rate', RECORDED_ECB_DOCUMENT.replace("rate='1.0163'", "rate='0.0000'"), /USD .* not a positive decimal/],
    ['a negative rate', RECORDED_ECB_DOCUMENT.replace("rate='1.0163'", "rate='-1.0163'"), /not a positive decimal/],
    ['a number in exponent form', RECORDED_ECB_DOCUMENT.replace("rate='1.0163'", "rate='1.0163e0'"), /not a positive decimal/],
    ['a currency twice', RECORDED_ECB_DOCUMENT.replace("currency='JPY'", "currency='USD'"), /USD is listed twice/],
    ['a date that does not exist', RECORDED_ECB_DOCUMENT.replace("time='2022-07-08'", "time='2022-02-30'"), /not a date/],
    ['no day', RECORDED_ECB_DOCUMENT.replace(/<Cube time[\s\S]*<\/Cube>\s*<\/Cube>/, '</Cube>'), /no Cube with a time/],
  ])('refuses %s', (_name, xml, message) => {
    expect(() => parseEcbReferenceRates(xml)).toThrow(EcbDocumentError);
    expect(() => parseEcbReferenceRates(xml)).toThrow(message);
  });
});
