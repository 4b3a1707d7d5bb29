import { AccountType } from './account-types';
import { ROW_CASES } from './table/test-cases/test-row-cases';
import { ExternalAccountOwnerType, validateExternalAccount } from './validate-external-account';

const TODAY = '2026-03-01';
const ADDRESS = { line1: '1 Main Street', city: 'Springfield', postalCode: '12345', country: 'US' };
const NAME_ONLY = { beneficiaryType: 'INDIVIDUAL', fullName: 'Ada Lovelace' };
const NAME_AND_ADDRESS = { ...NAME_ONLY, address: ADDRESS };
const BUSINESS = { beneficiaryType: 'BUSINESS', businessInfo: { legalName: 'Acme Ltd' }, address: ADDRESS };
const BUSINESS_FULL = { ...BUSINESS, businessInfo: { legalName: 'Acme Ltd', registrationNumber: 'RC123456', taxId: 'TIN-998877' } };

interface Options {
  ownerType?: ExternalAccountOwnerType;
  senderIsBusiness?: boolean;
  today?: string;
  base?: number;
}

/** The first valid account of `accountType` from the table cases, with `beneficiary` in place of its own. */
function validateWith(accountType: AccountType, beneficiary: unknown, options: Options = {}) {
  const cases = ROW_CASES.find((c) => c.accountType === accountType)!;
  const accountInfo = { ...cases.valid[options.base ?? 0], beneficiary };
  const { ownerType = 'INDIVIDUAL', senderIsBusiness } = options;
  const today = 'today' in options ? options.today : TODAY;
  return validateExternalAccount({ currency: cases.currency, accountInfo, ownerType, senderIsBusiness, today }).map((e) => e.field);
}
const typeOf = (currency: string) => `${currency}_ACCOUNT` as AccountType;
const without = (object: Record<string, unknown>, key: string) => Object.fromEntries(Object.entries(object).filter(([k]) => k !== key));
const B = 'accountInfo.beneficiary';

describe('individual beneficiaries: the minimum per currency', () => {
  // The seed spells these four address parts out for USD, GBP and EUR; elsewhere the published Address decides (city optional).
  describe.each(['USD', 'GBP', 'EUR'])('%s needs fullName and address line1, city, postalCode, country', (currency) => {
    it('passes with exactly those', () => expect(validateWith(typeOf(currency), NAME_AND_ADDRESS)).toEqual([]));
    it('fails without fullName', () => expect(validateWith(typeOf(currency), without(NAME_AND_ADDRESS, 'fullName'))).toEqual([`${B}.fullName`]));
    it('fails without address', () => expect(validateWith(typeOf(currency), NAME_ONLY)).toEqual([`${B}.address`]));
    it.each(['line1', 'city', 'postalCode', 'country'])('fails without address.%s', (part) => {
      expect(validateWith(typeOf(currency), { ...NAME_ONLY, address: without(ADDRESS, part) })).toEqual([`${B}.address.${part}`]);
    });
  });

  describe.each(['MXN', 'BRL', 'PHP'])('%s needs beneficiaryType and fullName only', (currency) => {
    it('passes with the name alone', () => expect(validateWith(typeOf(currency), NAME_ONLY)).toEqual([]));
    it('fails without fullName', () => expect(validateWith(typeOf(currency), { beneficiaryType: 'INDIVIDUAL' })).toEqual([`${B}.fullName`]));
    it('fails without beneficiaryType', () => expect(validateWith(typeOf(currency), { fullName: 'Ada' })).toEqual([`${B}.beneficiaryType`]));
    it('takes an address without a postalCode (only USD, GBP and EUR spell it out)', () => {
      expect(validateWith(typeOf(currency), { ...NAME_ONLY, address: without(ADDRESS, 'postalCode') })).toEqual([]);
    });
    it('takes an address without a city (the published Address requires line1, postalCode and country only)', () => {
      expect(validateWith(typeOf(currency), { ...NAME_ONLY, address: without(ADDRESS, 'city') })).toEqual([]);
    });
    it.each(['line1', 'country'])('still refuses an address without %s', (part) => {
      expect(validateWith(typeOf(currency), { ...NAME_ONLY, address: without(ADDRESS, part) })).toEqual([`${B}.address.${part}`]);
    });
  });

  it.each(['INR', 'NGN', 'ZAR', 'KES', 'TZS', 'ZMW', 'RWF', 'MWK', 'UGX', 'XOF', 'XAF', 'BWP', 'CAD', 'CNY', 'EGP', 'GHS', 'HTG', 'PKR', 'DKK', 'HKD', 'IDR', 'MYR', 'SGD', 'THB', 'VND', 'ARS'])(
    '%s (not listed by the seed) needs the name: passes with it, fails without',
    (currency) => {
      expect(validateWith(typeOf(currency), NAME_ONLY)).toEqual([]);
      expect(validateWith(typeOf(currency), { beneficiaryType: 'INDIVIDUAL' })).toEqual([`${B}.fullName`]);
    },
  );
});

