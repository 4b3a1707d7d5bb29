import { AccountTypeRow, fieldIdentifier, rails } from '../account-type-row';
import { Check, FieldRules, optional, required, stringField } from '../field-rule';
import { and, oneOf } from '../formats';
import { MOBILE_MONEY_PROVIDERS, unionOf, XAF_PROVIDERS_BY_REGION, XOF_PROVIDERS_BY_COUNTRY } from '../mobile-money-providers';
import { PhoneCountry, phoneCountryOf, phoneIn } from '../phone-plans';

const XOF_COUNTRIES: PhoneCountry[] = ['SN', 'CI', 'BJ'];
const XAF_REGIONS: ('CM' | 'CG')[] = ['CM', 'CG'];

/** XOF: the provider must operate in the phone number's country (once the number itself is valid). */
const xofProviderInPhoneCountry: Check = (provider, info) => {
  const country = phoneCountryOf(stringField(info, 'phoneNumber'), XOF_COUNTRIES) as keyof typeof XOF_PROVIDERS_BY_COUNTRY | undefined;
  const offered: readonly string[] | undefined = country && XOF_PROVIDERS_BY_COUNTRY[country];
  return offered && !offered.includes(provider) ? `is not offered in ${country}; use one of ${offered.join(', ')}` : undefined;
};

/** XOF: a `region` must be the phone number's country (once the number itself is valid). */
const xofRegionOfPhone: Check = (region, info) => {
  const country = phoneCountryOf(stringField(info, 'phoneNumber'), XOF_COUNTRIES);
  return country && country !== region ? `must be ${country}, the country of phoneNumber` : undefined;
};

const xafRegion = (info: Parameters<Check>[1]) => XAF_REGIONS.find((r) => r === stringField(info, 'region'));

/** XAF: the number must be of the `region`'s country (of either while the region is missing or wrong). */
const xafPhone = {
  check: ((value, info) => {
    const region = xafRegion(info);
    return phoneIn(...(region ? [region] : XAF_REGIONS)).check(value, info);
  }) as Check,
  constraint: phoneIn(...XAF_REGIONS).constraint,
};

const xafProviderInRegion: Check = (provider, info) => {
  const region = xafRegion(info);
  const offered: readonly string[] | undefined = region && XAF_PROVIDERS_BY_REGION[region];
  return offered && !offered.includes(provider) ? `is not offered in ${region}; use one of ${offered.join(', ')}` : undefined;
};

function mobileMoneyRow(accountType: AccountTypeRow['accountType'], currency: string, fields: FieldRules): AccountTypeRow {
  return { accountType, currencies: [currency], fields, beneficiary: 'required', identifier: fieldIdentifier('phoneNumber'), paymentRails: rails('MOBILE_MONEY') };
}

const phoneAndProvider = (country: PhoneCountry, providers: readonly string[]): FieldRules => ({
  phoneNumber: required(phoneIn(country)),
  provider: required(oneOf(providers)),
});

/** Mobile-money wallets: a phone number and, except in Haiti, the wallet provider. */
export const MOBILE_MONEY_ROWS: readonly AccountTypeRow[] = [
  mobileMoneyRow('KES_ACCOUNT', 'KES', phoneAndProvider('KE', MOBILE_MONEY_PROVIDERS.KES)),
  mobileMoneyRow('TZS_ACCOUNT', 'TZS', phoneAndProvider('TZ', MOBILE_MONEY_PROVIDERS.TZS)),
  mobileMoneyRow('ZMW_ACCOUNT', 'ZMW', phoneAndProvider('ZM', MOBILE_MONEY_PROVIDERS.ZMW)),
  mobileMoneyRow('RWF_ACCOUNT', 'RWF', phoneAndProvider('RW', MOBILE_MONEY_PROVIDERS.RWF)),
  mobileMoneyRow('MWK_ACCOUNT', 'MWK', phoneAndProvider('MW', MOBILE_MONEY_PROVIDERS.MWK)),
  mobileMoneyRow('UGX_ACCOUNT', 'UGX', phoneAndProvider('UG', MOBILE_MONEY_PROVIDERS.UGX)),
  mobileMoneyRow('BWP_ACCOUNT', 'BWP', phoneAndProvider('BW', MOBILE_MONEY_PROVIDERS.BWP)),
  {
    ...mobileMoneyRow('XOF_ACCOUNT', 'XOF', {
      phoneNumber: required(phoneIn(...XOF_COUNTRIES)),
      provider: required(and(oneOf(unionOf(XOF_PROVIDERS_BY_COUNTRY)), xofProviderInPhoneCountry)),
      // The published API requires it; the phone number already says it, so here it only has to agree.
      region: optional(and(oneOf(XOF_COUNTRIES), xofRegionOfPhone)),
    }),
    answerFields: (info) => ({ region: phoneCountryOf(stringField(info, 'phoneNumber'), XOF_COUNTRIES) }),
  },
  mobileMoneyRow('XAF_ACCOUNT', 'XAF', {
    phoneNumber: required(xafPhone),
    provider: required(and(oneOf(unionOf(XAF_PROVIDERS_BY_REGION)), xafProviderInRegion)),
    region: required(oneOf(XAF_REGIONS)),
  }),
  mobileMoneyRow('HTG_ACCOUNT', 'HTG', { phoneNumber: required(phoneIn('HT')) }),
];
