import { eventually, freePort } from '@payments/testing';
import { startTestPlatform, TestPlatform, TestTenant } from './test-platform';
import { WebhookReceiver } from './test-webhook-receiver';

/**
 * Outbound calls made for a tenant never reach the deployment's own network (issue #27 item 2), through the HTTP
 * API with sandbox and production credentials. The only receiver is on 127.0.0.1: with private networks refused (the
 * default of a real deployment) it must see nothing, whatever the spelling; with EGRESS_ALLOW_PRIVATE_NETWORKS=true
 * (local development, and the test harness's default) it is reached, and the sandbox TEST still shows the tenant
 * the receiver's status only, never its body or why a connection failed.
 */
const LOOPBACK_SPELLINGS = [
  '127.0.0.1',
  '2130706433', // decimal
  '0x7f000001', // hex
  '0x7f.1',
  '017700000001', // octal
  '0177.0.0.1',
  '127.1', // short form
  '127.0.0.1.',
  '%31%32%37.0.0.1',
  '[::1]',
  '[::ffff:127.0.0.1]', // IPv4-mapped
  '[0:0:0:0:0:ffff:7f00:1]',
  '[::127.0.0.1]', // IPv4-compatible
  '[64:ff9b::7f00:1]', // NAT64
  '0.0.0.0',
  '0',
  '[::]',
];

describe('egress: private networks refused (EGRESS_ALLOW_PRIVATE_NETWORKS=false, the default of a deployment)', () => {
  let t: TestPlatform;
  const receiver = new WebhookReceiver();
  beforeAll(async () => {
    await receiver.start();
    t = await startTestPlatform({ EGRESS_ALLOW_PRIVATE_NETWORKS: 'false', WEBHOOK_BACKOFF_SCALE: '0.0002', WEBHOOK_TIMEOUT_MS: '2000', DB_POOL_SIZE_MAX: '3' });
  }, 60_000);
  afterAll(async () => {
    await t?.stop();
    await receiver.stop();
  });

  it.each(LOOPBACK_SPELLINGS)('PATCH /config webhookEndpoint http://%s:<port>/ is a 400 naming the field, in both modes, and nothing is set', async (host) => {
    // https in production, where http is refused for another reason; the message says which rule refused it.
    for (const [auth, scheme] of [[t.tenant.sandbox, 'http'], [t.tenant.sandbox, 'https'], [t.tenant.production, 'https']]) {
      const res = await t.call('PATCH', '/config', { auth, body: { webhookEndpoint: `${scheme}://${host}:${receiver.port}/hook` } });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ status: 400, code: 'INVALID_INPUT', details: { errors: [{ field: 'webhookEndpoint', message: expect.stringMatching(/non-public/) }] } });
      expect((await t.call('GET', '/config', { auth })).body).not.toHaveProperty('webhookEndpoint');
    }
    expect(receiver.received).toEqual([]);
  });

  it('a host name that resolves to loopback is accepted as configuration and refused when connecting: TEST and queued webhooks alike', async () => {
    const tenant = (await t.createTenant('Resolves to loopback')) as TestTenant & { platformId: string };
    const endpoint = `http://localhost:${receiver.port}/by-name`;
    expect((await t.call('PATCH', '/config', { auth: tenant.sandbox, body: { webhookEndpoint: endpoint } })).status).toBe(200);

    const test = await t.call('POST', '/sandbox/webhooks/test', { auth: tenant.sandbox });
    expect(test.body).toMatchObject({ status: 400, code: 'WEBHOOK_DELIVERY_ERROR' });
    // The tenant learns nothing about the deployment's network: no address, no range, no connection error.
    expect(JSON.stringify(test.body)).not.toMatch(/127\.0\.0\.1|::1|loopback|private|refused|ECONN|EGRESS/i);

    const { webhooks } = t.platform;
    const webhookId = (await webhooks.queue.enqueue(webhooks.host.dataSource.manager, { eventId: null, platformId: tenant.platformId, mode: 'SANDBOX', type: 'CUSTOMER.KYC_APPROVED', data: { n: 1 }, retryable: true }))!;
    webhooks.worker.nudge();
    await eventually(async () => (await webhooks.queue.attempts(webhookId)).length >= 2, { what: 'two refused attempts' });
    const [first] = await webhooks.queue.attempts(webhookId);
    expect(first).toMatchObject({ response_status: null, error: expect.stringMatching(/refused.*loopback.*EGRESS_ALLOW_PRIVATE_NETWORKS/) });
    expect(receiver.received).toEqual([]);
  });

  // Last in this platform's life: the dispatcher's worker is stopped first, so that even on a build without the check
  // (a PATCH that wrongly succeeds queues a TEST) nothing is ever sent to these non-loopback addresses.
  it.each(['10.0.0.1', '172.16.5.4', '192.168.0.10', '169.254.169.254', '100.64.0.1', '[fd00::1]', '[fe80::1]', '224.0.0.1', '255.255.255.255'])(
    'PATCH /config webhookEndpoint https://%s/ is a 400 in both modes',
    async (host) => {
      await t.platform.webhooks.worker.stop();
      for (const auth of [t.tenant.sandbox, t.tenant.production]) {
        const res = await t.call('PATCH', '/config', { auth, body: { webhookEndpoint: `https://${host}/h` } });
        expect(res.body).toMatchObject({ status: 400, code: 'INVALID_INPUT', details: { errors: [{ field: 'webhookEndpoint', message: expect.stringMatching(/non-public/) }] } });
      }
    },
  );
});

