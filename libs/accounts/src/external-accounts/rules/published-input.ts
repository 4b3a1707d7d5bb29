import type { FieldError } from '@payments/contracts';
import { AccountTypeRow, Variant } from './account-type-row';
import { AccountType } from './account-types';
import { AccountInfo } from './field-rule';
import { text } from './formats';
import { valueError } from './object-fields';

const AT = 'accountInfo';

/**
 * Fields the published API's clients put in `accountInfo` besides the type's own: `paymentRails` and `countries`
 * (its client library types them on input too) and `platformAccountId` (where its request examples put it). They are
 * checked here; none is stored (the service hoists platformAccountId to the account, see `normalizeAccountInfo`).
 */
export const PUBLISHED_INPUT_FIELDS: readonly string[] = ['paymentRails', 'countries', 'platformAccountId'];

const EUROZONE = ['AT', 'BE', 'CY', 'DE', 'EE', 'ES', 'FI', 'FR', 'GR', 'HR', 'IE', 'IT', 'LT', 'LU', 'LV', 'MT', 'NL', 'PT', 'SI', 'SK'];

/** `countries` of the types whose `countries` the published client library types (its enums). */
const COUNTRIES: Partial<Record<AccountType, readonly string[]>> = {
  USD_ACCOUNT: ['US'], MXN_ACCOUNT: ['MX'], BRL_ACCOUNT: ['BR'], CAD_ACCOUNT: ['CA'], EUR_ACCOUNT: EUROZONE, DKK_ACCOUNT: ['DK'],
  GBP_ACCOUNT: ['GB'], NGN_ACCOUNT: ['NG'], HKD_ACCOUNT: ['HK'], IDR_ACCOUNT: ['ID'], INR_ACCOUNT: ['IN'], MYR_ACCOUNT: ['MY'],
  PHP_ACCOUNT: ['PH'], SGD_ACCOUNT: ['SG'], THB_ACCOUNT: ['TH'], VND_ACCOUNT: ['VN'],
};

/** The rails an account of `row` (with `variant` chosen) is paid on; undefined for crypto wallets. */
export const railsOf = (row: AccountTypeRow, info: AccountInfo, variant?: Variant): readonly string[] | undefined =>
  (variant?.paymentRails ?? row.paymentRails)?.(info);

/**
 * `paymentRails` may only name rails the account is paid on (it is honoured as a check, not as a restriction: the
 * answer lists every rail of the account); `countries` only the type's countries; `platformAccountId` is text.
 */
export function publishedInputErrors(row: AccountTypeRow, info: AccountInfo, variant?: Variant): FieldError[] {
  const undecided = row.variants !== undefined && variant === undefined; // the variant error already says why
  const errors = [
    undecided ? undefined : listError(row, 'paymentRails', info.paymentRails, railsOf(row, info, variant)),
    listError(row, 'countries', info.countries, COUNTRIES[row.accountType]),
    valueError(info, 'platformAccountId', text(255), false, AT),
  ];
  return errors.filter((error): error is FieldError => error !== undefined);
}

/** A list of strings drawn from `allowed`; not a field of the type at all when there is nothing to draw from. */
function listError(row: AccountTypeRow, field: string, value: unknown, allowed: readonly string[] | undefined): FieldError | undefined {
  if (value === undefined) return undefined;
  const at = `${AT}.${field}`;
  if (!allowed) return { field: at, message: `${field} is not a field of ${row.accountType}` };
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) return { field: at, message: `${field} must be an array of strings` };
  const foreign = value.filter((v) => !allowed.includes(v));
  return foreign.length === 0 ? undefined : { field: at, message: `${field} can only name ${allowed.join(', ')}; not ${foreign.join(', ')}`, constraint: { enum: [...allowed] } };
}
