import { caseInsensitiveSource } from './dto-schemas';

describe('caseInsensitiveSource', () => {
  it('spells out both cases of letters outside classes and keeps escapes and letter-free classes', () => {
    const source = caseInsensitiveSource('^https?:\\/\\/[^\\s]+$')!;
    expect(source).toBe('^[hH][tT][tT][pP][sS]?:\\/\\/[^\\s]+$');
    const re = new RegExp(source, 'u');
    expect(['HTTPS://x', 'http://y', 'HtTp://z'].every((s) => re.test(s))).toBe(true);
    expect(re.test('ftp://x')).toBe(false);
  });

  it('gives up rather than guess on classes with letters, groups and escapes that carry letters', () => {
    expect(caseInsensitiveSource('^[a-z]+$')).toBeUndefined();
    expect(caseInsensitiveSource('(?<year>\\d{4})')).toBeUndefined();
    expect(caseInsensitiveSource('\\u00e9')).toBeUndefined();
  });
});
