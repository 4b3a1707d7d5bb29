import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { HttpRailClient, RAIL_REJECTED_WITHOUT_REASON } from './http-rail-client';
import { RailPaymentOrder, RailProtocolError } from './protocol';

/**
 * The client's reading of every kind of answer, against a real HTTP server on 127.0.0.1 that answers what each test
 * scripts (the reference bridge only answers correctly; apps/rail-bridge-reference drives the client against it).
 */
describe('HttpRailClient answers', () => {
  let server: Server;
  let baseUrl: string;
  let answer: (req: IncomingMessage, res: ServerResponse, body: string) => void;
  const seen: { method?: string; url?: string; headers: IncomingMessage['headers']; body: string }[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString();
        seen.push({ method: req.method, url: req.url, headers: req.headers, body });
        answer(req, res, body);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}/v1/`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  beforeEach(() => (seen.length = 0));

  const client = (timeoutMs = 500) => new HttpRailClient({ baseUrl, apiKey: 'k'.repeat(24), timeoutMs, fetch });
  const order: RailPaymentOrder = {
    id: 'pay_1',
    direction: 'CREDIT',
    amount: 12_345,
    currency: 'USD',
    paymentRail: 'ACH',
    counterparty: { accountInfo: { accountType: 'US_ACCOUNT', accountNumber: '123456789', routingNumber: '021000021' }, beneficiary: { name: 'Ada Lovelace', type: 'INDIVIDUAL' } },
    reference: 'Invoice 42',
    callbackUrl: 'https://platform.example/rails/callbacks',
  };
  const status = { id: 'pay_1', status: 'PENDING', updatedAt: '2025-10-09T08:53:20.123Z', sequence: 1, providerReference: 'X1' };
  const replying = (code: number, body: unknown) => (answer = (_req, res) => res.writeHead(code, { 'content-type': 'application/json' }).end(typeof body === 'string' ? body : JSON.stringify(body)));

  it('sends the order with the bearer key and the payment id as Idempotency-Key, and reads the status', async () => {
    replying(201, status);
    expect(await client().submit(order)).toEqual({ kind: 'accepted', status });
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ method: 'POST', url: '/v1/payments', headers: { authorization: `Bearer ${'k'.repeat(24)}`, 'idempotency-key': 'pay_1', 'content-type': 'application/json' } });
    expect(JSON.parse(seen[0].body)).toEqual(order);
  });

  it('takes 200 and 202 as accepted too, whatever status the payment already has', async () => {
    replying(200, { ...status, status: 'SETTLED', sequence: 2 });
    expect(await client().submit(order)).toMatchObject({ kind: 'accepted', status: { status: 'SETTLED', sequence: 2 } });
    replying(202, status);
    expect((await client().submit(order)).kind).toBe('accepted');
  });

  it('answers retry for a 2xx that is not JSON, not a PaymentStatus, or about another payment', async () => {
    const cases: [unknown, RegExp][] = [
      ['<html>ok</html>', /not JSON/],
      [{ ...status, status: 'DONE' }, /malformed PaymentStatus: status.status/],
      [{ ...status, sequence: '1' }, /status.sequence/],
      [{ ...status, updatedAt: 1760000000 }, /status.updatedAt/],
      [{ ...status, status: 'REJECTED' }, /reasonCode is required/],
      [{ ...status, id: 'pay_2' }, /about payment pay_2, not pay_1/],
    ];
    for (const [body, reason] of cases) {
      replying(201, body);
      const result = await client().submit(order);
      expect(result).toEqual({ kind: 'retry', reason: expect.stringMatching(reason) });
    }
  });

  it('answers rejected for 400 and 422, with the bridge’s reason or a generic one', async () => {
    replying(422, { reasonCode: 'ACCOUNT_CLOSED', reasonMessage: 'the account is closed' });
    expect(await client().submit(order)).toEqual({ kind: 'rejected', reasonCode: 'ACCOUNT_CLOSED', reasonMessage: 'the account is closed' });
    replying(400, 'bad request');
    expect(await client().submit(order)).toEqual({ kind: 'rejected', reasonCode: RAIL_REJECTED_WITHOUT_REASON, reasonMessage: expect.stringContaining('400 without a reason: bad request') });
  });

  it('answers conflict for 409', async () => {
    replying(409, { reasonCode: 'IDEMPOTENCY_CONFLICT', reasonMessage: 'another body' });
    expect(await client().submit(order)).toEqual({ kind: 'conflict', reason: expect.stringContaining('another order under id pay_1') });
  });

  it('answers retry for 401/403 (our credentials), 429, 5xx and unexpected statuses', async () => {
    for (const code of [401, 403]) {
      replying(code, {});
      expect(await client().submit(order)).toEqual({ kind: 'retry', reason: 'bridge refused our credentials' });
    }
    replying(429, {});
    expect(await client().submit(order)).toEqual({ kind: 'retry', reason: expect.stringContaining('429') });
    replying(503, 'down');
    expect(await client().submit(order)).toEqual({ kind: 'retry', reason: expect.stringContaining('503') });
    replying(404, {});
    expect(await client().submit(order)).toEqual({ kind: 'retry', reason: 'submit answered unexpected 404' });
  });

  it('answers retry when no answer comes within the timeout, without waiting for it', async () => {
    answer = () => undefined; // never answers
    const started = Date.now();
    expect(await client(200).submit(order)).toEqual({ kind: 'retry', reason: 'no answer within 200 ms' });
    expect(Date.now() - started).toBeLessThan(1_500);
  });

  it('answers retry when nothing listens', async () => {
    const closed = new HttpRailClient({ baseUrl: 'http://127.0.0.1:1', apiKey: 'k'.repeat(24), timeoutMs: 1_000, fetch });
    expect(await closed.submit(order)).toEqual({ kind: 'retry', reason: expect.stringContaining('request failed') });
  });

  it('throws on an order of ours that does not follow the protocol, sending nothing', async () => {
    await expect(client().submit({ ...order, amount: 10.5 })).rejects.toThrow(RailProtocolError);
    await expect(client().submit({ ...order, reference: 'x'.repeat(36) })).rejects.toThrow(/reference/);
    await expect(client().submit({ ...order, currency: 'usd' })).rejects.toThrow(/currency/);
    expect(seen).toHaveLength(0);
  });

  it('polls: found, unknown on 404, retry otherwise', async () => {
    replying(200, { ...status, status: 'SETTLED', sequence: 2 });
    expect(await client().status('pay_1')).toMatchObject({ kind: 'found', status: { status: 'SETTLED' } });
    expect(seen[0]).toMatchObject({ method: 'GET', url: '/v1/payments/pay_1' });
    replying(404, { reasonCode: 'NOT_FOUND', reasonMessage: 'no payment' });
    expect(await client().status('pay_1')).toEqual({ kind: 'unknown' });
    replying(200, { ...status, id: 'other' });
    expect((await client().status('pay_1')).kind).toBe('retry');
    replying(500, {});
    expect((await client().status('pay_1')).kind).toBe('retry');
  });
});
