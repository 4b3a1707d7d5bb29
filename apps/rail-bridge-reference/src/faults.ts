/**
 * Failures the control API scripts (README.md), so a connector's conformance tests can play every way a bank
 * bridge misbehaves on the wire. Read strictly: a typo in a test's fault must fail the test, not be ignored.
 */
export interface Faults {
  /** The next `count` submits answer `status`; with `afterAccept` (500 only) the order is taken first, as when a bridge commits and then fails to answer. */
  failSubmits?: { status: 500 | 429; count: number; afterAccept: boolean };
  /** The next `count` submits get no answer for `ms` (longer than the client's timeout); the order is taken first unless `afterAccept` is false. */
  hangSubmits?: { count: number; ms: number; afterAccept: boolean };
  /** An accepted payment settles at once, and its callback is delivered before the submit is answered (with the older PENDING). */
  callbackBeforeAnswer?: boolean;
  /** Every callback is delivered twice. */
  duplicateCallbacks?: boolean;
  /** Every callback is followed by the payment's first status again (RETURNED…, then the older PENDING). */
  staleCallbacks?: boolean;
  /** Payments whose counterparty accountNumber ends in `suffix` are rejected: at submit (422) or at settlement (a REJECTED callback). */
  rejectAccountSuffix?: { suffix: string; reasonCode: string; reasonMessage: string; at: 'submit' | 'settlement' };
}

export class FaultsError extends Error {}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const count = (v: unknown, field: string): number => {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) throw new FaultsError(`${field} must be a non-negative integer`);
  return v;
};
const flag = (v: unknown, field: string, fallback: boolean): boolean => {
  if (v === undefined) return fallback;
  if (typeof v !== 'boolean') throw new FaultsError(`${field} must be true or false`);
  return v;
};

/** `patch` read and laid over `current` (fields left out are kept; null clears one). */
export function patchFaults(current: Faults, patch: unknown): Faults {
  if (!isObject(patch)) throw new FaultsError('faults must be a JSON object');
  const known = ['failSubmits', 'hangSubmits', 'callbackBeforeAnswer', 'duplicateCallbacks', 'staleCallbacks', 'rejectAccountSuffix'];
  const unknown = Object.keys(patch).filter((k) => !known.includes(k));
  if (unknown.length > 0) throw new FaultsError(`unknown fault ${unknown.join(', ')} (known: ${known.join(', ')})`);
  const next: Faults = { ...current };
  for (const key of Object.keys(patch) as (keyof Faults)[]) if (patch[key] === null) delete next[key];
  const p = patch as Record<string, unknown>;
  if (isObject(p.failSubmits)) {
    const status = p.failSubmits.status;
    if (status !== 500 && status !== 429) throw new FaultsError('failSubmits.status must be 500 or 429');
    const afterAccept = flag(p.failSubmits.afterAccept, 'failSubmits.afterAccept', false);
    if (afterAccept && status === 429) throw new FaultsError('failSubmits.afterAccept is for 500 only (a 429 takes nothing)');
    next.failSubmits = { status, count: count(p.failSubmits.count, 'failSubmits.count'), afterAccept };
  } else if (p.failSubmits !== undefined && p.failSubmits !== null) throw new FaultsError('failSubmits must be { status, count, afterAccept? }');
  if (isObject(p.hangSubmits)) {
    next.hangSubmits = { count: count(p.hangSubmits.count, 'hangSubmits.count'), ms: count(p.hangSubmits.ms ?? 30_000, 'hangSubmits.ms'), afterAccept: flag(p.hangSubmits.afterAccept, 'hangSubmits.afterAccept', true) };
  } else if (p.hangSubmits !== undefined && p.hangSubmits !== null) throw new FaultsError('hangSubmits must be { count, ms?, afterAccept? }');
  for (const key of ['callbackBeforeAnswer', 'duplicateCallbacks', 'staleCallbacks'] as const) {
    if (p[key] !== undefined && p[key] !== null) next[key] = flag(p[key], key, false);
  }
  if (isObject(p.rejectAccountSuffix)) {
    const { suffix, reasonCode, reasonMessage, at } = p.rejectAccountSuffix;
    if (typeof suffix !== 'string' || suffix === '') throw new FaultsError('rejectAccountSuffix.suffix must be a non-empty string');
    if (typeof reasonCode !== 'string' || !/^[A-Za-z0-9_.-]{1,64}$/.test(reasonCode)) throw new FaultsError('rejectAccountSuffix.reasonCode must be a code (letters, digits, _ . -)');
    if (reasonMessage !== undefined && typeof reasonMessage !== 'string') throw new FaultsError('rejectAccountSuffix.reasonMessage must be a string');
    if (at !== undefined && at !== 'submit' && at !== 'settlement') throw new FaultsError('rejectAccountSuffix.at must be submit or settlement');
    next.rejectAccountSuffix = { suffix, reasonCode, reasonMessage: reasonMessage || `account rejected (${reasonCode})`, at: at ?? 'submit' };
  } else if (p.rejectAccountSuffix !== undefined && p.rejectAccountSuffix !== null) throw new FaultsError('rejectAccountSuffix must be { suffix, reasonCode, reasonMessage?, at? }');
  return next;
}
