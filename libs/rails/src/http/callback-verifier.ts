import { timingSafeEqual } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { RailPaymentStatus, RailProtocolError, readRailCallbackBody } from './protocol';

/** How far a callback's `webhook-timestamp` may be from our clock, either way (the Standard Webhooks default). */
export const RAIL_CALLBACK_TOLERANCE_SECONDS = 5 * 60;

/** A callback that must not be acted on; answer it 400. The message says why and never contains the secret. */
export class RailCallbackError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RailCallbackError';
  }
}

/** Node's IncomingHttpHeaders, a plain record, or fetch's Headers. */
export type RailCallbackHeaders = Headers | Record<string, string | string[] | undefined>;

function header(headers: RailCallbackHeaders, name: string): string {
  let value: string | string[] | null | undefined;
  if (typeof (headers as Headers).get === 'function') value = (headers as Headers).get(name);
  else {
    const record = headers as Record<string, string | string[] | undefined>;
    const key = Object.keys(record).find((k) => k.toLowerCase() === name);
    value = key === undefined ? undefined : record[key];
  }
  if (Array.isArray(value)) throw new RailCallbackError(`${name} header given more than once`);
  if (typeof value !== 'string' || value === '') throw new RailCallbackError(`${name} header missing`);
  return value;
}

function webhookOf(secret: string): Webhook {
  if (!secret.startsWith('whsec_')) throw new RailCallbackError('callback secret must be a whsec_ secret');
  try {
    return new Webhook(secret);
  } catch {
    throw new RailCallbackError('callback secret is not valid base64 after whsec_');
  }
}

/**
 * A bridge's callback checked and read: Standard Webhooks signature (`v1,<base64 HMAC-SHA256 of "id.timestamp.body">`
 * with the shared `whsec_` secret) over the raw body as received, the timestamp within 5 minutes of `nowSeconds`,
 * then the body read strictly. Answers the PaymentStatus it carries; throws RailCallbackError otherwise (answer 400).
 * The signature is computed by the `standardwebhooks` package (secret decoding, signed content, HMAC); the window is
 * checked here because its `verify` reads the wall clock and accepts timestamps such as "17e8" (libs/rails/README.md).
 */
export function verifyRailCallback(secret: string, headers: RailCallbackHeaders, rawBody: string, nowSeconds = Math.floor(Date.now() / 1000)): RailPaymentStatus {
  const webhook = webhookOf(secret);
  const id = header(headers, 'webhook-id');
  const timestampText = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  if (!/^\d{1,12}$/.test(timestampText)) throw new RailCallbackError('webhook-timestamp must be whole seconds since the epoch');
  const timestamp = Number(timestampText);
  if (Math.abs(nowSeconds - timestamp) > RAIL_CALLBACK_TOLERANCE_SECONDS) {
    throw new RailCallbackError(`webhook-timestamp ${timestamp} is more than ${RAIL_CALLBACK_TOLERANCE_SECONDS} s from now (${nowSeconds}): stale or replayed`);
  }
  const expected = Buffer.from(webhook.sign(id, new Date(timestamp * 1000), rawBody).slice('v1,'.length), 'utf8');
  // The header may carry several space-separated signatures (secret rotation); one v1 match is enough.
  const matches = signatures.split(' ').some((entry) => {
    const [version, signature] = entry.split(',', 2);
    if (version !== 'v1' || !signature) return false;
    const given = Buffer.from(signature, 'utf8');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  if (!matches) throw new RailCallbackError('webhook-signature does not match the body (wrong secret, or the body was changed)');
  let parsed: unknown;
  try {
    parsed = JSON.parse(rawBody);
  } catch {
    throw new RailCallbackError('callback body is not JSON');
  }
  try {
    return readRailCallbackBody(parsed).data;
  } catch (error) {
    if (error instanceof RailProtocolError) throw new RailCallbackError(`callback body refused: ${error.message}`);
    throw error;
  }
}

/** The Standard Webhooks headers a bridge sends with `body` (the bridge's side; the reference bridge uses it). */
export function signRailCallback(secret: string, id: string, timestampSeconds: number, body: string): Record<string, string> {
  if (!Number.isSafeInteger(timestampSeconds) || timestampSeconds < 0) throw new RangeError('timestampSeconds must be whole seconds since the epoch');
  return {
    'content-type': 'application/json',
    'webhook-id': id,
    'webhook-timestamp': String(timestampSeconds),
    'webhook-signature': webhookOf(secret).sign(id, new Date(timestampSeconds * 1000), body),
  };
}
