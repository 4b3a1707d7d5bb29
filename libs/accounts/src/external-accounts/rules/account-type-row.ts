import { AccountType } from './account-types';
import { AccountInfo, FieldRules, stringField } from './field-rule';

/** Beneficiary fields a row (or a variant) requires on top of the per-currency minimum, as dot paths. */
export interface BeneficiaryExtras {
  individual?: readonly string[];
  business?: readonly string[];
}

/** The rails an account is paid on: the `paymentRails` of its answers, values of the published PaymentRail enum. */
export type PaymentRails = (info: AccountInfo) => readonly string[];
export const rails =
  (...names: string[]): PaymentRails =>
  () =>
    names;

/** One shape of a type that has several (bank or mobile money, UPI or NEFT/RTGS, invoice or offer…). */
export interface Variant {
  name: string;
  /** The field whose presence selects this variant; exactly one variant's key may be present. */
  key: string;
  fields: FieldRules;
  beneficiary?: BeneficiaryExtras;
  /** Overrides the row's rails. */
  paymentRails?: PaymentRails;
  /**
   * The variant an account is paid through when it names several (the published examples give a bank account a
   * mobile-money number or a UPI address too): the others are then kept as further identifiers, checked by `alongside`.
   */
  primary?: boolean;
  /** The rules of this variant's fields when it comes with the primary one (default: its own `fields`). */
  alongside?: FieldRules;
}

/** One row of the account-type table. */
export interface AccountTypeRow {
  accountType: AccountType;
  /** Currencies an account of this type may carry. */
  currencies: readonly string[];
  /** Fields every variant shares (all of them when there are no variants). */
  fields: FieldRules;
  variants?: readonly Variant[];
  /** Fiat accounts carry a beneficiary; crypto wallets take none. */
  beneficiary: 'required' | 'none';
  beneficiaryExtras?: BeneficiaryExtras;
  /** The primary identifier: its last three digits drive the sandbox suffixes. */
  identifier: (info: AccountInfo) => string;
  /** Fiat accounts only (crypto wallets answer none). */
  paymentRails?: PaymentRails;
  /** Fields the published answer requires that the account's own fields already determine (when not sent). */
  answerFields?: (info: AccountInfo) => Readonly<Record<string, string | undefined>>;
}

/** The identifier is one field. */
export const fieldIdentifier = (field: string) => (info: AccountInfo) => stringField(info, field);

/** The identifier is the first of several fields that is set (one per variant). */
export const firstOfIdentifier =
  (...fields: string[]) =>
  (info: AccountInfo) =>
    fields.map((f) => stringField(info, f)).find((v) => v !== '') ?? '';
