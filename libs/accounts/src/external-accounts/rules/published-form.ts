import { chooseVariant } from './account-info-errors';
import { isAccountType } from './account-types';
import { BUSINESS_INFO_FIELDS } from './beneficiary';
import { AccountInfo } from './field-rule';
import { isObject } from './object-fields';
import { PUBLISHED_INPUT_FIELDS, railsOf } from './published-input';
import { rowFor } from './table/account-type-table';

/**
 * The two directions between the published API's shapes and the one form an account is stored in (the seed's):
 * `normalizeAccountInfo` on the way in (after validation), `publicAccountInfo` on the way out. Pure.
 */

/** Write-only beneficiary fields: kept for the rails, never echoed (identity document numbers). */
const WRITE_ONLY_BENEFICIARY_FIELDS = ['documentNumber'];

const pick = (object: Record<string, unknown>, keys: readonly string[]) => Object.fromEntries(keys.filter((k) => object[k] !== undefined).map((k) => [k, object[k]]));
const omit = (object: Record<string, unknown>, keys: readonly string[]) => Object.fromEntries(Object.entries(object).filter(([k]) => !keys.includes(k)));

/**
 * The stored form of a valid accountInfo: without the published input-only fields (`paymentRails`, `countries`, and
 * `platformAccountId`, returned apart for the account itself), and a flat business beneficiary moved into businessInfo.
 */
export function normalizeAccountInfo(info: AccountInfo): { accountInfo: Record<string, unknown>; platformAccountId?: string } {
  const accountInfo = omit(info, PUBLISHED_INPUT_FIELDS);
  const beneficiary = accountInfo.beneficiary;
  if (isObject(beneficiary) && beneficiary.beneficiaryType === 'BUSINESS' && beneficiary.businessInfo === undefined) {
    accountInfo.beneficiary = { ...omit(beneficiary, BUSINESS_INFO_FIELDS), businessInfo: pick(beneficiary, BUSINESS_INFO_FIELDS) };
  }
  return { accountInfo, ...(typeof info.platformAccountId === 'string' ? { platformAccountId: info.platformAccountId } : {}) };
}

/**
 * What an answer carries: the stored accountInfo without write-only fields, plus what the published API requires:
 * `paymentRails` (the rails the account is paid on), a row's `answerFields` (XOF region), and a business's flat
 * names beside businessInfo.
 * Idempotent, so it also brings answers stored before these fields existed up to date.
 */
export function publicAccountInfo(stored: AccountInfo): Record<string, unknown> {
  const row = isAccountType(stored.accountType) ? rowFor(stored.accountType) : undefined;
  const derived = row?.answerFields?.(stored) ?? {};
  const info: Record<string, unknown> = { ...pick(derived, Object.keys(derived)), ...stored };
  if (isObject(info.beneficiary)) {
    const beneficiary = omit(info.beneficiary, WRITE_ONLY_BENEFICIARY_FIELDS);
    info.beneficiary = isObject(beneficiary.businessInfo) ? { ...beneficiary, ...pick(beneficiary.businessInfo, BUSINESS_INFO_FIELDS) } : beneficiary;
  }
  const paymentRails = paymentRailsOf(stored);
  if (paymentRails) info.paymentRails = paymentRails;
  return info;
}

/**
 * The rails an account described by `info` is paid on, from the account-type table (as external accounts answer
 * them); undefined for crypto wallets and unknown types. Funding payment instructions answer the same.
 */
export function paymentRailsOf(info: AccountInfo): string[] | undefined {
  const row = isAccountType(info.accountType) ? rowFor(info.accountType) : undefined;
  const rails = row && railsOf(row, info, chooseVariant(row, info).variant);
  return rails ? [...rails] : undefined;
}
