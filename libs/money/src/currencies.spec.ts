import { CRYPTO_CURRENCY_CODES, currencyObject, findCurrency, SUPPORTED_CURRENCY_CODES } from './currencies';

describe('currency table', () => {
  it('USDB, the Embedded Wallet stablecoin: crypto, 6 decimals, named as the published docs name it', () => {
    // mintlify/snippets/global-accounts/walkthrough.mdx: "currency": { "code": "USDB", "name": "USDB", "decimals": 6 }
    expect(currencyObject('USDB')).toEqual({ code: 'USDB', name: 'USDB', symbol: 'USDB', decimals: 6 });
    expect(findCurrency('USDB')?.kind).toBe('CRYPTO');
    expect(CRYPTO_CURRENCY_CODES).toContain('USDB');
    expect(SUPPORTED_CURRENCY_CODES).toContain('USDB');
  });

  it('has one entry per code', () => expect(new Set(SUPPORTED_CURRENCY_CODES).size).toBe(SUPPORTED_CURRENCY_CODES.length));
});
