import { AccountType } from '../../account-types';

/**
 * Shared shapes of the account-type test data (account-type-table.spec.ts, beneficiary.spec.ts): per accountType, accounts that must pass and, per rule, a change to the
 * first (or `base`-th) of them that must fail on exactly one field. A patch value of undefined deletes the field.
 */
export interface InvalidCase {
  name: string;
  patch: Record<string, unknown>;
  /** The one field the error must name. */
  field: string;
  base?: number;
  currency?: string;
}

export interface RowCases {
  accountType: AccountType;
  currency: string;
  valid: Record<string, unknown>[];
  invalid: InvalidCase[];
}

/** A beneficiary that meets every currency's and every row's minimum. */
export const FULL_INDIVIDUAL = {
  beneficiaryType: 'INDIVIDUAL',
  fullName: 'Ada Lovelace',
  birthDate: '1990-01-15',
  nationality: 'GB',
  address: { line1: '1 Main Street', city: 'Springfield', postalCode: '12345', country: 'US' },
  documentType: 'PP',
  documentNumber: 'X1234567',
  phoneNumber: '+14155550123',
  countryOfResidence: 'US',
};

/** A refusal for a check digit or checksum alone (by its name): the sandbox accepts it, production refuses it. */
export const isChecksumCase = (c: InvalidCase): boolean => /check digit|MOD 97-10|EIP-55|checksum broken|\(checksum\)/.test(c.name);

export const missing = (...fields: string[]): InvalidCase[] => fields.map((field) => ({ name: `missing ${field}`, patch: { [field]: undefined }, field: `accountInfo.${field}` }));
export const missingIn = (base: number, ...fields: string[]): InvalidCase[] => missing(...fields).map((c) => ({ ...c, base, name: `${c.name} (variant ${base})` }));
export const bad = (field: string, value: unknown, name: string, base?: number): InvalidCase => ({ name, patch: { [field]: value }, field: `accountInfo.${field}`, base });
export const exactlyOne = (name: string, patch: Record<string, unknown>, base = 0): InvalidCase => ({ name, patch, field: 'accountInfo', base });

export const fiat = (accountType: AccountType, fields: Record<string, unknown>) => ({ accountType, ...fields, beneficiary: FULL_INDIVIDUAL });
export const wallet = (accountType: AccountType, fields: Record<string, unknown>) => ({ accountType, ...fields });

export const applyPatch = (info: Record<string, unknown>, patch: Record<string, unknown>): Record<string, unknown> => {
  const next: Record<string, unknown> = { ...info, ...patch };
  for (const [key, value] of Object.entries(patch)) if (value === undefined) delete next[key];
  return next;
};
