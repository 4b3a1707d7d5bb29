import { AccountTypeRow, fieldIdentifier, rails } from '../account-type-row';
import { abaRoutingNumberValid, cbuValid, clabeValid } from '../checksums/bank-check-digits';
import { optional, required } from '../field-rule';
import { BANK_ACCOUNT_TYPE, digits, holds, oneOf, text, withChecksum } from '../formats';
import { brazilTaxId, PIX_KEY_TYPES, pixKey } from '../pix-keys';
import { usdPaymentRails } from '../usd-payment-rails';
import { DOMESTIC_ACCOUNT_NUMBER } from './domestic-account-number';

const routingNumber = withChecksum(digits(9), holds(abaRoutingNumberValid, 'fails the ABA routing number check digit'));
const FI_TO_FI_LENGTH_MAX = 210; // Fedwire FI to FI information: 6 lines of 35 characters

/** Bank accounts in the Americas. */
export const BANK_ROWS_AMERICAS: readonly AccountTypeRow[] = [
  {
    accountType: 'USD_ACCOUNT',
    currencies: ['USD'],
    fields: {
      accountNumber: required(digits(4, 17)),
      routingNumber: required(routingNumber),
      // Optional in the published API: an account without bankAccountType is treated as CHECKING (nothing is stored).
      bankAccountType: optional(BANK_ACCOUNT_TYPE),
      bankName: optional(text()),
      // WIRE only; ignored on ACH, RTP and FedNow.
      intermediaryBankName: optional(text()),
      intermediaryRoutingNumber: optional(routingNumber),
      fiToFiInformation: optional(text(FI_TO_FI_LENGTH_MAX)),
    },
    beneficiary: 'required',
    identifier: fieldIdentifier('accountNumber'),
    paymentRails: (info) => usdPaymentRails(info),
  },
  {
    accountType: 'MXN_ACCOUNT',
    currencies: ['MXN'],
    fields: {
      clabeNumber: required(withChecksum(digits(18), holds(clabeValid, 'fails the CLABE check digit'))),
      bankName: optional(text()), // the published API has none: the CLABE names the bank
    },
    beneficiary: 'required',
    identifier: fieldIdentifier('clabeNumber'),
    paymentRails: rails('SPEI'),
  },
  {
    accountType: 'BRL_ACCOUNT',
    currencies: ['BRL'],
    // bankName: optional, as in the published API (a PIX key reaches its bank through the DICT directory).
    fields: { pixKey: required(pixKey), pixKeyType: required(oneOf(PIX_KEY_TYPES)), bankName: optional(text()), taxId: required(brazilTaxId) },
    beneficiary: 'required',
    identifier: fieldIdentifier('pixKey'),
    paymentRails: rails('PIX'),
  },
  {
    accountType: 'CAD_ACCOUNT',
    currencies: ['CAD'],
    fields: { bankCode: required(digits(3)), branchCode: required(digits(5)), accountNumber: required(digits(7, 12)) },
    beneficiary: 'required',
    identifier: fieldIdentifier('accountNumber'),
    paymentRails: rails('BANK_TRANSFER'),
  },
  {
    accountType: 'GTQ_ACCOUNT',
    currencies: ['GTQ'],
    fields: { accountNumber: required(DOMESTIC_ACCOUNT_NUMBER), bankAccountType: required(BANK_ACCOUNT_TYPE), bankName: required(text()) },
    beneficiary: 'required',
    beneficiaryExtras: { individual: ['phoneNumber', 'countryOfResidence'] },
    identifier: fieldIdentifier('accountNumber'),
    paymentRails: rails('BANK_TRANSFER'),
  },
  {
    accountType: 'JMD_ACCOUNT',
    currencies: ['JMD'],
    fields: {
      accountNumber: required(DOMESTIC_ACCOUNT_NUMBER),
      branchCode: required(digits(5)),
      bankAccountType: required(BANK_ACCOUNT_TYPE),
      bankName: required(text()),
    },
    beneficiary: 'required',
    beneficiaryExtras: { individual: ['phoneNumber', 'address'], business: ['address'] },
    identifier: fieldIdentifier('accountNumber'),
    paymentRails: rails('BANK_TRANSFER'),
  },
  {
    accountType: 'ARS_ACCOUNT',
    currencies: ['ARS'],
    fields: { cbu: required(withChecksum(digits(22), holds(cbuValid, 'fails a CBU/CVU check digit'))), bankName: optional(text()) },
    beneficiary: 'required',
    identifier: fieldIdentifier('cbu'),
    paymentRails: rails('BANK_TRANSFER'),
  },
];
