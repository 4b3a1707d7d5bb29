import { AccountTypeRow } from '../account-type-row';
import { AccountType } from '../account-types';
import { BANK_OR_MOBILE_ROWS } from './bank-or-mobile-rows';
import { BANK_ROWS_AFRICA_ASIA } from './bank-rows-africa-asia';
import { BANK_ROWS_AMERICAS } from './bank-rows-americas';
import { BANK_ROWS_EUROPE_MIDDLE_EAST } from './bank-rows-europe-middle-east';
import { CRYPTO_ROWS } from './crypto-rows';
import { MOBILE_MONEY_ROWS } from './mobile-money-rows';

/** The whole table: one row per accountType. */
export const ACCOUNT_TYPE_TABLE: readonly AccountTypeRow[] = [
  ...BANK_ROWS_AMERICAS,
  ...BANK_ROWS_EUROPE_MIDDLE_EAST,
  ...BANK_ROWS_AFRICA_ASIA,
  ...BANK_OR_MOBILE_ROWS,
  ...MOBILE_MONEY_ROWS,
  ...CRYPTO_ROWS,
];

const BY_TYPE = new Map(ACCOUNT_TYPE_TABLE.map((row) => [row.accountType, row]));

export const rowFor = (accountType: AccountType): AccountTypeRow | undefined => BY_TYPE.get(accountType);
