import { randomBytes } from 'node:crypto';
import type { CallerContext, Mode } from '@payments/contracts';
import { createEventBus, EventBus, serviceTopic, SubscriptionHandle } from '@payments/messaging';
import { createTestDatabase, eventually, TestDatabase } from '@payments/testing';
import { Identity } from '../identity';
import { PlatformConfigCache, ServedPlatformConfig } from './platform-config-cache';
import { evictChangedConfigs } from './platform-config-eviction';

/**
 * GET /config is served from memory (issue #14). Two identity replicas on one database and a real bus: each sees its
 * own change at once and the other's once its event arrives; nothing stale is kept.
 */
describe('platform config cache (two identity replicas, PostgreSQL and its log bus)', () => {
  let database: TestDatabase;
  let bus: EventBus;
  let a: Identity;
  let b: Identity;
  let eviction: SubscriptionHandle;
  let caller: CallerContext;

  beforeAll(async () => {
    database = await createTestDatabase();
    bus = createEventBus({ databaseUrl: database.url, clientId: 'config-cache-test', kafkaBrokers: process.env.KAFKA_BROKERS, namespace: `${database.name}.` });
    const secretHashKey = randomBytes(32);
    const open = () => Identity.open({ databaseUrl: database.url, bus, topic: serviceTopic('identity'), secretHashKey, sandboxTimeScale: 1 });
    a = await open();
    b = await open();
    await b.host.start(); // b's relay publishes b's changes
    eviction = await evictChangedConfigs(bus, a.configs.cache);
    const created = await a.platforms.create('Cached');
    caller = { platformId: created.platformId, mode: 'SANDBOX', clientId: created.sandbox.clientId, permissions: ['MANAGE'] };
  });
  afterAll(async () => {
    await eviction?.stop();
    await b?.host.stop();
    await a?.host.stop();
    await bus?.close();
    await database?.drop();
  });

  const get = (replica: Identity, as: CallerContext = caller) => replica.configs.get(replica.host.dataSource.manager, as);

  it('answers from memory: a row changed behind its back is not seen until the config changes', async () => {
    const first = await get(a);
    const [, changed] = await a.host.dataSource.query(`UPDATE platform_configs SET webhook_endpoint = 'https://behind.example/hook' WHERE platform_id = $1`, [caller.platformId]);
    expect(changed).toBe(2); // both modes' rows
    expect(await get(a)).toEqual(first);
  });

  it('shows its own change at once', async () => {
    await get(a);
    await a.configs.update(caller, { webhookEndpoint: 'https://own.example/hook' }, new Date().toISOString());
    expect((await get(a)).webhookEndpoint).toBe('https://own.example/hook');
  });

  it("shows another replica's change once its event arrives", async () => {
    expect((await get(a)).webhookEndpoint).toBe('https://own.example/hook');
    await b.configs.update(caller, { webhookEndpoint: 'https://other.example/hook' }, new Date().toISOString());
    await eventually(async () => (await get(a)).webhookEndpoint === 'https://other.example/hook', { what: "the other replica's change" });
  });

  it('gives the webhook secret only to MANAGE credentials, cached or not', async () => {
    const managed = await get(a);
    const readOnly = await get(a, { ...caller, permissions: ['VIEW'] });
    expect(managed.webhookSecret).toMatch(/^whsec_/);
    expect(readOnly).not.toHaveProperty('webhookSecret');
    expect({ ...readOnly, webhookSecret: managed.webhookSecret }).toEqual(managed);
  });
});

describe('PlatformConfigCache', () => {
  const config = (umaDomain: string) => ({ umaDomain, webhookSecret: 's' }) as unknown as ServedPlatformConfig;
  const mode: Mode = 'SANDBOX';

  it('does not keep a load that overlapped a change', async () => {
    const cache = new PlatformConfigCache();
    let finish: (c: ServedPlatformConfig) => void = () => undefined;
    const slow = cache.through('P', mode, () => new Promise((r) => (finish = r)));
    cache.forget('P'); // the config changed while the old one was being read
    finish(config('old'));
    expect((await slow).umaDomain).toBe('old');
    expect((await cache.through('P', mode, async () => config('new'))).umaDomain).toBe('new');
  });

  it('keeps at most entriesMax configs', async () => {
    const cache = new PlatformConfigCache(2);
    let loads = 0;
    const load = async () => (loads++, config('x'));
    for (const p of ['P1', 'P2', 'P3', 'P1']) await cache.through(p, mode, load);
    expect(loads).toBe(4); // P1 was evicted by P3
    await cache.through('P3', mode, load);
    expect(loads).toBe(4);
  });
});
