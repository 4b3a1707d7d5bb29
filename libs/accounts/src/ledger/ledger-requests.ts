import {
  CaptureHoldRequest,
  CreditRequest,
  HOLD_EXPIRY_MAX_MS,
  LedgerReferenceBody,
  LEDGER_SYSTEM_PURPOSES,
  LedgerSystemPurpose,
  PlaceHoldRequest,
  ReleaseHoldRequest,
  ReverseEntryRequest,
  TransferLeg,
  TransferRequest,
} from '@payments/contracts';
import { DomainError } from '@payments/eventsourcing';

/** Caller references (hold, entry ids): printable ASCII without spaces, bounded. */
const REFERENCE = /^[\x21-\x7e]{1,128}$/;
const CURRENCY = /^[A-Z]{3,5}$/;
const KIND = /^[A-Z][A-Z0-9_]{0,39}$/;
const TRANSFER_LEGS_MAX = 10;

/**
 * Reads one RPC body field by field: the ledger RPC has no HTTP validation pipe in front of it, so every field is
 * checked here and all problems answer one 400 INVALID_INPUT with `details.errors[] = {field, message}`.
 */
class BodyReader {
  private readonly errors: { field: string; message: string }[] = [];
  private readonly body: Record<string, unknown>;

  constructor(body: unknown, private readonly prefix = '') {
    this.body = body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
    if (this.body !== body) this.fail('', 'must be an object');
  }

  reference(field: string, optional?: 'optional'): string {
    return this.check(field, optional, (v) => typeof v === 'string' && REFERENCE.test(v), 'must be 1-128 printable characters without spaces') as string;
  }

  amount(field: string, sign: 'positive' | 'non-zero' = 'positive'): number {
    const valid = (v: unknown) => Number.isSafeInteger(v) && (sign === 'positive' ? (v as number) > 0 : v !== 0);
    return this.check(field, undefined, valid, `must be a ${sign} integer in the smallest unit`) as number;
  }

  currency(field: string): string {
    return this.check(field, undefined, (v) => typeof v === 'string' && CURRENCY.test(v), 'must be a currency code') as string;
  }

  purpose(field: string, optional?: 'optional'): LedgerSystemPurpose {
    const valid = (v: unknown) => (LEDGER_SYSTEM_PURPOSES as readonly unknown[]).includes(v);
    return this.check(field, optional, valid, `must be one of ${LEDGER_SYSTEM_PURPOSES.join(', ')}`) as LedgerSystemPurpose;
  }

  kind(field: string): string | undefined {
    return this.check(field, 'optional', (v) => typeof v === 'string' && KIND.test(v), 'must be an upper-case word') as string | undefined;
  }

  expiry(field: string): number | undefined {
    const valid = (v: unknown) => Number.isSafeInteger(v) && (v as number) > 0 && (v as number) <= HOLD_EXPIRY_MAX_MS;
    return this.check(field, 'optional', valid, `must be an integer from 1 to ${HOLD_EXPIRY_MAX_MS} ms`) as number | undefined;
  }

  array(field: string, max: number): unknown[] {
    const valid = (v: unknown) => Array.isArray(v) && v.length >= 2 && v.length <= max;
    return (this.check(field, undefined, valid, `must be an array of 2 to ${max} items`) as unknown[]) ?? [];
  }

  fail(field: string, message: string): void {
    this.errors.push({ field: `${this.prefix}${field}` || 'body', message });
  }

  /** Nested readers (legs) report into this one. */
  absorb(other: BodyReader): void {
    this.errors.push(...other.errors);
  }

  done<T>(value: T): T {
    if (this.errors.length === 0) return value;
    throw new DomainError('INVALID_INPUT', `invalid ${[...new Set(this.errors.map((e) => e.field))].join(', ')}`, { errors: this.errors });
  }

  private check(field: string, optional: 'optional' | undefined, valid: (v: unknown) => boolean, message: string): unknown {
    const value = this.body[field];
    if (value === undefined && optional) return undefined;
    if (!valid(value)) this.fail(field, value === undefined ? 'is required' : message);
    return value;
  }
}

export function parsePlaceHold(body: unknown): PlaceHoldRequest {
  const r = new BodyReader(body);
  return r.done({ accountId: r.reference('accountId'), holdId: r.reference('holdId'), amount: r.amount('amount'), currency: r.currency('currency'), expiresInMs: r.expiry('expiresInMs'), reference: r.reference('reference', 'optional') });
}

export function parseCaptureHold(body: unknown): CaptureHoldRequest {
  const r = new BodyReader(body);
  const request: CaptureHoldRequest = {
    accountId: r.reference('accountId'),
    holdId: r.reference('holdId'),
    amount: r.amount('amount'),
    entryId: r.reference('entryId'),
    toPurpose: r.purpose('toPurpose', 'optional'),
    toAccountId: r.reference('toAccountId', 'optional'),
    reference: r.reference('reference', 'optional'),
    kind: r.kind('kind'),
  };
  if ((request.toPurpose === undefined) === (request.toAccountId === undefined)) r.fail('toPurpose', 'exactly one of toPurpose and toAccountId is required');
  if (request.toAccountId !== undefined && request.toAccountId === request.accountId) r.fail('toAccountId', 'must differ from accountId');
  return r.done(request);
}

export function parseReleaseHold(body: unknown): ReleaseHoldRequest {
  const r = new BodyReader(body);
  return r.done({ accountId: r.reference('accountId'), holdId: r.reference('holdId') });
}

export function parseCredit(body: unknown): CreditRequest {
  const r = new BodyReader(body);
  return r.done({
    accountId: r.reference('accountId'),
    amount: r.amount('amount'),
    currency: r.currency('currency'),
    fromPurpose: r.purpose('fromPurpose'),
    entryId: r.reference('entryId'),
    reference: r.reference('reference', 'optional'),
    kind: r.kind('kind'),
  });
}

export function parseReverse(body: unknown): ReverseEntryRequest {
  const r = new BodyReader(body);
  const shortfallTo = r.purpose('shortfallTo', 'optional') as LedgerSystemPurpose | undefined;
  const request = { originalEntryId: r.reference('originalEntryId'), reversalEntryId: r.reference('reversalEntryId'), ...(shortfallTo ? { shortfallTo } : {}) };
  if (request.originalEntryId === request.reversalEntryId) r.fail('reversalEntryId', 'must differ from originalEntryId');
  return r.done(request);
}

export function parseTransfer(body: unknown): TransferRequest {
  const r = new BodyReader(body);
  const entryId = r.reference('entryId');
  const reference = r.reference('reference', 'optional');
  const kind = r.kind('kind');
  const legs = r.array('legs', TRANSFER_LEGS_MAX).map((item, i): TransferLeg => {
    const l = new BodyReader(item, `legs[${i}].`);
    const leg: TransferLeg = { accountId: l.reference('accountId', 'optional'), purpose: l.purpose('purpose', 'optional'), currency: l.currency('currency'), amount: l.amount('amount', 'non-zero'), holdId: l.reference('holdId', 'optional') };
    if ((leg.accountId === undefined) === (leg.purpose === undefined)) l.fail('accountId', 'exactly one of accountId and purpose is required');
    if (leg.holdId !== undefined && (leg.purpose !== undefined || leg.amount > 0)) l.fail('holdId', 'only a debit of an account can capture a hold');
    r.absorb(l);
    return leg;
  });
  return r.done({ entryId, legs, reference, kind });
}

export function parseReference(body: unknown): LedgerReferenceBody {
  const r = new BodyReader(body);
  return r.done({ reference: r.reference('reference') });
}
