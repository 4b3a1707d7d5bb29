/** A parsed UMA address `$user@domain`, normalised to lower case (UMA addresses are case-insensitive). */
export interface UmaAddress {
  /** `$user@domain`, lower case. */
  address: string;
  /** The user part without the `$`. */
  user: string;
  domain: string;
}

const USER = /^[a-z0-9._-]{1,64}$/;
/** A DNS host name of two or more labels with an alphabetic top-level label (no IP literals, no `localhost`). */
const DOMAIN = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;
/** Longest address accepted: `$` + 64 + `@` + 253. */
export const UMA_ADDRESS_LENGTH_MAX = 1 + 64 + 1 + 253;

/**
 * Parses `$user@domain`: user of a-z 0-9 `.` `_` `-` (1 to 64), domain a valid host name. Upper case is accepted and
 * folded, since UMA addresses compare case-insensitively. Returns undefined for anything else.
 */
export function parseUmaAddress(value: string): UmaAddress | undefined {
  if (typeof value !== 'string' || value.length > UMA_ADDRESS_LENGTH_MAX || !value.startsWith('$')) return undefined;
  const at = value.indexOf('@');
  if (at < 0 || value.indexOf('@', at + 1) >= 0) return undefined;
  const user = value.slice(1, at).toLowerCase();
  const domain = value.slice(at + 1).toLowerCase();
  if (!USER.test(user) || !DOMAIN.test(domain)) return undefined;
  return { address: `$${user}@${domain}`, user, domain };
}

export const isUmaAddress = (value: string): boolean => parseUmaAddress(value) !== undefined;