describe('egress: private networks allowed (EGRESS_ALLOW_PRIVATE_NETWORKS=true, the test harness default)', () => {
  let t: TestPlatform;
  const receiver = new WebhookReceiver();
  beforeAll(async () => {
    await receiver.start();
    t = await startTestPlatform({ WEBHOOK_TIMEOUT_MS: '2000', DB_POOL_SIZE_MAX: '3' });
  }, 60_000);
  afterAll(async () => {
    await t?.stop();
    await receiver.stop();
  });

  async function tenantWithEndpoint(endpoint: string): Promise<TestTenant> {
    const tenant = await t.createTenant(`Egress ${endpoint}`);
    expect((await t.call('PATCH', '/config', { auth: tenant.sandbox, body: { webhookEndpoint: endpoint } })).status).toBe(200);
    return tenant;
  }

  it('reaches a loopback receiver in a numeric spelling; the TEST answers its status, never its body', async () => {
    receiver.respond('/internal', () => ({ status: 200, body: 'root:x:0:0:internal secret' }));
    const endpoint = `http://2130706433:${receiver.port}/internal`;
    const tenant = await tenantWithEndpoint(endpoint);
    await eventually(() => Promise.resolve(receiver.at('/internal', 'TEST').length > 0), { what: 'the TEST sent when the endpoint was set' });
    const res = await t.call('POST', '/sandbox/webhooks/test', { auth: tenant.sandbox });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ url: endpoint, response_status: 200, response_body: '' });

    receiver.respond('/internal', () => ({ status: 500, body: 'stack trace with internal details' }));
    const failed = await t.call('POST', '/sandbox/webhooks/test', { auth: tenant.sandbox });
    expect(failed.body).toEqual({ url: endpoint, response_status: 500, response_body: '' });
  });

  it('follows no redirect: the TEST answers the 3xx and the target is never requested', async () => {
    receiver.respond('/moved', () => ({ status: 307, headers: { location: receiver.url('/moved-to') } }));
    const tenant = await tenantWithEndpoint(receiver.url('/moved'));
    const res = await t.call('POST', '/sandbox/webhooks/test', { auth: tenant.sandbox });
    expect(res.body).toEqual({ url: receiver.url('/moved'), response_status: 307, response_body: '' });
    expect(receiver.at('/moved-to')).toEqual([]);
  });

  it('a closed port answers a generic failure, without the connection error', async () => {
    const closed = await freePort(); // nothing listens there
    const tenant = await tenantWithEndpoint(`http://127.0.0.1:${closed}/nobody`);
    const res = await t.call('POST', '/sandbox/webhooks/test', { auth: tenant.sandbox });
    expect(res.body).toMatchObject({ status: 400, code: 'WEBHOOK_DELIVERY_ERROR' });
    expect(JSON.stringify(res.body)).not.toMatch(/ECONN|refused|connect/i);
  });
});
