import { EventEnvelope } from '@payments/eventsourcing';
import { serviceTopic } from '@payments/messaging';
import { basicAuth, eventually, http } from '@payments/testing';
import { startTestPlatform, TestPlatform } from './test-platform';

/**
 * The whole platform in one process, as `npm start` composes it, on a fresh database of the test PostgreSQL and
 * the bus chosen by the environment (Kafka under CI). Talks HTTP only, restarts, and checks nothing was lost.
 */
describe('platform through the gateway (real PostgreSQL, HTTP)', () => {
  let t: TestPlatform;
  beforeAll(async () => {
    t = await startTestPlatform();
  });
  afterAll(() => t?.stop());

  it('serves GET and PATCH /config with Basic auth, refuses bad credentials, and keeps data across a restart', async () => {
    const initial = await t.call('GET', '/config');
    expect(initial.status).toBe(200);
    expect(initial.body.id).toMatch(/^PlatformConfig:[0-9a-f-]{36}$/);
    expect(initial.body.supportedCurrencies.map((c: { currencyCode: string }) => c.currencyCode)).toEqual(['USD']);
    expect(initial.body.umaDomain).toBe('sandbox.uma.money'); // the effective domain: sandbox addresses are generated there

    const wrongSecret = await t.call('GET', '/config', { auth: basicAuth(t.bootstrap.SANDBOX.clientId, 'not-the-secret') });
    expect(wrongSecret.status).toBe(401);
    expect(wrongSecret.body).toEqual({ status: 401, code: 'UNAUTHORIZED', message: expect.any(String) });
    const missing = await http('GET', `${t.url}/config`);
    expect(missing.body).toMatchObject({ status: 401, code: 'UNAUTHORIZED' });

    const patch = {
      webhookEndpoint: 'https://platform.example/webhooks',
      supportedCurrencies: [
        { currencyCode: 'USD', minAmount: 100, maxAmount: 500_000, requiredCounterpartyFields: [{ name: 'FULL_NAME', mandatory: true }], enabledTransactionTypes: ['INCOMING', 'OUTGOING'] },
        { currencyCode: 'MXN', minAmount: 1_000, maxAmount: 9_000_000, requiredCounterpartyFields: [], enabledTransactionTypes: ['OUTGOING'] },
      ],
    };
    const patched = await t.call('PATCH', '/config', { body: patch });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ id: initial.body.id, ...patch });

    // Production credentials see their own configuration, untouched by the sandbox change.
    const prod = await t.call('GET', '/config', { auth: t.tenant.production });
    expect(prod.status).toBe(200);
    expect(prod.body.id).not.toBe(initial.body.id);
    expect(prod.body.webhookEndpoint).toBeUndefined();
    expect(prod.body.umaDomain).toBeUndefined(); // production has no domain until the platform sets one

    await t.restart();

    const after = await t.call('GET', '/config');
    expect(after.status).toBe(200);
    expect(after.body).toMatchObject({ id: initial.body.id, ...patch });
    // A wrong secret is still refused after the restart (no cached acceptance survives).
    expect((await t.call('GET', '/config', { auth: basicAuth(t.bootstrap.SANDBOX.clientId, 'x') })).status).toBe(401);
  });

  it('merges embeddedWalletConfig on PATCH /config: the fields sent change, the others stay; invalid values are 400 naming the field', async () => {
    const before = await t.call('GET', '/config');
    expect(before.status).toBe(200);
    expect(before.body).not.toHaveProperty('embeddedWalletConfig'); // present only once set

    const branding = { appName: 'Acme Wallet', otpLength: 8, sendFromEmailAddress: 'noreply@acme.example', logoUrl: 'https://acme.example/logo.png' };
    const patched = await t.call('PATCH', '/config', { body: { embeddedWalletConfig: branding } });
    expect(patched.status).toBe(200);
    expect(patched.body.embeddedWalletConfig).toEqual(branding);
    expect(patched.body.supportedCurrencies).toEqual(before.body.supportedCurrencies);
    expect((await t.call('GET', '/config')).body.embeddedWalletConfig).toEqual(branding);

    // One more field: the others stay.
    const again = await t.call('PATCH', '/config', { body: { embeddedWalletConfig: { expirationSeconds: 600 } } });
    expect(again.status).toBe(200);
    const merged = { ...branding, expirationSeconds: 600 };
    expect(again.body.embeddedWalletConfig).toEqual(merged);
    // A field changed: only it changes.
    const renamed = await t.call('PATCH', '/config', { body: { embeddedWalletConfig: { appName: 'Acme Pay', alphanumeric: true } } });
    expect(renamed.body.embeddedWalletConfig).toEqual({ ...merged, appName: 'Acme Pay', alphanumeric: true });
    // Other fields leave it alone.
    expect((await t.call('PATCH', '/config', { body: { umaDomain: 'acme.example' } })).body.embeddedWalletConfig).toEqual({ ...merged, appName: 'Acme Pay', alphanumeric: true });

    const errorsOf = async (embeddedWalletConfig: unknown) => {
      const res = await t.call('PATCH', '/config', { body: { embeddedWalletConfig } });
      expect(res.body).toMatchObject({ status: 400, code: 'INVALID_INPUT' });
      return res.body.details.errors.map((e: { field: string }) => e.field).sort();
    };
    expect(await errorsOf({ otpLength: 13 })).toEqual(['embeddedWalletConfig.otpLength']);
    expect(await errorsOf({ otpLength: 3 })).toEqual(['embeddedWalletConfig.otpLength']);
    expect(await errorsOf({ otpLength: '6' })).toEqual(['embeddedWalletConfig.otpLength']);
    expect(await errorsOf({ expirationSeconds: 86_401, alphanumeric: 'yes' })).toEqual(['embeddedWalletConfig.alphanumeric', 'embeddedWalletConfig.expirationSeconds']);
    expect(await errorsOf({ sendFromEmailAddress: 'not-an-email', replyToEmailAddress: 'x@' })).toEqual(['embeddedWalletConfig.replyToEmailAddress', 'embeddedWalletConfig.sendFromEmailAddress']);
    expect(await errorsOf({ logoUrl: 'ftp://acme.example/logo.png', appName: 'x'.repeat(256) })).toEqual(['embeddedWalletConfig.appName', 'embeddedWalletConfig.logoUrl']);
    expect(await errorsOf({ appName: null })).toEqual(['embeddedWalletConfig.appName']); // not nullable as published: leave it out to keep it
    expect(await errorsOf({ colour: 'blue' })).toEqual(['embeddedWalletConfig.colour']);
    expect(await errorsOf(null)).toEqual(['embeddedWalletConfig']);
    expect(await errorsOf('Acme')).toEqual(['embeddedWalletConfig']);

    const after = await t.call('GET', '/config');
    expect(after.body.embeddedWalletConfig).toEqual({ ...merged, appName: 'Acme Pay', alphanumeric: true }); // nothing invalid was kept
  });

  it('relays every identity event to the bus topic, without secret hashes', async () => {
    const seen: EventEnvelope[] = [];
    const subscription = await t.platform.bus.subscribe({
      group: `e2e-${Date.now()}`,
      topics: [serviceTopic('identity')],
      handler: async (envelope) => void seen.push(envelope),
    });
    try {
      const written: { event_id: string }[] = await t.platform.identity.host.dataSource.query(`SELECT event_id FROM identity.events`);
      await eventually(async () => written.every((w) => seen.some((s) => s.eventId === w.event_id)), { what: 'all identity events on the bus' });
      expect(seen.map((e) => e.type)).toEqual(
        expect.arrayContaining(['PlatformCreated.v1', 'TokenCreated.v1', 'PlatformConfigInitialized.v1', 'PlatformConfigUpdated.v1']),
      );
      // Other runs may share the Kafka topic: look at this platform's events only.
      const issued = seen.filter((e) => e.type === 'TokenCreated.v1' && written.some((w) => w.event_id === e.eventId));
      expect(issued).toHaveLength(2);
      expect(issued.every((e) => !('secretHash' in (e.data as object)))).toBe(true);
    } finally {
      await subscription.stop();
    }
  });

  it('answers in the error envelope for bad bodies and unknown routes, and 503 with Retry-After when identity is down', async () => {
    const malformed = await t.call('PATCH', '/config', { rawBody: '{"webhookEndpoint":', headers: { 'content-type': 'application/json' } });
    expect(malformed.body).toEqual({ status: 400, code: 'INVALID_INPUT', message: 'the request body is not valid JSON' });

    const invalid = await t.call('PATCH', '/config', { body: { webhookEndpoint: 42, colour: 'blue' } });
    expect(invalid.status).toBe(400);
    expect(invalid.body.code).toBe('INVALID_INPUT');
    expect(invalid.body.details.errors.map((e: { field: string }) => e.field).sort()).toEqual(['colour', 'webhookEndpoint']);

    const unknown = await t.call('GET', '/no-such-thing');
    expect(unknown.body).toEqual({ status: 404, code: 'NOT_FOUND', message: expect.any(String) });

    const before = await t.call('GET', '/config');
    await t.platform.identity.host.dataSource.query('SELECT 1'); // identity is up; now take its RPC server away
    await t.platform.identityServer.app.close();
    const down = await t.call('GET', '/config');
    // "Retry later", and when: a service down decided nothing, the same request may simply be sent again.
    expect(down.body).toEqual({ status: 503, code: 'SERVICE_UNAVAILABLE', message: expect.any(String), details: { retryAfterSeconds: 2 } });
    expect(down.headers.get('retry-after')).toBe('2');
    expect(before.status).toBe(200);
  });
});
