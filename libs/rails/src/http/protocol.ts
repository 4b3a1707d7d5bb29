/**
 * The generic HTTP rail connector's messages (docs/rails/http-connector.openapi.yaml), with strict readers: whatever a
 * bridge sends is checked field by field before anything acts on it, so a malformed answer is a clear error, never
 * an `undefined` deep inside the ledger.
 */

export const RAIL_PAYMENT_STATUSES = ['PENDING', 'SETTLED', 'REJECTED', 'RETURNED'] as const;
export type RailPaymentStatusValue = (typeof RAIL_PAYMENT_STATUSES)[number];

/** Where a payment stands at the bridge; `sequence` grows with every change of one payment. */
export interface RailPaymentStatus {
  id: string;
  status: RailPaymentStatusValue;
  reasonCode?: string;
  reasonMessage?: string;
  providerReference?: string;
  /** ISO 8601 date-time with an offset, as the bridge sent it. */
  updatedAt: string;
  sequence: number;
}

/** CREDIT: we pay the counterparty out; DEBIT: we pull from the counterparty's account. */
export type RailDirection = 'CREDIT' | 'DEBIT';

export interface RailPaymentOrder {
  /** Our payment id; also the `Idempotency-Key`. */
  id: string;
  direction: RailDirection;
  /** Integer minor units of `currency`, > 0. */
  amount: number;
  /** ISO 4217 alphabetic code. */
  currency: string;
  /** ACH, SEPA, WIRE, FASTER_PAYMENTS, ... (upper-case identifier). */
  paymentRail: string;
  counterparty: {
    /** The external account's published accountInfo (accountType, accountNumber, routingNumber, iban, bic, ...). */
    accountInfo: Record<string, unknown>;
    beneficiary?: { name: string; type: 'INDIVIDUAL' | 'BUSINESS' };
  };
  /** Shown to the counterparty; at most 35 characters. */
  reference: string;
  /** Where the bridge POSTs `payment.updated` callbacks. */
  callbackUrl: string;
}

/** The callback envelope a bridge POSTs to `callbackUrl`. */
export interface RailCallbackBody {
  type: 'payment.updated';
  data: RailPaymentStatus;
}

/** The body of a 4xx answer from a bridge. */
export interface RailErrorBody {
  reasonCode: string;
  reasonMessage: string;
}

export const RAIL_REFERENCE_MAX_LENGTH = 35;
const MAX_TEXT = 1_000;
const ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/** A message that does not follow the protocol; `message` names the field. */
export class RailProtocolError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RailProtocolError';
  }
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function text(value: unknown, field: string, max = MAX_TEXT): string {
  if (typeof value !== 'string' || value.length === 0 || value.length > max) throw new RailProtocolError(`${field} must be a non-empty string of at most ${max} characters`);
  return value;
}

function optionalText(value: unknown, field: string): string | undefined {
  return value === undefined || value === null ? undefined : text(value, field);
}

export function isRailPaymentId(value: unknown): value is string {
  return typeof value === 'string' && ID_PATTERN.test(value);
}

/** A PaymentStatus read strictly: unknown fields are ignored, every known one is checked; throws RailProtocolError. */
export function readRailPaymentStatus(value: unknown, field = 'status'): RailPaymentStatus {
  if (!isObject(value)) throw new RailProtocolError(`${field} must be a JSON object`);
  if (!isRailPaymentId(value.id)) throw new RailProtocolError(`${field}.id must be a payment id (letters, digits, . _ : -; at most 128)`);
  if (typeof value.status !== 'string' || !(RAIL_PAYMENT_STATUSES as readonly string[]).includes(value.status)) {
    throw new RailProtocolError(`${field}.status must be one of ${RAIL_PAYMENT_STATUSES.join(', ')}`);
  }
  const status = value.status as RailPaymentStatusValue;
  const reasonCode = optionalText(value.reasonCode, `${field}.reasonCode`);
  if ((status === 'REJECTED' || status === 'RETURNED') && reasonCode === undefined) throw new RailProtocolError(`${field}.reasonCode is required when status is ${status}`);
  if (typeof value.updatedAt !== 'string' || !DATE_TIME.test(value.updatedAt) || Number.isNaN(Date.parse(value.updatedAt))) {
    throw new RailProtocolError(`${field}.updatedAt must be an ISO 8601 date-time with an offset`);
  }
  if (typeof value.sequence !== 'number' || !Number.isSafeInteger(value.sequence) || value.sequence < 0) {
    throw new RailProtocolError(`${field}.sequence must be a non-negative integer`);
  }
  const read: RailPaymentStatus = { id: value.id, status, updatedAt: value.updatedAt, sequence: value.sequence };
  if (reasonCode !== undefined) read.reasonCode = reasonCode;
  const reasonMessage = optionalText(value.reasonMessage, `${field}.reasonMessage`);
  if (reasonMessage !== undefined) read.reasonMessage = reasonMessage;
  const providerReference = optionalText(value.providerReference, `${field}.providerReference`);
  if (providerReference !== undefined) read.providerReference = providerReference;
  return read;
}

