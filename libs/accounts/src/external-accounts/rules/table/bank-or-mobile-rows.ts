import { AccountTypeRow, firstOfIdentifier, rails, Variant } from '../account-type-row';
import { optional, required, stringField } from '../field-rule';
import { BANK_ACCOUNT_TYPE, bic, digits, e164, iban, matches, oneOf, text } from '../formats';
import { PhoneCountry, phoneIn } from '../phone-plans';
import { DOMESTIC_ACCOUNT_NUMBER } from './domestic-account-number';

// Beside a bank account, the number is the holder's contact (the published examples send one): E.164 is enough.
const mobileMoney = (country: PhoneCountry): Variant => ({
  name: 'mobile money',
  key: 'phoneNumber',
  fields: { phoneNumber: required(phoneIn(country)) },
  alongside: { phoneNumber: required(e164()) },
  paymentRails: rails('MOBILE_MONEY'),
});
const bank = (fields: Variant['fields'] = {}, beneficiary?: Variant['beneficiary']): Variant => ({
  name: 'bank',
  key: 'accountNumber',
  primary: true,
  fields: { accountNumber: required(DOMESTIC_ACCOUNT_NUMBER), ...fields },
  beneficiary,
  paymentRails: rails('BANK_TRANSFER'),
});
const BANK_NAME = { bankName: required(text()) };

/** UPI virtual payment address `name@handle` (NPCI: handle letters and digits, starting with a letter). */
const UPI_VPA = /^[A-Za-z0-9._-]{2,256}@[A-Za-z][A-Za-z0-9]{1,63}$/;
/** IFSC: 4 letters bank, a 0, 6 letters or digits branch. */
const IFSC = /^[A-Z]{4}0[A-Z0-9]{6}$/;

/**
 * Types with a bank and a mobile-money (or UPI) variant: one variant's key field, or both with the bank one paid
 * (the other kept as a further identifier, as the published examples send them).
 */
export const BANK_OR_MOBILE_ROWS: readonly AccountTypeRow[] = [
  {
    accountType: 'COP_ACCOUNT',
    currencies: ['COP'],
    fields: BANK_NAME,
    // Most Colombian banks expect the holder's identity document: required on the bank variant.
    variants: [bank({ bankAccountType: required(BANK_ACCOUNT_TYPE) }, { individual: ['documentType', 'documentNumber'] }), mobileMoney('CO')],
    beneficiary: 'required',
    identifier: firstOfIdentifier('accountNumber', 'phoneNumber'),
  },
  {
    accountType: 'SLV_ACCOUNT',
    currencies: ['USD'],
    fields: {},
    variants: [bank({ bankAccountType: required(BANK_ACCOUNT_TYPE), ...BANK_NAME }), mobileMoney('SV')],
    beneficiary: 'required',
    identifier: firstOfIdentifier('accountNumber', 'phoneNumber'),
  },
  {
    accountType: 'BDT_ACCOUNT',
    currencies: ['BDT'],
    fields: BANK_NAME,
    // branchCode: the published 5-digit branch code, or the 9-digit Bangladesh Bank routing number of the branch.
    variants: [bank({ branchCode: optional(matches(/^(\d{5}|\d{9})$/, '5 digits, or the 9-digit routing number')), swiftCode: optional(bic(['BD'])) }), mobileMoney('BD')],
    beneficiary: 'required',
    identifier: firstOfIdentifier('accountNumber', 'phoneNumber'),
  },
  bankNameAlways('CNY_ACCOUNT', 'CNY', bank(), mobileMoney('CN')),
  bankNameAlways('EGP_ACCOUNT', 'EGP', { name: 'bank', key: 'iban', primary: true, fields: { iban: required(iban(['EG'])) }, paymentRails: rails('BANK_TRANSFER') }, mobileMoney('EG')),
  bankNameAlways('GHS_ACCOUNT', 'GHS', bank(), mobileMoney('GH')),
  bankNameAlways('PKR_ACCOUNT', 'PKR', bank({ iban: optional(iban(['PK'])) }), mobileMoney('PK')),
  {
    accountType: 'INR_ACCOUNT',
    currencies: ['INR'],
    fields: {},
    variants: [
      { name: 'UPI', key: 'vpa', fields: { vpa: required(matches(UPI_VPA, 'a UPI address name@handle')) }, paymentRails: rails('UPI') },
      {
        name: 'NEFT or RTGS',
        key: 'accountNumber',
        primary: true,
        fields: {
          accountNumber: required(digits(9, 18)),
          ifsc: required(matches(IFSC, 'an IFSC: 4 letters, 0, then 6 letters or digits')),
          rail: required(oneOf(['NEFT', 'RTGS'])),
          bankName: optional(text()),
        },
        paymentRails: (info) => [stringField(info, 'rail')], // the rail the account chose
      },
    ],
    beneficiary: 'required',
    identifier: firstOfIdentifier('accountNumber', 'vpa'),
  },
];

function bankNameAlways(accountType: AccountTypeRow['accountType'], currency: string, bankVariant: Variant, mobile: Variant): AccountTypeRow {
  return {
    accountType,
    currencies: [currency],
    fields: BANK_NAME,
    variants: [bankVariant, mobile],
    beneficiary: 'required',
    identifier: firstOfIdentifier(bankVariant.key, mobile.key),
  };
}
