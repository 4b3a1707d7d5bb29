import { parseRailsConfig } from './rails-config';

const EUR = { currency: 'EUR', bankName: 'Sponsor Bank AG', accountHolderName: 'PP FBO', iban: 'DE89 3704 0044 0532 0130 00', bic: 'COBADEFFXXX' };
const USD = { currency: 'USD', bankName: 'Sponsor Bank NA', accountHolderName: 'PP FBO', routingNumber: '021000021', accountNumber: '123456789' };
const parse = (depositAccounts: unknown) => parseRailsConfig({ connectors: [], depositAccounts });

describe('rails configuration: deposit accounts', () => {
  it('is empty when absent, and keeps an FBO account per currency (the IBAN in electronic form) and a virtual range', () => {
    expect(parseRailsConfig({ connectors: [] }).depositAccounts).toEqual([]);
    const range = { ...USD, accountNumber: undefined, virtualAccounts: { from: '0088000000', to: '0088009999' } };
    expect(parse([EUR, range]).depositAccounts).toEqual([
      { currency: 'EUR', bankName: 'Sponsor Bank AG', accountHolderName: 'PP FBO', iban: 'DE89370400440532013000', bic: 'COBADEFFXXX' },
      { currency: 'USD', bankName: 'Sponsor Bank NA', accountHolderName: 'PP FBO', routingNumber: '021000021', virtualAccounts: { from: '0088000000', to: '0088009999' } },
    ]);
  });

  it.each([
    ['not an array', { x: 1 }, 'root: depositAccounts must be an array'],
    ['an unsupported currency', [{ ...USD, currency: 'GBP' }], 'depositAccounts[0]: currency must be one of USD, EUR'],
    ['two for one currency', [USD, USD], 'depositAccounts[1]: a second deposit account for USD'],
    ['an unknown field', [{ ...USD, swift: 'X' }], 'depositAccounts[0]: unknown field swift'],
    ['no bank name', [{ ...USD, bankName: ' ' }], 'depositAccounts[0]: bankName must be a non-empty string'],
    ['a USD account without a number or a range', [{ ...USD, accountNumber: undefined }], 'depositAccounts[0]: give accountNumber'],
    ['a short routing number', [{ ...USD, routingNumber: '02100002' }], 'depositAccounts[0]: routingNumber "02100002" must be 9 digits'],
    ['an IBAN on a USD account', [{ ...USD, iban: EUR.iban }], 'depositAccounts[0]: iban is not used for USD'],
    ['a routing number on a EUR account', [{ ...EUR, routingNumber: '021000021' }], 'depositAccounts[0]: routingNumber is not used for EUR'],
    ['a malformed IBAN', [{ ...EUR, iban: 'DE89-3704' }], 'depositAccounts[0]: iban "DE89-3704" must match'],
    ['a bad BIC', [{ ...EUR, bic: 'COBA' }], 'depositAccounts[0]: bic "COBA" must match'],
    ['a range of unequal lengths', [{ ...USD, virtualAccounts: { from: '1000', to: '99999' } }], 'depositAccounts[0].virtualAccounts: from and to must have the same number of digits'],
    ['a reversed range', [{ ...USD, virtualAccounts: { from: '9000', to: '1000' } }], 'depositAccounts[0].virtualAccounts: from must not be greater than to'],
    ['a range of letters', [{ ...USD, virtualAccounts: { from: 'AB12', to: 'AB99' } }], 'depositAccounts[0].virtualAccounts: from must be a string of 4 to 17 digits'],
  ])('refuses %s, naming the field', (_what, depositAccounts, message) => {
    expect(() => parse(depositAccounts)).toThrow(`rails configuration: ${message}`);
  });
});
