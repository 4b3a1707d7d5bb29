import { BANK_CASES } from './test-bank-cases';
import { RowCases } from './test-case-helpers';
import { CRYPTO_CASES } from './test-crypto-cases';
import { MOBILE_MONEY_CASES } from './test-mobile-money-cases';

export { applyPatch, FULL_INDIVIDUAL, isChecksumCase } from './test-case-helpers';
export type { InvalidCase, RowCases } from './test-case-helpers';

/** Test data for every row of the account-type table: accounts that pass, and per rule a change that fails. */
export const ROW_CASES: RowCases[] = [...BANK_CASES, ...MOBILE_MONEY_CASES, ...CRYPTO_CASES];
