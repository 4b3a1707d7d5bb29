import { createHash } from 'node:crypto';
import { IdentityDigest, IdentityPart, ReviewedIdentity } from './material-identity';

/**
 * JSON with object keys in code-point order at every depth and undefined members left out, so equal data has one
 * text however it was assembled (a PATCH merging fields, a fold, a read model). Arrays keep their order: where order
 * carries no meaning (owners, documents) the caller sorts them.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') {
    if (typeof value === 'number' && !Number.isFinite(value)) throw new TypeError('canonicalJson: not a finite number');
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) return `[${value.map((item) => (item === undefined ? 'null' : canonicalJson(item))).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
const byId = <T extends { id: string }>(items: readonly T[]) => [...items].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));

/** Pure: the same identity always gives the same digest, any material difference another. */
export function identityDigest(identity: ReviewedIdentity): IdentityDigest {
  const parts: Record<IdentityPart, string> = {
    customer: sha256(canonicalJson(identity.customer)),
    beneficialOwners: sha256(canonicalJson(byId(identity.beneficialOwners))),
    documents: sha256(canonicalJson(byId(identity.documents))),
  };
  return { digest: sha256(canonicalJson(parts)), parts };
}