/** The callback envelope read strictly; throws RailProtocolError. */
export function readRailCallbackBody(value: unknown): RailCallbackBody {
  if (!isObject(value)) throw new RailProtocolError('callback body must be a JSON object');
  if (value.type !== 'payment.updated') throw new RailProtocolError('callback type must be "payment.updated"');
  return { type: 'payment.updated', data: readRailPaymentStatus(value.data, 'data') };
}

/** A 4xx answer's body, when it has one that follows the protocol. */
export function readRailErrorBody(value: unknown): RailErrorBody | undefined {
  if (!isObject(value)) return undefined;
  try {
    return { reasonCode: text(value.reasonCode, 'reasonCode', 64), reasonMessage: text(value.reasonMessage, 'reasonMessage') };
  } catch {
    return undefined;
  }
}

/**
 * An order checked before it is sent (and by a bridge when it arrives); throws RailProtocolError naming the field.
 * Our own orders failing here are a bug on our side, which is why the client throws rather than answering a result.
 */
export function readRailPaymentOrder(value: unknown): RailPaymentOrder {
  if (!isObject(value)) throw new RailProtocolError('payment order must be a JSON object');
  if (!isRailPaymentId(value.id)) throw new RailProtocolError('id must be a payment id (letters, digits, . _ : -; at most 128)');
  if (value.direction !== 'CREDIT' && value.direction !== 'DEBIT') throw new RailProtocolError('direction must be CREDIT or DEBIT');
  if (typeof value.amount !== 'number' || !Number.isSafeInteger(value.amount) || value.amount <= 0) throw new RailProtocolError('amount must be a positive integer of minor units');
  if (typeof value.currency !== 'string' || !/^[A-Z]{3}$/.test(value.currency)) throw new RailProtocolError('currency must be an ISO 4217 code (three upper-case letters)');
  if (typeof value.paymentRail !== 'string' || !/^[A-Z][A-Z0-9_]{1,39}$/.test(value.paymentRail)) throw new RailProtocolError('paymentRail must be an upper-case identifier such as ACH or SEPA');
  const counterparty = value.counterparty;
  if (!isObject(counterparty) || !isObject(counterparty.accountInfo)) throw new RailProtocolError('counterparty.accountInfo must be a JSON object');
  const order: RailPaymentOrder = {
    id: value.id,
    direction: value.direction,
    amount: value.amount,
    currency: value.currency,
    paymentRail: value.paymentRail,
    counterparty: { accountInfo: counterparty.accountInfo },
    reference: text(value.reference, 'reference', RAIL_REFERENCE_MAX_LENGTH),
    callbackUrl: text(value.callbackUrl, 'callbackUrl', 2_000),
  };
  if (counterparty.beneficiary !== undefined) {
    const beneficiary = counterparty.beneficiary;
    if (!isObject(beneficiary) || (beneficiary.type !== 'INDIVIDUAL' && beneficiary.type !== 'BUSINESS')) {
      throw new RailProtocolError('counterparty.beneficiary must be { name, type: INDIVIDUAL | BUSINESS }');
    }
    order.counterparty.beneficiary = { name: text(beneficiary.name, 'counterparty.beneficiary.name', 140), type: beneficiary.type };
  }
  let url: URL;
  try {
    url = new URL(order.callbackUrl);
  } catch {
    throw new RailProtocolError('callbackUrl must be an absolute http(s) URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new RailProtocolError('callbackUrl must be an absolute http(s) URL');
  return order;
}
