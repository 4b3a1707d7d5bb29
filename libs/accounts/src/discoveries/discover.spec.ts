import { isValid as isCountry } from 'i18n-iso-countries';
import { findCurrency } from '@payments/money';
import { ACCOUNT_TYPE_TABLE } from '../external-accounts/rules/table/account-type-table';
import { MOBILE_MONEY_PROVIDERS, XAF_PROVIDERS_BY_REGION, XOF_PROVIDERS_BY_COUNTRY } from '../external-accounts/rules/mobile-money-providers';
import { discover, discoveredBankNames, INSTITUTIONS } from './discover';

describe('discover', () => {
  it('returns every institution when neither filter is given (absent or empty)', () => {
    expect(discover()).toEqual(INSTITUTIONS);
    expect(discover({})).toEqual(INSTITUTIONS);
    expect(discover({ country: '', currency: ' ' })).toEqual(INSTITUTIONS);
    expect(INSTITUTIONS.length).toBeGreaterThan(150);
  });

  it('filters by country, by currency, and by both (case-insensitive)', () => {
    const byCountry = discover({ country: 'ph' });
    expect(byCountry.length).toBeGreaterThanOrEqual(5);
    expect(byCountry.every((i) => i.country === 'PH' && i.currency === 'PHP')).toBe(true);
    const xof = discover({ currency: 'XOF' });
    expect(new Set(xof.map((i) => i.country))).toEqual(new Set(['SN', 'CI', 'BJ']));
    expect(discover({ country: 'BJ', currency: 'XOF' }).map((i) => i.bankName)).toEqual(['MTN_MOMO', 'MOOV_MONEY']);
    expect(discover({ country: 'SV', currency: 'USD' }).length).toBeGreaterThanOrEqual(3);
    expect(discover({ country: 'US', currency: 'EUR' })).toEqual([]);
    expect(discover({ currency: 'BTC' })).toEqual([]);
  });

  it('lists the PHP bankName values a PHP account must use', () => {
    expect(discoveredBankNames('PHP')).toEqual(expect.arrayContaining(['BDO_UNIBANK', 'METROBANK', 'GCASH']));
    expect(discoveredBankNames('PHP')).not.toContain('JPMORGAN_CHASE');
  });
});

describe('the institution catalogue', () => {
  const FIAT_CURRENCIES = [...new Set(ACCOUNT_TYPE_TABLE.filter((r) => r.beneficiary === 'required' && r.accountType !== 'SWIFT_ACCOUNT').flatMap((r) => r.currencies))];

  it.each(FIAT_CURRENCIES)('has institutions for %s', (currency) => {
    expect(discover({ currency }).length).toBeGreaterThanOrEqual(currency === 'KES' ? 1 : 2);
  });

  it('has well-formed entries: UPPER_SNAKE bankName, a display name, a real country, a supported fiat currency, no duplicates', () => {
    for (const i of INSTITUTIONS) {
      expect(i.bankName).toMatch(/^[A-Z0-9]+(_[A-Z0-9]+)*$/);
      expect(i.displayName.trim()).not.toBe('');
      expect(isCountry(i.country)).toBe(true);
      expect(findCurrency(i.currency)?.kind).toBe('FIAT');
    }
    const keys = INSTITUTIONS.map((i) => `${i.country}/${i.currency}/${i.bankName}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('discovers every mobile-money provider value where the account rules allow it', () => {
    for (const [currency, providers] of Object.entries(MOBILE_MONEY_PROVIDERS)) expect(discoveredBankNames(currency).sort()).toEqual([...providers].sort());
    for (const [country, providers] of Object.entries({ ...XOF_PROVIDERS_BY_COUNTRY, ...XAF_PROVIDERS_BY_REGION })) {
      expect(discover({ country }).map((i) => i.bankName).sort()).toEqual([...providers].sort());
    }
  });
});
