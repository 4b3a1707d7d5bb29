import { createHash, randomBytes } from 'node:crypto';

type Scope = { platformId: string; mode: string };

/** Bytes 8-15 of the id: SHA-256 over its random half and what it was issued for, as a UUID variant-1 half. */
function binding(random: Buffer, scope: Scope, externalAccountId: string): Buffer {
  const digest = createHash('sha256').update(random).update(`\0${scope.platformId}\0${scope.mode}\0${externalAccountId}`).digest().subarray(0, 8);
  digest[0] = (digest[0] & 0x3f) | 0x80;
  return digest;
}

/**
 * The lookupId of GET /receiver/external-account/{id}: `Lookup:` and a UUID (version 8) whose first half is random and
 * whose second half binds it to the platform, mode and account. A quote checks it without a store, and one issued for
 * another account, platform or mode (or a UMA lookup's) does not pass. It grants nothing: a client could compute one
 * for its own account, which the lookup would have given it anyway.
 */
export function externalAccountLookupId(scope: Scope, externalAccountId: string, random: Buffer = randomBytes(8)): string {
  const first = Buffer.from(random.subarray(0, 8));
  first[6] = (first[6] & 0x0f) | 0x80;
  const hex = Buffer.concat([first, binding(first, scope, externalAccountId)]).toString('hex');
  return `Lookup:${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export function isExternalAccountLookupId(lookupId: string, scope: Scope, externalAccountId: string): boolean {
  const match = /^Lookup:([0-9a-f]{8})-([0-9a-f]{4})-(8[0-9a-f]{3})-([89ab][0-9a-f]{3})-([0-9a-f]{12})$/.exec(lookupId);
  if (!match) return false;
  const bytes = Buffer.from(match.slice(1).join(''), 'hex');
  return bytes.subarray(8).equals(binding(bytes.subarray(0, 8), scope, externalAccountId));
}
