import { randomBytes } from 'node:crypto';
import { createEventBus, EventBus, serviceTopic } from '@payments/messaging';
import { createTestDatabase, TestDatabase } from '@payments/testing';
import { Identity } from '../identity';

/**
 * BOOTSTRAP_* on a first install: every identity replica starts at once on the empty database and each runs
 * ensureBootstrap (issue #42: one of them exited 1 on api_tokens_client_id_key). Exactly one creates the platform;
 * the others find its tokens and start.
 */
describe('ensureBootstrap by replicas starting at once', () => {
  const secretHashKey = randomBytes(32);
  const credentials = {
    SANDBOX: { clientId: 'bootstrap-race', clientSecret: randomBytes(24).toString('hex') },
    PRODUCTION: { clientId: 'bootstrap-race-prod', clientSecret: randomBytes(24).toString('hex') },
  };

  async function withReplicas(count: number, work: (replicas: Identity[]) => Promise<void>): Promise<void> {
    const database: TestDatabase = await createTestDatabase('pp_bootstrap');
    const bus: EventBus = createEventBus({ databaseUrl: database.url, clientId: 'bootstrap-race', namespace: `${database.name}.` });
    const replicas: Identity[] = [];
    try {
      for (let i = 0; i < count; i++) replicas.push(await Identity.open({ databaseUrl: database.url, bus, topic: serviceTopic('identity'), secretHashKey, sandboxTimeScale: 1 }));
      await work(replicas);
    } finally {
      for (const r of replicas) await r.host.stop();
      await bus.close();
      await database.drop();
    }
  }

  it.each([1, 2, 3])('creates one platform and both replicas start (round %i)', async () => {
    await withReplicas(2, async (replicas) => {
      const outcomes = await Promise.allSettled(replicas.map((r) => r.platforms.ensureBootstrap(credentials)));
      expect(outcomes.map((o) => (o.status === 'rejected' ? String(o.reason) : 'ok'))).toEqual(['ok', 'ok']);
      expect(outcomes.filter((o) => o.status === 'fulfilled' && o.value !== undefined)).toHaveLength(1);
      expect(await replicas[0].platforms.count()).toBe(1);
      const [tokens] = await replicas[0].host.dataSource.query(`SELECT count(*)::int AS n FROM api_tokens`);
      expect(tokens.n).toBe(2);
    });
  });

  it('still refuses a known client id whose secret differs, once the platform exists', async () => {
    await withReplicas(1, async ([replica]) => {
      await replica.platforms.ensureBootstrap(credentials);
      await expect(replica.platforms.ensureBootstrap({ ...credentials, SANDBOX: { ...credentials.SANDBOX, clientSecret: 'x'.repeat(48) } })).rejects.toThrow(/keep the original values/);
      expect(await replica.platforms.ensureBootstrap(credentials)).toBeUndefined();
    });
  });
});
