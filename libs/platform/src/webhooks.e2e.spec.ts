import { createPublicKey, verify } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { eventually, http, sampleOf } from '@payments/testing';
import { createCustomer, individualBody } from './test-kyc';
import { usdBankAccount } from './test-payments';
import { startTestPlatform, TestPlatform, TestTenant } from './test-platform';
import { ReceivedWebhook, WebhookReceiver } from './test-webhook-receiver';

/**
 * Webhooks end to end: real gateway, services, dispatcher and PostgreSQL; a real local HTTP receiver. Retry delays
 * are scaled down (WEBHOOK_BACKOFF_SCALE) so that a 7-day policy runs in seconds.
 */
describe('webhook dispatcher (real HTTP receiver)', () => {
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

  /** A fresh tenant whose sandbox endpoint is `path` on the receiver (its TEST has arrived when this returns). */
  async function tenantWithEndpoint(path: string): Promise<TestTenant & { platformId: string }> {
    const tenant = await t.createTenant(`Webhooks ${path}`);
    const res = await t.call('PATCH', '/config', { auth: tenant.sandbox, body: { webhookEndpoint: receiver.url(path) } });
    expect(res.status).toBe(200);
    await eventually(() => Promise.resolve(receiver.at(path, 'TEST').length > 0), { what: `TEST at ${path}` });
    return tenant as TestTenant & { platformId: string };
  }

  async function enqueue(platformId: string, type: string, data: unknown = { n: 1 }): Promise<string> {
    const { webhooks } = t.platform;
    const id = await webhooks.queue.enqueue(webhooks.host.dataSource.manager, { eventId: null, platformId, mode: 'SANDBOX', type, data, retryable: true });
    webhooks.worker.nudge();
    return id!;
  }

  it('signs every webhook twice, and independent verifiers accept both signatures', async () => {
    const tenant = await tenantWithEndpoint('/signed');
    const config = (await t.call('GET', '/config', { auth: tenant.sandbox })).body;
    expect(config).toMatchObject({ webhookEndpoint: receiver.url('/signed'), webhookEndpointStatus: 'ACTIVE' });
    expect(config.webhookPublicKey).toMatch(/^-----BEGIN PUBLIC KEY-----\n/);
    expect(config.webhookSecret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const viewOnly = (await t.call('POST', '/tokens', { auth: tenant.sandbox, body: { name: 'viewer', permissions: ['VIEW'] } })).body;
    const viewer = `Basic ${Buffer.from(`${viewOnly.clientId}:${viewOnly.clientSecret}`).toString('base64')}`;
    const seenByViewer = (await t.call('GET', '/config', { auth: viewer })).body;
    expect(seenByViewer.webhookPublicKey).toBe(config.webhookPublicKey);
    expect(seenByViewer).not.toHaveProperty('webhookSecret');

    const [test] = receiver.at('/signed', 'TEST');
    expect(test.json).toEqual({ id: expect.stringMatching(/^Webhook:[0-9a-f-]{36}$/), type: 'TEST', timestamp: expect.any(String), data: {} });
    const header = JSON.parse(test.headers['x-service-signature']);
    expect(header.v).toBe('1');
    const key = createPublicKey(config.webhookPublicKey);
    expect(verify('sha256', Buffer.from(test.body), key, Buffer.from(header.s, 'base64'))).toBe(true);
    expect(verify('sha256', Buffer.from(test.body.replace('TEST', 'TESU')), key, Buffer.from(header.s, 'base64'))).toBe(false);
    expect(test.headers['webhook-id']).toBe(test.json.id);
    expect(new Webhook(config.webhookSecret).verify(test.body, test.headers)).toEqual(test.json);
    expect(() => new Webhook(config.webhookSecret).verify(`${test.body} `, test.headers)).toThrow();
    // Another platform's keys do not verify it.
    const other = (await t.call('GET', '/config')).body;
    expect(verify('sha256', Buffer.from(test.body), createPublicKey(other.webhookPublicKey), Buffer.from(header.s, 'base64'))).toBe(false);
    // At rest, the signing key and the secret are sealed: a database dump does not hold them in the clear.
    const [stored] = await t.platform.identity.host.dataSource.query(`SELECT private_key_pem, secret FROM identity.webhook_keys WHERE platform_id = $1 AND mode = 'SANDBOX'`, [tenant.platformId]);
    expect(stored.private_key_pem).toMatch(/^v1:/);
    expect(stored.private_key_pem).not.toContain('PRIVATE KEY');
    expect(stored.secret).toMatch(/^v1:/);
    expect(stored.secret).not.toContain(config.webhookSecret.slice(6));
  });

  it('POST /sandbox/webhooks/test answers the endpoint\'s status (never its body); 400 without an endpoint; 404 in production', async () => {
    const tenant = await tenantWithEndpoint('/sync');
    receiver.respond('/sync', () => ({ status: 202, body: 'thanks' }));
    const res = await t.call('POST', '/sandbox/webhooks/test', { auth: tenant.sandbox });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ url: receiver.url('/sync'), response_status: 202, response_body: '' }); // the body: egress.e2e.spec.ts
    expect(receiver.at('/sync', 'TEST')).toHaveLength(2);

    const bare = await t.createTenant('No endpoint');
    expect((await t.call('POST', '/sandbox/webhooks/test', { auth: bare.sandbox })).body).toMatchObject({ status: 400, code: 'WEBHOOK_ENDPOINT_NOT_SET' });
    expect((await t.call('POST', '/sandbox/webhooks/test', { auth: bare.production })).body).toMatchObject({ status: 404 });
  });

  it('retries a failing endpoint with backoff and delivers exactly once after the first success; every attempt is recorded', async () => {
    const tenant = await tenantWithEndpoint('/flaky');
    let calls = 0;
    receiver.respond('/flaky', (hook) => (hook.json.type === 'TEST' ? { status: 200 } : ++calls <= 3 ? { status: 500, body: `down ${calls}` } : { status: 200, body: 'ok' }));
    const webhookId = await enqueue(tenant.platformId, 'CUSTOMER.KYC_APPROVED');
    await eventually(async () => (await t.platform.webhooks.queue.get(webhookId))?.status === 'DELIVERED', { what: 'delivered' });
    await new Promise((r) => setTimeout(r, 500)); // nothing more may arrive
    const hooks = receiver.at('/flaky', 'CUSTOMER.KYC_APPROVED');
    expect(hooks).toHaveLength(4);
    expect(new Set(hooks.map((h) => h.json.id))).toEqual(new Set([webhookId]));
    expect(new Set(hooks.map((h) => h.headers['webhook-id']))).toEqual(new Set([webhookId]));
    const attempts = await t.platform.webhooks.queue.attempts(webhookId);
    expect(attempts.map((a) => [a.attempt, a.response_status, a.response_excerpt])).toEqual([
      [1, 500, 'down 1'],
      [2, 500, 'down 2'],
      [3, 500, 'down 3'],
      [4, 200, 'ok'],
    ]);
    expect(attempts.every((a) => a.url === receiver.url('/flaky') && a.latency_ms >= 0)).toBe(true);
  });

  it('does not retry after a 409; a 410 disables the endpoint until it is set again', async () => {
    const tenant = await tenantWithEndpoint('/gone');
    receiver.respond('/gone', (hook) => (hook.json.type === 'TEST' ? { status: 200 } : hook.json.type === 'DUP' ? { status: 409 } : { status: 410 }));
    const duplicate = await enqueue(tenant.platformId, 'DUP');
    await eventually(async () => (await t.platform.webhooks.queue.get(duplicate))?.status === 'REJECTED', { what: 'rejected' });

    const gone = await enqueue(tenant.platformId, 'GONE');
    await eventually(async () => (await t.platform.webhooks.queue.get(gone))?.status === 'DEAD_LETTER', { what: 'dead letter' });
    expect((await t.platform.webhooks.queue.get(gone))?.dead_reason).toBe('ENDPOINT_GONE');
    const disabled = await eventually(async () => {
      const config = (await t.call('GET', '/config', { auth: tenant.sandbox })).body;
      return config.webhookEndpointStatus === 'DISABLED' ? config : undefined;
    }, { what: 'endpoint disabled' });
    expect(disabled.webhookEndpoint).toBe(receiver.url('/gone'));
    await new Promise((r) => setTimeout(r, 300));
    expect(receiver.at('/gone', 'DUP')).toHaveLength(1);
    expect(receiver.at('/gone', 'GONE')).toHaveLength(1);

    // Setting the endpoint again (even the same URL) enables it: a TEST arrives.
    const tests = receiver.at('/gone', 'TEST').length;
    const again = await t.call('PATCH', '/config', { auth: tenant.sandbox, body: { webhookEndpoint: receiver.url('/gone') } });
    expect(again.body.webhookEndpointStatus).toBe('ACTIVE');
    await eventually(() => Promise.resolve(receiver.at('/gone', 'TEST').length > tests), { what: 'TEST after re-enabling' });
  });

  it("an operator sees the queue and its dead letters on the dispatcher's /metrics, and a redelivery clears them", async () => {
    const tenant = await tenantWithEndpoint('/observed');
    let answer = 500;
    receiver.respond('/observed', (hook) => (hook.json.type === 'TEST' ? { status: 200 } : { status: answer }));
    const metrics = async () => (await http<string>('GET', `http://127.0.0.1:${t.platform.ops.port}/metrics`)).body;
    const platform = { app: 'webhook-dispatcher', platform: tenant.platformId };

    const webhookId = await enqueue(tenant.platformId, 'CUSTOMER.KYC_APPROVED');
    const failing = await eventually(async () => {
      const text = await metrics();
      return (sampleOf(text, 'payments_webhook_delivery_failures_total', platform) ?? 0) >= 1 && text;
    }, { what: 'a failed attempt on /metrics' });
    expect(sampleOf(failing, 'payments_webhook_queue_deliveries', { ...platform, mode: 'SANDBOX' })).toBe(1); // backing off
    expect(sampleOf(failing, 'payments_webhook_dead_letter_deliveries', { ...platform, reason: 'ENDPOINT_GONE' })).toBeUndefined();

    answer = 410; // the next retry finds the endpoint gone: a dead letter
    const dead = await eventually(async () => {
      const text = await metrics();
      return sampleOf(text, 'payments_webhook_dead_letter_deliveries', { ...platform, mode: 'SANDBOX', reason: 'ENDPOINT_GONE' }) === 1 && text;
    }, { what: 'the dead letter on /metrics' });
    expect(sampleOf(dead, 'payments_webhook_queue_deliveries', { ...platform, mode: 'SANDBOX' })).toBeUndefined();

    // The runbook: the platform sets its endpoint again, the operator redelivers.
    answer = 200;
    expect((await t.call('PATCH', '/config', { auth: tenant.sandbox, body: { webhookEndpoint: receiver.url('/observed') } })).status).toBe(200);
    expect(await t.platform.webhooks.queue.redeliver({ webhookId })).toEqual([webhookId]);
    t.platform.webhooks.worker.nudge();
    await eventually(async () => (await t.platform.webhooks.queue.get(webhookId))?.status === 'DELIVERED', { what: 'delivered after redelivery' });
    expect(sampleOf(await metrics(), 'payments_webhook_dead_letter_deliveries', { ...platform, reason: 'ENDPOINT_GONE' })).toBeUndefined();
  });

  it('loses nothing when the receiver is down across a dispatcher restart', async () => {
    const tenant = await tenantWithEndpoint('/restart');
    await receiver.stop(); // connection refused from now on
    const webhookId = await enqueue(tenant.platformId, 'OUTGOING_PAYMENT.COMPLETED');
    await eventually(async () => ((await t.platform.webhooks.queue.get(webhookId))?.attempts ?? 0) >= 1, { what: 'a failed attempt' });
    await t.restart();
    await receiver.start();
    await eventually(async () => (await t.platform.webhooks.queue.get(webhookId))?.status === 'DELIVERED', { what: 'delivered after restart', timeoutMs: 30_000 });
    expect(receiver.at('/restart', 'OUTGOING_PAYMENT.COMPLETED').map((h) => h.json.id)).toEqual([webhookId]);
    const attempts = await t.platform.webhooks.queue.attempts(webhookId);
    expect(attempts.at(-1)).toMatchObject({ response_status: 200 });
    expect(attempts.slice(0, -1).every((a) => a.response_status === null && a.error)).toBe(true);
  }, 60_000);

  it('sends CUSTOMER.KYC_* and VERIFICATION.* with the customer and verification as the API returns them', async () => {
    const tenant = await tenantWithEndpoint('/kyc');
    const customerId = await createCustomer(t, individualBody('Ada Lovelace'), tenant.sandbox);
    const submitted = await t.call('POST', '/verifications', { auth: tenant.sandbox, body: { customerId } });
    expect(submitted.status).toBe(200);
    const approved = await eventually(() => Promise.resolve(receiver.at('/kyc', 'CUSTOMER.KYC_APPROVED')[0]), { what: 'CUSTOMER.KYC_APPROVED' });
    const customer = (await t.call('GET', `/customers/${customerId}`, { auth: tenant.sandbox })).body;
    expect(approved.json.data).toEqual(customer);
    expect(receiver.at('/kyc', 'CUSTOMER.KYC_PENDING').map((h) => h.json.data.id)).toEqual([customerId]);
    const verification = await eventually(() => Promise.resolve(receiver.at('/kyc', 'VERIFICATION.APPROVED')[0]), { what: 'VERIFICATION.APPROVED' });
    expect(verification.json.data).toMatchObject({ id: submitted.body.id, customerId, verificationStatus: 'APPROVED' });
    // Nothing of this tenant reached another tenant's endpoint.
    expect(receiver.received.filter((h) => h.path !== '/kyc' && JSON.stringify(h.json.data).includes(customerId))).toEqual([]);
  });

  it('1,000 webhooks to 3 platforms, one endpoint slow (2 s): the fast platforms are not held up', async () => {
    const [fastA, fastB, slow] = [await tenantWithEndpoint('/fast-a'), await tenantWithEndpoint('/fast-b'), await tenantWithEndpoint('/slow')];
    receiver.respond('/slow', () => ({ status: 200, delayMs: 2_000 }));
    const enqueuedAt = new Map<string, number>();
    for (let i = 0; i < 1_000; i++) {
      const platform = [fastA, fastB, slow][i % 3].platformId;
      enqueuedAt.set(await enqueue(platform, 'LOAD', { i }), Date.now());
    }
    const latencies = (path: string) => receiver.at(path, 'LOAD').map((h: ReceivedWebhook) => h.at - enqueuedAt.get(h.json.id)!).sort((a, b) => a - b);
    await eventually(() => Promise.resolve(receiver.at('/fast-a', 'LOAD').length + receiver.at('/fast-b', 'LOAD').length === 667), { what: 'fast platforms delivered', timeoutMs: 60_000 });
    const fast = [...latencies('/fast-a'), ...latencies('/fast-b')].sort((a, b) => a - b);
    const p = (q: number, xs: number[]) => xs[Math.min(xs.length - 1, Math.floor(q * xs.length))];
    const slowSoFar = latencies('/slow');
    process.stdout.write(
      `webhook latency enqueue→delivery: fast platforms n=${fast.length} p50=${p(0.5, fast)} ms p99=${p(0.99, fast)} ms max=${fast.at(-1)} ms; ` +
        `slow platform delivered ${slowSoFar.length}/333 so far, p50=${p(0.5, slowSoFar) ?? '-'} ms\n`,
    );
    expect(new Set(receiver.at('/fast-a', 'LOAD').map((h) => h.json.id)).size).toBe(receiver.at('/fast-a', 'LOAD').length); // each once
    expect(p(0.99, fast)).toBeLessThan(2_000); // a slow endpoint's 2 s answers never stand in front of them
    expect(slowSoFar.length).toBeLessThan(333); // the slow platform is still being worked through: it really was slower
  }, 120_000);

  it('sends OUTGOING_PAYMENT.* at each transition of a transfer, the last carrying the transaction as GET returns it', async () => {
    const tenant = await tenantWithEndpoint('/payments');
    const call = (method: string, path: string, body?: unknown) => t.call(method, path, { auth: tenant.sandbox, body });
    const customerId = (await call('POST', '/customers', { customerType: 'INDIVIDUAL', fullName: 'Hook Payer' })).body.id;
    const internal = await eventually(async () => (await call('GET', `/customers/internal-accounts?customerId=${encodeURIComponent(customerId)}&currency=USD`)).body.data?.[0]?.id, { what: 'USD account' });
    expect((await call('POST', `/sandbox/internal-accounts/${internal}/fund`, { amount: 10_000 })).status).toBe(200);
    const external = (await call('POST', '/customers/external-accounts', { customerId, ...usdBankAccount('789') })).body.id;
    await eventually(async () => ((await call('GET', `/customers/external-accounts/${external}`)).body.status === 'ACTIVE' ? true : undefined), { what: 'ACTIVE' });
    const tx = (await call('POST', '/transfer-out', { source: { accountId: internal }, destination: { accountId: external }, amount: 2_500 })).body;
    expect(tx.id).toMatch(/^Transaction:/);
    const completed = await eventually(() => Promise.resolve(receiver.at('/payments', 'OUTGOING_PAYMENT.COMPLETED').find((h) => h.json.data.id === tx.id)), { what: 'OUTGOING_PAYMENT.COMPLETED' });
    expect(completed.json.data).toEqual((await call('GET', `/transactions/${tx.id}`)).body);
    const types = receiver.at('/payments').filter((h) => h.json.data?.id === tx.id).map((h) => h.json.type);
    expect(types[0]).toMatch(/^OUTGOING_PAYMENT\.(PENDING|PROCESSING)$/);
    expect(new Set(types).size).toBe(types.length); // one webhook per transition
  });
});
