import { formatMinor, parseDecimalToMinor } from './amounts';
import { bic, iban, reference, sepaText } from './identifiers';
import { failureReasonForStatusCode } from './status-reasons';

describe('amounts', () => {
  it('formats minor units exactly, whatever the size', () => {
    expect(formatMinor(12345n, 2)).toBe('123.45');
    expect(formatMinor(5n, 2)).toBe('0.05');
    expect(formatMinor(0n, 2)).toBe('0.00');
    expect(formatMinor(700n, 0)).toBe('700');
    expect(formatMinor(123456789012345678n, 2)).toBe('1234567890123456.78');
  });

  it('parses decimal text to minor units without floating point, refusing digits below the minor unit', () => {
    expect(parseDecimalToMinor('0.1', 2, 'x')).toBe(10n);
    expect(parseDecimalToMinor('123.45', 2, 'x')).toBe(12345n);
    expect(parseDecimalToMinor('12.300', 2, 'x')).toBe(1230n);
    expect(parseDecimalToMinor('100', 2, 'x')).toBe(10000n);
    expect(() => parseDecimalToMinor('0.005', 2, 'x')).toThrow('x: "0.005" has more than 2 decimal places');
    expect(() => parseDecimalToMinor('1.5', 0, 'x')).toThrow('more than 0 decimal places');
    for (const bad of ['-1.00', '+1.00', '1e3', '1,00', '.5', '1.', '']) expect(() => parseDecimalToMinor(bad, 2, 'x')).toThrow('is not a non-negative decimal amount');
  });
});

describe('identifiers', () => {
  it('checks IBANs by mod-97 and returns their electronic form', () => {
    expect(iban('gb29 nwbk 6016 1331 9268 19', 'f')).toBe('GB29NWBK60161331926819');
    expect(iban('ES9121000418450200051332', 'f')).toBe('ES9121000418450200051332');
    expect(() => iban('GB28NWBK60161331926819', 'f')).toThrow('f "GB28NWBK60161331926819" is not a valid IBAN');
    expect(() => iban('GB29NWBK6016133192681!', 'f')).toThrow('is not a valid IBAN');
  });

  it('checks BIC shape (8 or 11)', () => {
    expect(bic('deutdeff', 'f')).toBe('DEUTDEFF');
    expect(bic('DEUTDEFF500', 'f')).toBe('DEUTDEFF500');
    for (const bad of ['DEUTDEF', 'DEUTDEFF5', 'DEUT1EFF', 'DEUTDEFF50']) expect(() => bic(bad, 'f')).toThrow('is not a valid BIC');
  });

  it('transliterates Latin diacritics, truncates names and refuses other characters', () => {
    expect(sepaText('  Ærøskøbing   Straße  ', 'f', 70, 'truncate')).toBe('AEroskobing Strasse');
    expect(sepaText('Zoë O\'Brien (Ltd.)', 'f', 10, 'truncate')).toBe("Zoe O'Brie");
    expect(() => sepaText('a@b', 'f', 70, 'truncate')).toThrow('f has a character outside the SEPA character set: "@"');
    expect(() => sepaText('   ', 'f', 70, 'truncate')).toThrow('f is empty');
  });

  it('keeps references as given or refuses them', () => {
    expect(reference("A-Z/0.9?:(),'+ x", 'f')).toBe("A-Z/0.9?:(),'+ x");
    for (const bad of ['', ' a', '/a', 'a/', 'a//b', 'é', 'x'.repeat(36)]) expect(() => reference(bad, 'f')).toThrow(/^f "/);
  });

  it('maps status reason codes to the published failure reasons, unknown ones to the coarse fallback', () => {
    expect(failureReasonForStatusCode('AC04')).toBe('ACCOUNT_INVALID');
    expect(failureReasonForStatusCode('AG01')).toBe('ACCOUNT_CANNOT_RECEIVE');
    expect(failureReasonForStatusCode('RR04')).toBe('COMPLIANCE_REJECTED');
    expect(failureReasonForStatusCode('AM02')).toBe('LIMIT_EXCEEDED');
    expect(failureReasonForStatusCode('ZZ99')).toBe('COUNTERPARTY_POST_TX_FAILED');
    expect(failureReasonForStatusCode(undefined)).toBe('COUNTERPARTY_POST_TX_FAILED');
  });
});
