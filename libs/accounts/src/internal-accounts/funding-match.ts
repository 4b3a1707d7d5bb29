/**
 * Reading an incoming credit for the account it is meant for (pure: funding-references.ts runs the lookups). A
 * production reference code is `PP` and 10 hexadecimal digits; senders type it into a free-text field, so it is
 * found anywhere in the text, whatever the case, with spaces or dashes inside it ("pp 3f2a-9c…").
 */
const REFERENCE = /PP[0-9A-F]{10}/g;

export function fundingReferencesIn(text: string): string[] {
  const compact = text.toUpperCase().replace(/[\s-]+/g, '');
  return [...new Set(compact.match(REFERENCE) ?? [])];
}

/** The next number of a virtual account range after `last` (the highest allocated, or null), or null when it is used up. */
export function nextVirtualAccountNumber(range: { from: string; to: string }, last: string | null): string | null {
  const next = last === null ? BigInt(range.from) : BigInt(last) + 1n;
  if (next < BigInt(range.from)) return range.from;
  if (next > BigInt(range.to)) return null;
  return next.toString().padStart(range.from.length, '0');
}
