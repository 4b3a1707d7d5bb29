import { createHmac, randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { RailCallbackError, signRailCallback, verifyRailCallback } from './callback-verifier';

const secret = `whsec_${randomBytes(24).toString('base64')}`;
const now = 1_760_000_000;
const status = { id: 'pay_1', status: 'SETTLED', providerReference: 'BR-1', updatedAt: '2025-10-09T08:53:20Z', sequence: 2 };
const body = JSON.stringify({ type: 'payment.updated', data: status });

/** An HMAC computed here with node:crypto, independently of the package the verifier uses. */
function independentSignature(key: string, id: string, timestamp: number, payload: string): string {
  const raw = Buffer.from(key.slice('whsec_'.length), 'base64');
  return `v1,${createHmac('sha256', raw).update(`${id}.${timestamp}.${payload}`).digest('base64')}`;
}

const headersFor = (payload: string, timestamp = now, id = 'msg_1') => ({
  'webhook-id': id,
  'webhook-timestamp': String(timestamp),
  'webhook-signature': independentSignature(secret, id, timestamp, payload),
});

const refusal = (fn: () => unknown): string => {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(RailCallbackError);
    return (error as Error).message;
  }
  throw new Error('expected a RailCallbackError');
};

describe('verifyRailCallback', () => {
  it('answers the PaymentStatus of a well-signed callback', () => {
    expect(verifyRailCallback(secret, headersFor(body), body, now)).toEqual(status);
  });

  it('reads fetch Headers and upper-case header names alike', () => {
    const h = headersFor(body);
    expect(verifyRailCallback(secret, new Headers(h), body, now)).toEqual(status);
    expect(verifyRailCallback(secret, { 'Webhook-Id': h['webhook-id'], 'WEBHOOK-TIMESTAMP': h['webhook-timestamp'], 'Webhook-Signature': h['webhook-signature'] }, body, now)).toEqual(status);
  });

  it('accepts one matching v1 signature among several (secret rotation)', () => {
    const h = headersFor(body);
    h['webhook-signature'] = `v1,${randomBytes(32).toString('base64')} v2,abc ${h['webhook-signature']}`;
    expect(verifyRailCallback(secret, h, body, now).id).toBe('pay_1');
  });

  it('refuses a signature made with another secret', () => {
    const other = `whsec_${randomBytes(24).toString('base64')}`;
    const h = { ...headersFor(body), 'webhook-signature': independentSignature(other, 'msg_1', now, body) };
    expect(refusal(() => verifyRailCallback(secret, h, body, now))).toMatch(/does not match/);
  });

  it('refuses a tampered body, a changed id and a changed timestamp', () => {
    const h = headersFor(body);
    expect(refusal(() => verifyRailCallback(secret, h, body.replace('SETTLED', 'RETURNED'), now))).toMatch(/does not match/);
    expect(refusal(() => verifyRailCallback(secret, { ...h, 'webhook-id': 'msg_2' }, body, now))).toMatch(/does not match/);
    expect(refusal(() => verifyRailCallback(secret, { ...h, 'webhook-timestamp': String(now + 1) }, body, now))).toMatch(/does not match/);
  });

  it('refuses a timestamp more than 5 minutes old or ahead, and accepts one just inside', () => {
    expect(refusal(() => verifyRailCallback(secret, headersFor(body, now - 301), body, now))).toMatch(/stale or replayed/);
    expect(refusal(() => verifyRailCallback(secret, headersFor(body, now + 301), body, now))).toMatch(/stale or replayed/);
    expect(verifyRailCallback(secret, headersFor(body, now - 300), body, now).id).toBe('pay_1');
  });

  it('refuses a timestamp that is not whole seconds', () => {
    const h = { ...headersFor(body), 'webhook-timestamp': `${now}abc` };
    expect(refusal(() => verifyRailCallback(secret, h, body, now))).toMatch(/whole seconds/);
  });

  it('refuses missing or repeated headers', () => {
    const { 'webhook-signature': _signature, ...unsigned } = headersFor(body);
    expect(refusal(() => verifyRailCallback(secret, unsigned, body, now))).toMatch(/webhook-signature header missing/);
    expect(refusal(() => verifyRailCallback(secret, { ...headersFor(body), 'webhook-id': ['a', 'b'] }, body, now))).toMatch(/more than once/);
  });

  it('refuses a well-signed body that is not JSON', () => {
    const raw = '{"type":"payment.updated",';
    expect(refusal(() => verifyRailCallback(secret, headersFor(raw), raw, now))).toBe('callback body is not JSON');
  });

  it('refuses a well-signed body that does not follow the protocol, naming the field', () => {
    const cases: [unknown, RegExp][] = [
      [{ type: 'payment.created', data: status }, /type must be "payment.updated"/],
      [{ type: 'payment.updated', data: { ...status, status: 'DONE' } }, /data.status must be one of/],
      [{ type: 'payment.updated', data: { ...status, sequence: 1.5 } }, /data.sequence/],
      [{ type: 'payment.updated', data: { ...status, updatedAt: 'yesterday' } }, /data.updatedAt/],
      [{ type: 'payment.updated', data: { ...status, status: 'RETURNED' } }, /reasonCode is required/],
      [[status], /JSON object/],
    ];
    for (const [value, message] of cases) {
      const raw = JSON.stringify(value);
      expect(refusal(() => verifyRailCallback(secret, headersFor(raw), raw, now))).toMatch(message);
    }
  });

  it('refuses a secret that is not a whsec_ secret', () => {
    expect(refusal(() => verifyRailCallback('not-a-secret', headersFor(body), body, now))).toMatch(/whsec_/);
  });
});

describe('signRailCallback', () => {
  it('signs what our verifier, an independent HMAC and the standardwebhooks package all accept', () => {
    const h = signRailCallback(secret, 'msg_9', now, body);
    expect(h['webhook-signature']).toBe(independentSignature(secret, 'msg_9', now, body));
    expect(verifyRailCallback(secret, h, body, now)).toEqual(status);
    const fresh = Math.floor(Date.now() / 1000);
    expect(new Webhook(secret).verify(body, signRailCallback(secret, 'msg_9', fresh, body))).toEqual({ type: 'payment.updated', data: status });
  });
});