describe('beneficiary fields a row adds', () => {
  it('AED: address required for individuals and businesses', () => {
    expect(validateWith('AED_ACCOUNT', NAME_ONLY)).toEqual([`${B}.address`]);
    expect(validateWith('AED_ACCOUNT', without(BUSINESS, 'address'))).toEqual([`${B}.address`]);
    expect(validateWith('AED_ACCOUNT', { ...NAME_ONLY, address: { line1: 'Sheikh Zayed Road 1', city: 'Dubai', country: 'AE' } })).toEqual([]);
    expect(validateWith('AED_ACCOUNT', { ...NAME_ONLY, address: { line1: 'Sheikh Zayed Road 1', country: 'AE' } })).toEqual([]); // city optional
    expect(validateWith('AED_ACCOUNT', { ...NAME_ONLY, address: { city: 'Dubai', country: 'AE' } })).toEqual([`${B}.address.line1`]);
  });

  it('GBP: address required for businesses too', () => expect(validateWith('GBP_ACCOUNT', without(BUSINESS, 'address'))).toEqual([`${B}.address`]));

  it('GTQ: individuals need phoneNumber and countryOfResidence', () => {
    expect(validateWith('GTQ_ACCOUNT', NAME_ONLY)).toEqual([`${B}.phoneNumber`, `${B}.countryOfResidence`]);
    expect(validateWith('GTQ_ACCOUNT', { ...NAME_ONLY, phoneNumber: '+50222123456', countryOfResidence: 'GT' })).toEqual([]);
    expect(validateWith('GTQ_ACCOUNT', without(BUSINESS, 'address'))).toEqual([]);
  });

  it('JMD: individuals need phoneNumber and address, businesses address', () => {
    expect(validateWith('JMD_ACCOUNT', NAME_ONLY)).toEqual([`${B}.phoneNumber`, `${B}.address`]);
    expect(validateWith('JMD_ACCOUNT', { ...NAME_AND_ADDRESS, phoneNumber: '+18765551234' })).toEqual([]);
    expect(validateWith('JMD_ACCOUNT', without(BUSINESS, 'address'))).toEqual([`${B}.address`]);
  });

  it('COP: the bank variant needs the identity document, the mobile-money variant does not', () => {
    expect(validateWith('COP_ACCOUNT', NAME_ONLY)).toEqual([`${B}.documentType`, `${B}.documentNumber`]);
    expect(validateWith('COP_ACCOUNT', { ...NAME_ONLY, documentType: 'CC', documentNumber: '1020304050' })).toEqual([]);
    expect(validateWith('COP_ACCOUNT', NAME_ONLY, { base: 1 })).toEqual([]);
  });
});

