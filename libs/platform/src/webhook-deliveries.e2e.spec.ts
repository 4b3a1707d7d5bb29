import { randomUUID } from 'node:crypto';
import { Mode } from '@payments/contracts';
import { eventually, freePort } from '@payments/testing';
import { usdBankAccount } from './test-payments';
import { startTestPlatform, TestPlatform, TestTenant } from './test-platform';
import { WebhookReceiver } from './test-webhook-receiver';

/**
 * GET /webhook-deliveries, GET /webhook-deliveries/{id} and the two redeliveries, over HTTP against the whole platform
 * with a real loopback receiver (the harness allows loopback endpoints): what a platform sees of its queue, what it
 * never sees, and redelivery picked up by the running dispatcher. Retry delays are scaled down as in webhooks.e2e.
 */
describe('webhook deliveries (real HTTP receiver)', () => {
  let t: TestPlatform;
  const receiver = new WebhookReceiver();
  beforeAll(async () => {
    await receiver.start();
    t = await startTestPlatform({ WEBHOOK_BACKOFF_SCALE: '0.0002', WEBHOOK_TIMEOUT_MS: '4000', SANDBOX_TIME_SCALE: '0.001' });
  }, 60_000);
  afterAll(async () => {
    await t.stop();
    await receiver.stop();
  });

  type Tenant = TestTenant & { platformId: string };

  /** A fresh tenant whose sandbox endpoint is `path` on the receiver (its TEST has arrived when this returns). */
  async function tenantWithEndpoint(path: string): Promise<Tenant> {
    const tenant = (await t.createTenant(`Deliveries ${path}`)) as Tenant;
    expect((await t.call('PATCH', '/config', { auth: tenant.sandbox, body: { webhookEndpoint: receiver.url(path) } })).status).toBe(200);
    await eventually(() => Promise.resolve(receiver.at(path, 'TEST').length > 0), { what: `TEST at ${path}` });
    return tenant;
  }

  /** Queues a webhook as the bus consumer does (its data carries the resource id). */
  async function enqueue(platformId: string, type: string, mode: Mode = 'SANDBOX', data: Record<string, unknown> = { id: `Customer:${randomUUID()}` }): Promise<string> {
    const { webhooks } = t.platform;
    const id = await webhooks.queue.enqueue(webhooks.host.dataSource.manager, { eventId: null, platformId, mode, type, data, retryable: true });
    webhooks.worker.nudge();
    return id!;
  }

  const deliveryOf = async (auth: string, webhookId: string) => (await t.call('GET', `/webhook-deliveries/${webhookId}`, { auth })).body;
  const untilStatus = (auth: string, webhookId: string, status: string, timeoutMs?: number) =>
    eventually(async () => {
      const delivery = await deliveryOf(auth, webhookId);
      return delivery.status === status && delivery;
    }, { what: `${webhookId} ${status}`, timeoutMs });

  it("lists a transfer's webhooks by resourceId, each with the body it was sent with and its attempts, never the endpoint's answer", async () => {
    const tenant = await tenantWithEndpoint('/transfer');
    receiver.respond('/transfer', () => ({ status: 200, body: 'secret receiver text' }));
    const call = (method: string, path: string, body?: unknown) => t.call(method, path, { auth: tenant.sandbox, body });
    const customerId = (await call('POST', '/customers', { customerType: 'INDIVIDUAL', fullName: 'Hook Payer' })).body.id;
    const internal = await eventually(async () => (await call('GET', `/customers/internal-accounts?customerId=${encodeURIComponent(customerId)}&currency=USD`)).body.data?.[0]?.id, { what: 'USD account' });
    expect((await call('POST', `/sandbox/internal-accounts/${internal}/fund`, { amount: 10_000 })).status).toBe(200);
    const external = (await call('POST', '/customers/external-accounts', { customerId, ...usdBankAccount('456') })).body.id;
    await eventually(async () => (await call('GET', `/customers/external-accounts/${external}`)).body.status === 'ACTIVE', { what: 'ACTIVE' });
    const tx = (await call('POST', '/transfer-out', { source: { accountId: internal }, destination: { accountId: external }, amount: 2_500 })).body;
    await eventually(() => Promise.resolve(receiver.at('/transfer', 'OUTGOING_PAYMENT.COMPLETED').some((h) => h.json.data.id === tx.id)), { what: 'OUTGOING_PAYMENT.COMPLETED' });
    const received = receiver.at('/transfer').filter((h) => h.json.data?.id === tx.id);

    const listed = await eventually(async () => {
      const page = (await call('GET', `/webhook-deliveries?resourceId=${encodeURIComponent(tx.id)}`)).body;
      return page.data.length === received.length && page.data.every((d: { status: string }) => d.status === 'DELIVERED') && page;
    }, { what: 'the transfer\'s deliveries, all DELIVERED' });
    expect(listed.totalCount).toBe(received.length);
    expect(new Set(listed.data.map((d: { webhookId: string }) => d.webhookId))).toEqual(new Set(received.map((h) => h.json.id)));
    expect(listed.data.every((d: { resourceId: string; attempts: number; lastStatus: number }) => d.resourceId === tx.id && d.attempts === 1 && d.lastStatus === 200)).toBe(true);
    const ids = listed.data.map((d: { webhookId: string }) => d.webhookId);
    expect(ids).toEqual([...ids].sort().reverse()); // newest first
    expect(listed.data[0]).not.toHaveProperty('nextAttemptAt'); // only while PENDING

    const completed = received.find((h) => h.json.type === 'OUTGOING_PAYMENT.COMPLETED')!;
    const detail = await deliveryOf(tenant.sandbox, completed.json.id);
    expect(detail).toMatchObject({ webhookId: completed.json.id, type: 'OUTGOING_PAYMENT.COMPLETED', status: 'DELIVERED', resourceId: tx.id, lastStatus: 200, finishedAt: expect.any(String) });
    expect(detail.payload).toEqual(completed.json); // the body exactly as sent, its timestamp that of the attempt
    expect(detail.attempts).toEqual([{ attempt: 1, url: receiver.url('/transfer'), responseStatus: 200, latencyMs: expect.any(Number), at: completed.json.timestamp }]);
    expect(JSON.stringify(detail)).not.toContain('secret receiver text');

    // Filters narrow; a page of one walks with the cursor.
    const byType = (await call('GET', `/webhook-deliveries?type=OUTGOING_PAYMENT.COMPLETED&status=DELIVERED`)).body;
    expect(byType.data.map((d: { webhookId: string }) => d.webhookId)).toEqual([completed.json.id]);
    expect((await call('GET', `/webhook-deliveries?resourceId=${encodeURIComponent(tx.id)}&status=DEAD_LETTER`)).body).toEqual({ data: [], hasMore: false, totalCount: 0 });
    expect((await call('GET', `/webhook-deliveries?resourceId=${encodeURIComponent(tx.id)}&createdAfter=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`)).body.totalCount).toBe(0);
    const first = (await call('GET', `/webhook-deliveries?limit=1`)).body;
    expect(first).toMatchObject({ hasMore: true, nextCursor: expect.any(String) });
    expect(first.totalCount).toBeGreaterThan(received.length); // the TEST, the customer's and the accounts' webhooks too
    const second = (await call('GET', `/webhook-deliveries?limit=1&cursor=${first.nextCursor}`)).body;
    expect(second.data[0].webhookId < first.data[0].webhookId).toBe(true);
  }, 60_000);

  it('shows an endpoint that does not answer as NO_ANSWER, never why', async () => {
    const tenant = (await t.createTenant('Deliveries unreachable')) as Tenant;
    const closed = `http://127.0.0.1:${await freePort()}/nobody`;
    expect((await t.call('PATCH', '/config', { auth: tenant.sandbox, body: { webhookEndpoint: closed } })).status).toBe(200);
    // The TEST that setting an endpoint sends is never retried: it fails at once.
    const test = await eventually(async () => (await t.call('GET', '/webhook-deliveries?type=TEST&status=FAILED', { auth: tenant.sandbox })).body.data[0], { what: 'the failed TEST' });
    expect(test).toMatchObject({ type: 'TEST', status: 'FAILED', attempts: 1, lastError: 'NO_ANSWER' });
    expect(test).not.toHaveProperty('lastStatus');
    expect(test).not.toHaveProperty('resourceId');
    const detail = await deliveryOf(tenant.sandbox, test.webhookId);
    expect(detail.payload).toMatchObject({ id: test.webhookId, type: 'TEST', data: {} });
    expect(detail.attempts).toEqual([{ attempt: 1, url: closed, latencyMs: expect.any(Number), error: 'NO_ANSWER', at: expect.any(String) }]);
    // The operator's attempt history keeps the reason.
    expect((await t.platform.webhooks.queue.attempts(test.webhookId))[0].error).toMatch(/ECONNREFUSED/);
  });

  it('a failing endpoint is seen failing; after it recovers, a redelivery is DELIVERED with a new attempt, once per Idempotency-Key', async () => {
    const tenant = await tenantWithEndpoint('/recovering');
    let answer = 500;
    receiver.respond('/recovering', (hook) => (hook.json.type === 'TEST' ? { status: 200 } : { status: answer, body: `answer ${answer}` }));
    const webhookId = await enqueue(tenant.platformId, 'CUSTOMER.KYC_APPROVED');

    const failing = await eventually(async () => {
      const delivery = await deliveryOf(tenant.sandbox, webhookId);
      return delivery.attempts.length >= 2 && delivery;
    }, { what: 'two failed attempts' });
    expect(failing).toMatchObject({ status: 'PENDING', lastStatus: 500, nextAttemptAt: expect.any(String) });
    expect(failing.attempts.slice(0, 2).map((a: { attempt: number; responseStatus: number }) => [a.attempt, a.responseStatus])).toEqual([[1, 500], [2, 500]]);
    expect(JSON.stringify(failing)).not.toContain('answer 500');
    // Queued already: nothing to redeliver.
    const queued = await t.call('POST', `/webhook-deliveries/${webhookId}/redeliver`, { auth: tenant.sandbox });
    expect(queued.body).toMatchObject({ status: 409, code: 'INVALID_STATE_TRANSITION' });

    answer = 410; // the next retry finds the endpoint gone: a dead letter, the endpoint disabled
    const dead = await untilStatus(tenant.sandbox, webhookId, 'DEAD_LETTER');
    expect(dead).toMatchObject({ deadReason: 'ENDPOINT_GONE', lastStatus: 410, finishedAt: expect.any(String) });
    expect((await t.call('GET', '/webhook-deliveries?status=DEAD_LETTER', { auth: tenant.sandbox })).body.data.map((d: { webhookId: string }) => d.webhookId)).toEqual([webhookId]);

    // The runbook, by the platform itself: the endpoint recovers and is set again, then the webhook is redelivered.
    answer = 200;
    expect((await t.call('PATCH', '/config', { auth: tenant.sandbox, body: { webhookEndpoint: receiver.url('/recovering') } })).status).toBe(200);
    const key = { 'Idempotency-Key': `redeliver-${randomUUID()}` };
    const redelivered = await t.call('POST', `/webhook-deliveries/${webhookId}/redeliver`, { auth: tenant.sandbox, headers: key });
    expect(redelivered.status).toBe(200);
    expect(redelivered.body).toMatchObject({ webhookId, status: 'PENDING', nextAttemptAt: expect.any(String), attempts: dead.attempts.length });
    expect(redelivered.body).not.toHaveProperty('deadReason');
    const delivered = await untilStatus(tenant.sandbox, webhookId, 'DELIVERED');
    expect(delivered.attempts).toHaveLength(dead.attempts.length + 1);
    expect(delivered.attempts.at(-1)).toMatchObject({ attempt: dead.attempts.length + 1, responseStatus: 200 });
    // The same key again is the same answer and sends nothing more; the row and the id are the same throughout.
    const sent = receiver.at('/recovering', 'CUSTOMER.KYC_APPROVED').length;
    const replay = await t.call('POST', `/webhook-deliveries/${webhookId}/redeliver`, { auth: tenant.sandbox, headers: key });
    expect(replay.status).toBe(200);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(redelivered.body);
    await new Promise((r) => setTimeout(r, 300));
    expect(receiver.at('/recovering', 'CUSTOMER.KYC_APPROVED')).toHaveLength(sent);
    expect(new Set(receiver.at('/recovering', 'CUSTOMER.KYC_APPROVED').map((h) => h.json.id))).toEqual(new Set([webhookId]));
    expect((await deliveryOf(tenant.sandbox, webhookId)).attempts).toHaveLength(dead.attempts.length + 1);
    const [{ n }] = await t.platform.webhooks.host.dataSource.query(`SELECT count(*)::int AS n FROM webhooks.deliveries WHERE platform_id = $1 AND type = 'CUSTOMER.KYC_APPROVED'`, [tenant.platformId]);
    expect(n).toBe(1);

    // A DELIVERED webhook may be resent: the same id arrives once more.
    const before = receiver.at('/recovering', 'CUSTOMER.KYC_APPROVED').length;
    expect((await t.call('POST', `/webhook-deliveries/${webhookId}/redeliver`, { auth: tenant.sandbox })).body.status).toBe('PENDING');
    await eventually(() => Promise.resolve(receiver.at('/recovering', 'CUSTOMER.KYC_APPROVED').length === before + 1), { what: 'the resend' });
    expect(receiver.at('/recovering', 'CUSTOMER.KYC_APPROVED').at(-1)!.json.id).toBe(webhookId);
  }, 60_000);

  it('redelivers every dead letter of the platform and mode at once; the admin CLI\'s redelivery is picked up by the polling dispatcher', async () => {
    const tenant = await tenantWithEndpoint('/dead');
    let answer = 410;
    receiver.respond('/dead', (hook) => (hook.json.type === 'TEST' ? { status: 200 } : { status: answer }));
    const first = await enqueue(tenant.platformId, 'CUSTOMER.KYC_APPROVED');
    await untilStatus(tenant.sandbox, first, 'DEAD_LETTER');
    // The endpoint is disabled now: the next ones dead-letter without a request.
    const second = await enqueue(tenant.platformId, 'CUSTOMER.KYC_REJECTED');
    const third = await enqueue(tenant.platformId, 'CUSTOMER.KYC_PENDING');
    await untilStatus(tenant.sandbox, third, 'DEAD_LETTER');
    await untilStatus(tenant.sandbox, second, 'DEAD_LETTER');
    const production = await enqueue(tenant.platformId, 'CUSTOMER.KYC_APPROVED', 'PRODUCTION'); // no production endpoint: NO_ENDPOINT
    await untilStatus(tenant.production, production, 'DEAD_LETTER');
    const stranger = (await t.createTenant('Deliveries stranger')) as Tenant;
    const theirs = await enqueue(stranger.platformId, 'CUSTOMER.KYC_APPROVED');
    await untilStatus(stranger.sandbox, theirs, 'DEAD_LETTER');

    answer = 200;
    expect((await t.call('PATCH', '/config', { auth: tenant.sandbox, body: { webhookEndpoint: receiver.url('/dead') } })).status).toBe(200);
    const key = { 'Idempotency-Key': `dead-${randomUUID()}` };
    const requeued = await t.call('POST', '/webhook-deliveries/redeliver-dead-letters', { auth: tenant.sandbox, headers: key });
    expect(requeued.status).toBe(200);
    expect(requeued.body).toEqual({ requeued: [third, second, first] }); // this platform's sandbox ones only, newest first
    for (const id of [first, second, third]) await untilStatus(tenant.sandbox, id, 'DELIVERED');
    expect(new Set(receiver.at('/dead').filter((h) => h.json.type !== 'TEST').map((h) => h.json.id))).toEqual(new Set([first, second, third]));
    expect((await t.call('POST', '/webhook-deliveries/redeliver-dead-letters', { auth: tenant.sandbox, headers: key })).body).toEqual(requeued.body);
    expect((await t.call('POST', '/webhook-deliveries/redeliver-dead-letters', { auth: tenant.sandbox })).body).toEqual({ requeued: [] });
    expect((await deliveryOf(tenant.production, production)).status).toBe('DEAD_LETTER');
    expect((await deliveryOf(stranger.sandbox, theirs)).status).toBe('DEAD_LETTER');

    // The operator's CLI (webhooks:redeliver --id) uses the same requeue, wakes nobody, and the dispatcher's poll finds it.
    expect((await t.call('PATCH', '/config', { auth: stranger.sandbox, body: { webhookEndpoint: receiver.url('/stranger') } })).status).toBe(200);
    expect(await t.platform.webhooks.queue.redeliver({ webhookId: theirs })).toEqual([theirs]);
    await untilStatus(stranger.sandbox, theirs, 'DELIVERED', 10_000);
  }, 60_000);

  it('keeps each platform and mode to its own deliveries (404 elsewhere); bad filters and ids are 400 and 404 envelopes', async () => {
    const tenant = await tenantWithEndpoint('/isolated');
    const stranger = (await t.createTenant('Deliveries other')) as Tenant;
    const mine = await enqueue(tenant.platformId, 'CUSTOMER.KYC_APPROVED');
    await untilStatus(tenant.sandbox, mine, 'DELIVERED');
    const productionOne = await enqueue(tenant.platformId, 'CUSTOMER.KYC_APPROVED', 'PRODUCTION');
    await untilStatus(tenant.production, productionOne, 'DEAD_LETTER');

    for (const [auth, id] of [[stranger.sandbox, mine], [stranger.production, mine], [tenant.production, mine], [tenant.sandbox, productionOne]]) {
      for (const [method, path] of [['GET', `/webhook-deliveries/${id}`], ['POST', `/webhook-deliveries/${id}/redeliver`]]) {
        const res = await t.call(method, path, { auth });
        expect({ method, status: res.status, code: res.body.code }).toEqual({ method, status: 404, code: 'REFERENCE_NOT_FOUND' });
      }
    }
    expect((await t.call('GET', '/webhook-deliveries', { auth: stranger.sandbox })).body.data.map((d: { webhookId: string }) => d.webhookId)).not.toContain(mine);
    expect((await t.call('GET', '/webhook-deliveries', { auth: tenant.production })).body.data.map((d: { webhookId: string }) => d.webhookId)).toEqual([productionOne]);
    expect((await t.call('GET', '/webhook-deliveries', { auth: tenant.sandbox })).body.data.map((d: { webhookId: string }) => d.webhookId)).not.toContain(productionOne);
    expect((await t.call('POST', '/webhook-deliveries/redeliver-dead-letters', { auth: stranger.sandbox })).body).toEqual({ requeued: [] });
    expect((await deliveryOf(tenant.production, productionOne)).status).toBe('DEAD_LETTER');

    for (const query of ['status=LOST', 'limit=0', 'limit=101', 'createdAfter=yesterday', 'cursor=not-a-cursor', 'type=a%20b', `resourceId=${'x'.repeat(256)}`, 'unknown=1']) {
      const res = await t.call('GET', `/webhook-deliveries?${query}`, { auth: tenant.sandbox });
      expect({ query, status: res.status, code: res.body.code }).toEqual({ query, status: 400, code: 'INVALID_INPUT' });
    }
    for (const id of ['nope', `Webhook:${randomUUID()}`, `Webhook:${randomUUID()}'--`]) {
      expect((await t.call('GET', `/webhook-deliveries/${encodeURIComponent(id)}`, { auth: tenant.sandbox })).body).toMatchObject({ status: 404, code: 'REFERENCE_NOT_FOUND' });
    }

    // Reading needs VIEW, redelivering MANAGE.
    const token = async (permissions: string[]) => {
      const created = (await t.call('POST', '/tokens', { auth: tenant.sandbox, body: { name: permissions.join('+'), permissions } })).body;
      return `Basic ${Buffer.from(`${created.clientId}:${created.clientSecret}`).toString('base64')}`;
    };
    const viewer = await token(['VIEW']);
    expect((await t.call('GET', `/webhook-deliveries/${mine}`, { auth: viewer })).status).toBe(200);
    for (const path of [`/webhook-deliveries/${mine}/redeliver`, '/webhook-deliveries/redeliver-dead-letters']) {
      expect((await t.call('POST', path, { auth: viewer })).body).toMatchObject({ status: 403, code: 'FORBIDDEN' });
    }
    expect((await t.call('GET', '/webhook-deliveries', { auth: await token(['TRANSACT']) })).status).toBe(403);
  }, 60_000);
});
