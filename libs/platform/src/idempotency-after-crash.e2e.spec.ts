import { Client } from 'pg';
import { payer } from './test-payments';
import { internalAccountOf } from './test-quotes';
import { startTestPlatform, TestPlatform } from './test-platform';

/**
 * A retry after a crash: the first request's effect committed, but the process died before the gateway stored the
 * answer. What the gateway has left is an IN_FLIGHT record whose lease ran out, so the retry goes through to the
 * service again. It must answer the original resource and never create a second one (it used to pay twice).
 */
describe('Idempotency-Key retries after a crash (real PostgreSQL, HTTP)', () => {
  let t: TestPlatform;
  let db: Client;
  const config = (code: string) => ({ currencyCode: code, minAmount: 1, maxAmount: 100_000_000, requiredCounterpartyFields: [], enabledTransactionTypes: ['INCOMING', 'OUTGOING'] });

  beforeAll(async () => {
    t = await startTestPlatform({ SANDBOX_TIME_SCALE: '0.001' });
    db = new Client({ connectionString: t.database.url });
    await db.connect();
    expect((await t.call('PATCH', '/config', { body: { supportedCurrencies: [config('USD'), config('EUR')] } })).status).toBe(200);
  });
  afterAll(async () => {
    await db?.end();
    await t?.stop();
  });

  /** The gateway's record as a SIGKILL leaves it once its lease has run out: no stored answer. */
  const forgetAnswer = (key: string) =>
    db.query(`UPDATE gateway.idempotency_keys SET state = 'IN_FLIGHT', response_status = NULL, response_body = NULL, locked_until = now() - interval '1 second' WHERE idempotency_key = $1`, [key]);

  interface Case {
    name: string;
    /** The request, built on fresh fixtures; `count` tells how many resources of the kind the fixtures have. */
    prepare(): Promise<{ path: string; body: Record<string, unknown>; count(): Promise<number>; idOf?(body: any): string; other?: Record<string, unknown> }>;
  }

  /** Quotes paid from the account, and their executions (QuoteExecuted events). */
  const quotesOf = (accountId: string) => async () => {
    const [{ n }] = (await db.query(`SELECT count(*)::int AS n FROM quoting.events e JOIN quoting.quotes q ON q.quote_id = e.stream_id WHERE q.body->'source'->>'accountId' = $1 AND e.type IN ('QuoteCreated.v1', 'QuoteExecuted.v1')`, [accountId])).rows;
    return n as number;
  };
  const transactionsOf = (accountId: string) => async () => (await t.call('GET', `/transactions?accountId=${encodeURIComponent(accountId)}&limit=100`)).body.totalCount as number;

  /** A US customer with a funded USD and an empty EUR internal account. */
  async function fxHolder(): Promise<{ usd: string; eur: string }> {
    const customerId = (await t.call('POST', '/customers', { body: { customerType: 'INDIVIDUAL', fullName: 'Fx Holder', region: 'US' } })).body.id;
    const usd = await internalAccountOf(t, t.tenant.sandbox, customerId, 'USD');
    const eur = await internalAccountOf(t, t.tenant.sandbox, customerId, 'EUR');
    expect((await t.call('POST', `/sandbox/internal-accounts/${usd}/fund`, { body: { amount: 100_000 } })).status).toBe(200);
    return { usd, eur };
  }
  const quoteBody = (h: { usd: string; eur: string }, extra: Record<string, unknown> = {}) => ({
    source: { sourceType: 'ACCOUNT', accountId: h.usd }, destination: { destinationType: 'ACCOUNT', accountId: h.eur }, lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 3_456, ...extra,
  });

  const cases: Case[] = [
    {
      name: 'POST /transfer-out',
      prepare: async () => {
        const p = await payer(t, '789', 50_000);
        return { path: '/transfer-out', body: { source: { accountId: p.internal }, destination: { accountId: p.external }, amount: 1_234 }, count: transactionsOf(p.internal) };
      },
    },
    {
      name: 'POST /transfer-in',
      prepare: async () => {
        const p = await payer(t, '789', 0);
        return { path: '/transfer-in', body: { source: { accountId: p.external }, destination: { accountId: p.internal }, amount: 2_345 }, count: transactionsOf(p.internal) };
      },
    },
    {
      name: 'POST /quotes with immediatelyExecute',
      prepare: async () => {
        const h = await fxHolder();
        return { path: '/quotes', body: quoteBody(h, { immediatelyExecute: true }), count: quotesOf(h.usd), other: quoteBody(h, { immediatelyExecute: true, lockedCurrencyAmount: 1_000 }) };
      },
    },
    {
      name: 'POST /quotes/{id}/execute',
      prepare: async () => {
        const h = await fxHolder();
        const quote = (await t.call('POST', '/quotes', { body: quoteBody(h) })).body;
        return { path: `/quotes/${quote.id}/execute`, body: {}, count: quotesOf(h.usd), other: { scaFactor: 'SMS_OTP' } };
      },
    },
  ];

  it.each(cases.map((c) => [c.name, c] as const))('%s: a retry after the crash answers the original and creates nothing', async (_name, c) => {
    const { path, body, count, idOf = (b) => b.id, other = { ...body, amount: 1 } } = await c.prepare();
    const key = `crash-${path}-${Math.random()}`;
    const first = await t.call('POST', path, { headers: { 'Idempotency-Key': key }, body });
    expect(first.status).toBeLessThan(300);
    const afterFirst = await count();
    await forgetAnswer(key);

    const retry = await t.call('POST', path, { headers: { 'Idempotency-Key': key }, body });
    expect(retry.status).toBe(first.status);
    expect(idOf(retry.body)).toBe(idOf(first.body));
    expect(await count()).toBe(afterFirst);

    // A concurrent burst of retries of the lost answer: still one resource.
    await forgetAnswer(key);
    const burst = await Promise.all(Array.from({ length: 5 }, () => t.call('POST', path, { headers: { 'Idempotency-Key': key }, body })));
    for (const r of burst) {
      if (r.status === 409) expect(r.body.code).toBe('IDEMPOTENCY_KEY_IN_USE');
      else expect(idOf(r.body)).toBe(idOf(first.body));
    }
    expect(await count()).toBe(afterFirst);

    // The same key with another request is refused, also when only the service remembers the key.
    await db.query(`DELETE FROM gateway.idempotency_keys WHERE idempotency_key = $1`, [key]);
    const reused = await t.call('POST', path, { headers: { 'Idempotency-Key': key }, body: other });
    expect(reused.body).toMatchObject({ status: 422, code: 'IDEMPOTENCY_KEY_REUSED' });
  });
});
