/** A discovered institution (seed: Discoveries): `bankName` is the value to pass as bankName when creating an account. */
export interface Institution {
  bankName: string;
  displayName: string;
  /** ISO 3166-1 alpha-2 */
  country: string;
  /** ISO 4217 */
  currency: string;
}

/** Rows of one country and currency as [bankName, displayName] pairs. */
export const institutionsOf = (country: string, currency: string, rows: readonly (readonly [string, string])[]): Institution[] =>
  rows.map(([bankName, displayName]) => ({ bankName, displayName, country, currency }));
