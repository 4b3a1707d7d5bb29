import type { FieldError } from '@payments/contracts';
import { AccountTypeRow, Variant } from './account-type-row';
import { AccountInfo, Checksums, FieldRules } from './field-rule';
import { valueError } from './object-fields';
import { PUBLISHED_INPUT_FIELDS } from './published-input';

const AT = 'accountInfo';
/** Fields every accountInfo may carry besides its row's own (the published ones are checked in published-input.ts). */
const ENVELOPE_FIELDS = ['accountType', 'beneficiary', ...PUBLISHED_INPUT_FIELDS];

export interface VariantChoice {
  variant?: Variant;
  /** Variants named beside the primary one: kept as further identifiers. */
  alongside: Variant[];
  errors: FieldError[];
}

/**
 * One variant's key field must be present, or several with one of them primary (the account is paid through that
 * one); rows without variants have nothing to choose.
 */
export function chooseVariant(row: AccountTypeRow, info: AccountInfo): VariantChoice {
  if (!row.variants) return { alongside: [], errors: [] };
  const keys = row.variants.map((v) => v.key);
  const present = row.variants.filter((v) => info[v.key] !== undefined);
  if (present.length === 1) return { variant: present[0], alongside: [], errors: [] };
  const primary = present.find((v) => v.primary);
  if (primary) return { variant: primary, alongside: present.filter((v) => v !== primary), errors: [] };
  const names = row.variants.map((v) => `${v.key} (${v.name})`).join(', ');
  const message =
    present.length === 0
      ? `${row.accountType} needs exactly one of ${names}`
      : `${row.accountType} takes only one of ${names}; got ${present.map((v) => v.key).join(' and ')}`;
  return { alongside: [], errors: [{ field: AT, message, constraint: { oneOf: keys } }] };
}

/** Fields the row does not know, and fields of a variant other than the chosen one. */
export function foreignFieldErrors(row: AccountTypeRow, info: AccountInfo, chosen?: Variant, alongside: readonly Variant[] = []): FieldError[] {
  const variantOf = new Map<string, Variant>();
  for (const variant of row.variants ?? []) for (const field of Object.keys(variant.fields)) if (!(field in row.fields)) variantOf.set(field, variant);
  const errors: FieldError[] = [];
  for (const field of Object.keys(info)) {
    if (ENVELOPE_FIELDS.includes(field) || field in row.fields) continue;
    const owner = variantOf.get(field);
    if (!owner) errors.push({ field: `${AT}.${field}`, message: `${field} is not a field of ${row.accountType}` });
    else if (chosen && owner !== chosen && !(field in chosen.fields) && !alongside.includes(owner)) {
      errors.push({ field: `${AT}.${field}`, message: `${field} belongs to the ${owner.name} variant and is not accepted with ${chosen.key}` });
    }
  }
  return errors;
}

/** Each rule of `rules`: required fields present, values strings in their format, with their checksums when enforced. */
export function ruleErrors(rules: FieldRules, info: AccountInfo, checksums: Checksums): FieldError[] {
  return Object.entries(rules)
    .map(([field, rule]) => valueError(info, field, rule, rule.required, AT, checksums))
    .filter((error): error is FieldError => error !== undefined);
}
