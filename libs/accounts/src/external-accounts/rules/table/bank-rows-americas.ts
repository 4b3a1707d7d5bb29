import { AccountTypeRow, fieldIdentifier } from '../account-type-row';
import { abaRoutingNumberValid, cbuValid, clabeValid } from '../checksums/bank-check-digits';
import { optional, required } from '../field-rule';
import { and, BANK_ACCOUNT_TYPE, digits, holds, oneOf, text } from '../formats';
import { brazilTaxId, PIX_KEY_TYPES, pixKey } from '../pix-keys';
import { DOMESTIC_ACCOUNT_NUMBER } from './domestic-account-number';

const routingNumber = and(digits(9), holds(abaRoutingNumberValid, 'fails the ABA routing number check digit'));
const FI_TO_FI_LENGTH_MAX = 210; // Fedwire FI to FI information: 6 lines of 35 characters

/** Bank accounts in the Americas. */
export const BANK_ROWS_AMERICAS: readonly AccountTypeRow[] = [
  {
    accountType: 'USD_ACCOUNT',
    currencies: ['USD'],
    fields: {
      accountNumber: required(digits(4, 17)),
      routingNumber: required(routingNumber),
      bankAccountType: required(BANK_ACCOUNT_TYPE),
      bankName: required(text()),
      // WIRE only; ignored on ACH, RTP and FedNow.
      intermediaryBankName: optional(text()),
      intermediaryRoutingNumber: optional(routingNumber),
      fiToFiInformation: optional(text(FI_TO_FI_LENGTH_MAX)),
    },
    beneficiary: 'required',
    identifier: fieldIdentifier('accountNumber'),
  },
  {
    accountType: 'MXN_ACCOUNT',
    currencies: ['MXN'],
    fields: {
      clabeNumber: required(and(digits(18), holds(clabeValid, 'fails the CLABE check digit'))),
      bankName: required(text()),
    },
    beneficiary: 'required',
    identifier: fieldIdentifier('clabeNumber'),
  },
  {
    accountType: 'BRL_ACCOUNT',
    currencies: ['BRL'],
    fields: { pixKey: required(pixKey), pixKeyType: required(oneOf(PIX_KEY_TYPES)), bankName: required(text()), taxId: required(brazilTaxId) },
    beneficiary: 'required',
    identifier: fieldIdentifier('pixKey'),
  },
  {
    accountType: 'CAD_ACCOUNT',
    currencies: ['CAD'],
    fields: { bankCode: required(digits(3)), branchCode: required(digits(5)), accountNumber: required(digits(7, 12)) },
    beneficiary: 'required',
    identifier: fieldIdentifier('accountNumber'),
  },
  {
    accountType: 'GTQ_ACCOUNT',
    currencies: ['GTQ'],
    fields: { accountNumber: required(DOMESTIC_ACCOUNT_NUMBER), bankAccountType: required(BANK_ACCOUNT_TYPE), bankName: required(text()) },
    beneficiary: 'required',
    beneficiaryExtras: { individual: ['phoneNumber', 'countryOfResidence'] },
    identifier: fieldIdentifier('accountNumber'),
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
  },
  {
    accountType: 'ARS_ACCOUNT',
    currencies: ['ARS'],
    fields: { cbu: required(and(digits(22), holds(cbuValid, 'fails a CBU/CVU check digit'))), bankName: optional(text()) },
    beneficiary: 'required',
    identifier: fieldIdentifier('cbu'),
  },
];
