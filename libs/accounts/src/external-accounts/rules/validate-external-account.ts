import type { FieldError } from '@payments/contracts';
import { chooseVariant, foreignFieldErrors, ruleErrors } from './account-info-errors';
import { ACCOUNT_TYPES, isAccountType } from './account-types';
import { beneficiaryErrors } from './beneficiary';
import { Checksums } from './field-rule';
import { isObject } from './object-fields';
import { publishedInputErrors } from './published-input';
import { rowFor } from './table/account-type-table';

export type ExternalAccountOwnerType = 'INDIVIDUAL' | 'BUSINESS' | 'PLATFORM';

export interface ExternalAccountInput {
  currency: unknown;
  accountInfo: unknown;
  ownerType: ExternalAccountOwnerType;
  /** Whether the sender (originator) is a business; by default it is unless the owner is an individual. */
  senderIsBusiness?: boolean;
  /** Today as YYYY-MM-DD, from the caller's clock: a beneficiary birthDate must be before it. Without it that check is skipped. */
  today?: string;
  /** ENFORCED unless given: the service passes `checksumsIn(caller.mode)` (the sandbox relaxes check digits). */
  checksums?: Checksums;
}

/**
 * Every rule of the account-type table for one create request: the type and currency, the type's fields (formats,
 * checksums, exactly-one-of variants, unknown fields), the published API's extra input fields and the beneficiary.
 * Returns `details.errors[]` of a 400 INVALID_INPUT, empty when the account is valid. Pure: no I/O, no clock.
 */
export function validateExternalAccount(input: ExternalAccountInput): FieldError[] {
  const { accountInfo, currency } = input;
  if (!isObject(accountInfo)) return [{ field: 'accountInfo', message: 'accountInfo must be an object' }];
  const accountType = accountInfo.accountType;
  if (!isAccountType(accountType)) {
    return [{ field: 'accountInfo.accountType', message: `accountType must be one of ${ACCOUNT_TYPES.join(', ')}`, constraint: { enum: [...ACCOUNT_TYPES] } }];
  }
  const row = rowFor(accountType);
  if (!row) return [{ field: 'accountInfo.accountType', message: `accountType ${accountType} has no rules` }];
  const errors: FieldError[] = [];
  if (typeof currency !== 'string' || !row.currencies.includes(currency)) {
    errors.push({ field: 'currency', message: `currency must be ${row.currencies.join(' or ')} for ${accountType}`, constraint: { enum: [...row.currencies] } });
  }
  const checksums = input.checksums ?? 'ENFORCED';
  const { variant, alongside, errors: variantErrors } = chooseVariant(row, accountInfo);
  errors.push(...variantErrors, ...foreignFieldErrors(row, accountInfo, variant, alongside), ...ruleErrors(row.fields, accountInfo, checksums));
  if (variant) errors.push(...ruleErrors(variant.fields, accountInfo, checksums));
  for (const other of alongside) errors.push(...ruleErrors(other.alongside ?? other.fields, accountInfo, checksums));
  errors.push(...publishedInputErrors(row, accountInfo, variant));
  const senderIsBusiness = input.senderIsBusiness ?? input.ownerType !== 'INDIVIDUAL';
  const beneficiaryCurrency = typeof currency === 'string' && row.currencies.includes(currency) ? currency : row.currencies[0];
  errors.push(...beneficiaryErrors(accountInfo.beneficiary, { row, variant, currency: beneficiaryCurrency, senderIsBusiness, today: input.today }));
  return errors;
}
