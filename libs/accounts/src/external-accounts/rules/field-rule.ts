/** The vocabulary of the account-type table: what a row says about each field of `accountInfo`. */

/** `accountInfo` as it arrives: a JSON object whose fields the table checks one by one. */
export type AccountInfo = Readonly<Record<string, unknown>>;

/** Why a present string value breaks a rule, or undefined when it holds. `info` is there for cross-field rules. */
export type Check = (value: string, info: AccountInfo) => string | undefined;

/** A value format: its check and what a client may show about it (`FieldError.constraint`). */
export interface Format {
  check: Check;
  /** The value's check digits or checksum, run once `check` holds: the one part `Checksums` can relax. */
  checksum?: Check;
  constraint?: Readonly<Record<string, unknown>>;
}

/**
 * Whether check digits and checksums (ABA, CLABE, CBU, IBAN, CPF/CNPJ, base58check, bech32, EIP-55) are enforced.
 * Production enforces them; the sandbox checks formats only, so the documentation's example identifiers work there.
 */
export type Checksums = 'ENFORCED' | 'RELAXED';
export const checksumsIn = (mode: 'SANDBOX' | 'PRODUCTION'): Checksums => (mode === 'PRODUCTION' ? 'ENFORCED' : 'RELAXED');

export interface FieldRule extends Format {
  required: boolean;
}

export type FieldRules = Readonly<Record<string, FieldRule>>;

export const required = (format: Format): FieldRule => ({ ...format, required: true });
export const optional = (format: Format): FieldRule => ({ ...format, required: false });

/** The field's value when it is a string, else '' (for identifiers and cross-field rules). */
export const stringField = (info: AccountInfo, field: string): string => {
  const value = info[field];
  return typeof value === 'string' ? value : '';
};