describe('business beneficiaries: the minimum per currency', () => {
  const GROUP_LEGAL_NAME_AND_ADDRESS = ['USD', 'MXN', 'GBP', 'INR', 'BRL', 'DKK', 'PHP', 'HKD', 'IDR', 'MYR', 'SGD', 'THB', 'VND', 'AED'];
  const GROUP_WITH_REGISTRATION_AND_TAX_ID = ['NGN', 'ZAR', 'KES', 'TZS', 'RWF', 'ZMW', 'UGX', 'BWP', 'MWK', 'XOF', 'XAF'];

  it.each(GROUP_LEGAL_NAME_AND_ADDRESS)('%s: legalName and address (individual sender)', (currency) => {
    expect(validateWith(typeOf(currency), BUSINESS)).toEqual([]);
    expect(validateWith(typeOf(currency), { ...BUSINESS, businessInfo: {} })).toEqual([`${B}.businessInfo.legalName`]);
    expect(validateWith(typeOf(currency), without(BUSINESS, 'address'))).toEqual([`${B}.address`]);
  });

  it.each(['USD', 'GBP'])('%s: a business address without a city (the seed spells city out for individuals only)', (currency) => {
    expect(validateWith(typeOf(currency), { ...BUSINESS, address: without(ADDRESS, 'city') })).toEqual([]);
    expect(validateWith(typeOf(currency), { ...BUSINESS, address: without(ADDRESS, 'postalCode') })).toEqual([`${B}.address.postalCode`]);
  });

  it('EUR adds registrationNumber', () => {
    expect(validateWith('EUR_ACCOUNT', BUSINESS)).toEqual([`${B}.businessInfo.registrationNumber`]);
    expect(validateWith('EUR_ACCOUNT', { ...BUSINESS, businessInfo: { legalName: 'Acme GmbH', registrationNumber: 'HRB 12345' } })).toEqual([]);
  });

  it.each(GROUP_WITH_REGISTRATION_AND_TAX_ID)('%s: legalName, address, registrationNumber and taxId', (currency) => {
    expect(validateWith(typeOf(currency), BUSINESS_FULL)).toEqual([]);
    expect(validateWith(typeOf(currency), { ...BUSINESS_FULL, address: without(ADDRESS, 'city') })).toEqual([]); // city optional outside USD, GBP, EUR
    expect(validateWith(typeOf(currency), BUSINESS)).toEqual([`${B}.businessInfo.taxId`, `${B}.businessInfo.registrationNumber`]);
    expect(validateWith(typeOf(currency), without(BUSINESS_FULL, 'address'))).toEqual([`${B}.address`]);
  });

  it.each(['CAD', 'CNY', 'EGP', 'GHS', 'HTG', 'PKR', 'ARS'])('%s (not listed by the seed) needs legalName only', (currency) => {
    expect(validateWith(typeOf(currency), without(BUSINESS, 'address'))).toEqual([]);
    expect(validateWith(typeOf(currency), { beneficiaryType: 'BUSINESS', businessInfo: {} })).toEqual([`${B}.businessInfo.legalName`]);
  });

  it('a BUSINESS beneficiary gives its names in businessInfo (an object) or, as the published API does, beside beneficiaryType', () => {
    expect(validateWith('MXN_ACCOUNT', without(BUSINESS, 'businessInfo'))).toEqual([`${B}.legalName`]);
    expect(validateWith('MXN_ACCOUNT', { ...BUSINESS, businessInfo: 'Acme' })).toEqual([`${B}.businessInfo`]);
  });
});

describe('business beneficiaries in the published flat form', () => {
  const FLAT = { beneficiaryType: 'BUSINESS', legalName: 'Acme Ltd', address: ADDRESS };
  const FLAT_FULL = { ...FLAT, registrationNumber: 'RC123456', taxId: 'TIN-998877', phoneNumber: '+2348012345678', countryOfResidence: 'NG', email: 'ops@acme.example' };

  it('meets the same minimums with the same names', () => {
    expect(validateWith('USD_ACCOUNT', FLAT)).toEqual([]);
    expect(validateWith('NGN_ACCOUNT', FLAT_FULL)).toEqual([]);
    expect(validateWith('NGN_ACCOUNT', FLAT)).toEqual([`${B}.taxId`, `${B}.registrationNumber`]);
    expect(validateWith('EUR_ACCOUNT', { ...FLAT, legalName: ' ' })).toEqual([`${B}.legalName`, `${B}.registrationNumber`]);
  });

  it('refuses names in both places, and individual fields', () => {
    expect(validateWith('USD_ACCOUNT', { ...BUSINESS, legalName: 'Acme Ltd', taxId: '1' })).toEqual([`${B}.legalName`, `${B}.taxId`]);
    expect(validateWith('USD_ACCOUNT', { ...FLAT, fullName: 'Acme' })).toEqual([`${B}.fullName`]);
    expect(validateWith('USD_ACCOUNT', { ...FLAT, email: 'not-an-address' })).toEqual([`${B}.email`]);
  });
});

