import { decodedParam } from './route-param';

describe('route parameters', () => {
  it('decodes what a link encoded', () => {
    expect(decodedParam('Customer%3A019a')).toBe('Customer:019a');
    expect(decodedParam('Customer:019a')).toBe('Customer:019a');
    expect(decodedParam('a%20b%2Fc')).toBe('a b/c');
  });

  it('keeps a malformed parameter as it is, and an absent one empty', () => {
    expect(decodedParam('50%')).toBe('50%');
    expect(decodedParam('%E0%A4%A')).toBe('%E0%A4%A');
    expect(decodedParam(undefined)).toBe('');
  });
});
