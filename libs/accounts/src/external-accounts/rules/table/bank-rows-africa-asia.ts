import { discover, discoveredBankNames } from '../../../discoveries/discover';
import { AccountTypeRow, fieldIdentifier, PaymentRails, rails } from '../account-type-row';
import { Format, optional, required } from '../field-rule';
import { and, bic, digits, text } from '../formats';
import { phoneIn } from '../phone-plans';
import { DOMESTIC_ACCOUNT_NUMBER } from './domestic-account-number';

/** PHP: the bankName must be one GET /discoveries?currency=PHP returns, or its displayName (the published examples use those). */
function discoveredBankName(currency: string): Format {
  const names = discoveredBankNames(currency);
  const displayNames = discover({ currency }).map((i) => i.displayName);
  return {
    ...and(text(), (v) => (names.includes(v) || displayNames.includes(v) ? undefined : `must be a bankName (or displayName) from GET /discoveries?currency=${currency}`)),
    constraint: { enum: names },
  };
}

/** Bank accounts in Africa and Asia (mobile money is in mobile-money-rows.ts). */
export const BANK_ROWS_AFRICA_ASIA: readonly AccountTypeRow[] = [
  bankRow('NGN_ACCOUNT', 'NGN', { accountNumber: required(digits(10)), bankName: required(text()) }),
  bankRow('ZAR_ACCOUNT', 'ZAR', { accountNumber: required(digits(9, 13)), bankName: required(text()) }),
  bankRow('PHP_ACCOUNT', 'PHP', { bankName: required(discoveredBankName('PHP')), accountNumber: required(digits(8, 16)) }),
  bankRow('HKD_ACCOUNT', 'HKD', { bankName: required(text()), accountNumber: required(DOMESTIC_ACCOUNT_NUMBER), swiftCode: required(bic(['HK'])) }),
  bankRow('IDR_ACCOUNT', 'IDR', {
    bankName: required(text()),
    accountNumber: required(DOMESTIC_ACCOUNT_NUMBER),
    swiftCode: required(bic(['ID'])),
    phoneNumber: required(phoneIn('ID')),
  }),
  bankRow('MYR_ACCOUNT', 'MYR', { bankName: required(text()), accountNumber: required(DOMESTIC_ACCOUNT_NUMBER), swiftCode: required(bic(['MY'])) }),
  // FAST and GIRO take account numbers; PAYNOW (the published API's third SGD rail) pays a phone or company id instead.
  bankRow('SGD_ACCOUNT', 'SGD', { accountNumber: required(DOMESTIC_ACCOUNT_NUMBER), swiftCode: required(bic(['SG'])), bankName: optional(text()) }, rails('FAST', 'BANK_TRANSFER')),
  // Thai account numbers are 10 digits (12 at the state savings and agricultural banks).
  bankRow('THB_ACCOUNT', 'THB', { bankName: required(text()), accountNumber: required(digits(10, 12)), swiftCode: required(bic(['TH'])) }),
  // Vietnamese banks issue 6- to 19-digit account numbers (some let customers choose them).
  bankRow('VND_ACCOUNT', 'VND', { bankName: required(text()), accountNumber: required(digits(6, 19)), swiftCode: required(bic(['VN'])) }),
];

function bankRow(accountType: AccountTypeRow['accountType'], currency: string, fields: AccountTypeRow['fields'], paymentRails: PaymentRails = rails('BANK_TRANSFER')): AccountTypeRow {
  return { accountType, currencies: [currency], fields, beneficiary: 'required', identifier: fieldIdentifier('accountNumber'), paymentRails };
}