describe('business sender (originator): registrationNumber', () => {
  const SENDER_RULE = ['GBP', 'INR', 'BRL', 'DKK', 'PHP', 'HKD', 'IDR', 'MYR', 'SGD', 'THB', 'VND', 'AED'];

  it.each(SENDER_RULE)('%s: required when the sender is a business, not otherwise', (currency) => {
    expect(validateWith(typeOf(currency), BUSINESS, { senderIsBusiness: true })).toEqual([`${B}.businessInfo.registrationNumber`]);
    expect(validateWith(typeOf(currency), BUSINESS, { senderIsBusiness: false })).toEqual([]);
    expect(validateWith(typeOf(currency), { ...BUSINESS, businessInfo: { legalName: 'Acme', registrationNumber: 'R1' } }, { senderIsBusiness: true })).toEqual([]);
  });

  it.each(['USD', 'MXN'])('%s: not required even for a business sender', (currency) => {
    expect(validateWith(typeOf(currency), BUSINESS, { senderIsBusiness: true })).toEqual([]);
  });

  it('the sender defaults to the owner: BUSINESS and PLATFORM owners send as businesses', () => {
    expect(validateWith('GBP_ACCOUNT', BUSINESS, { ownerType: 'BUSINESS' })).toEqual([`${B}.businessInfo.registrationNumber`]);
    expect(validateWith('GBP_ACCOUNT', BUSINESS, { ownerType: 'PLATFORM' })).toEqual([`${B}.businessInfo.registrationNumber`]);
    expect(validateWith('GBP_ACCOUNT', BUSINESS, { ownerType: 'INDIVIDUAL' })).toEqual([]);
  });

  it('does not apply to an individual beneficiary', () => {
    expect(validateWith('GBP_ACCOUNT', NAME_AND_ADDRESS, { senderIsBusiness: true })).toEqual([]);
  });
});

describe('beneficiary field formats', () => {
  it.each<[Record<string, unknown>, string, string]>([
    [{ birthDate: '2026-03-01' }, 'birthDate', 'not before today'],
    [{ birthDate: '1990-02-30' }, 'birthDate', 'not a calendar date'],
    [{ nationality: 'XX' }, 'nationality', 'not an ISO country'],
    [{ countryOfResidence: 'usa' }, 'countryOfResidence', 'not alpha-2'],
    [{ documentType: 'DNI', documentNumber: '123' }, 'documentType', 'outside CC, CE, TI, NIT, PP'],
    [{ documentType: 'CC' }, 'documentNumber', 'a documentType without its number'],
    [{ documentNumber: '123' }, 'documentType', 'a documentNumber without its type'],
    [{ phoneNumber: '0712345678' }, 'phoneNumber', 'not E.164'],
    [{ fullName: '  ' }, 'fullName', 'blank'],
    [{ email: 'ada@' }, 'email', 'not an e-mail address'],
    [{ vatNumber: '1' }, 'vatNumber', 'a field neither the seed nor the published API lists'],
    [{ businessInfo: { legalName: 'X' } }, 'businessInfo', 'business fields on an individual'],
    [{ address: { ...ADDRESS, zip: '1' } }, 'address.zip', 'an unknown address field'],
    [{ address: { ...ADDRESS, country: 'ZZ' } }, 'address.country', 'an address country that is no ISO code'],
    [{ address: 'Main Street 1' }, 'address', 'an address that is not an object'],
  ])('refuses %j (%s: %s)', (patch, field) => {
    expect(validateWith('MXN_ACCOUNT', { ...NAME_ONLY, ...patch })).toEqual([`${B}.${field}`]);
  });

  it('takes a full individual with every optional field', () => {
    const full = { ...NAME_AND_ADDRESS, birthDate: '1990-01-15', nationality: 'MX', documentType: 'PP', documentNumber: 'G12345678', phoneNumber: '+525512345678', countryOfResidence: 'MX', email: 'ada@example.com' };
    expect(validateWith('MXN_ACCOUNT', { ...full, address: { ...ADDRESS, line2: 'Apt 4', state: 'CA' } })).toEqual([]);
  });

  it('checks birthDate against the today it is given, and skips that check without one', () => {
    expect(validateWith('MXN_ACCOUNT', { ...NAME_ONLY, birthDate: '2026-02-28' })).toEqual([]);
    expect(validateWith('MXN_ACCOUNT', { ...NAME_ONLY, birthDate: '2030-01-01' }, { today: undefined })).toEqual([]);
  });

  it('refuses individual fields on a business and an unknown beneficiaryType', () => {
    expect(validateWith('MXN_ACCOUNT', { ...BUSINESS, fullName: 'Acme' })).toEqual([`${B}.fullName`]);
    expect(validateWith('MXN_ACCOUNT', { ...BUSINESS, businessInfo: { legalName: 'Acme', vat: '1' } })).toEqual([`${B}.businessInfo.vat`]);
    expect(validateWith('MXN_ACCOUNT', { ...NAME_ONLY, beneficiaryType: 'COMPANY' })).toEqual([`${B}.beneficiaryType`]);
  });

  it('requires a beneficiary object on every fiat account', () => {
    expect(validateWith('MXN_ACCOUNT', undefined)).toEqual([B]);
    expect(validateWith('MXN_ACCOUNT', 'Ada Lovelace')).toEqual([B]);
  });
});
