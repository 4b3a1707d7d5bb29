import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeIfKafka, kafkaBrokersForTests } from '@payments/testing';
import { ApiClient, basicAuth, CallResult } from './client';
import { ClusterPlatform } from './cluster-platform';
import { sleep } from './platform-process';

/**
 * The cluster as the chart deploys it (two replicas of every app behind a balancer per Service, its own PostgreSQL
 * server, the test run's Kafka), under the simplest fault: one replica of each app SIGKILLed in turn while requests
 * that need that app are on the wire. A careful client (same Idempotency-Key, retried on no answer, 5xx and 409
 * IDEMPOTENCY_KEY_IN_USE) gets every one of them done by the other replica; a killed replica started again serves.
 */
describeIfKafka('ClusterPlatform: two replicas of every app, one of each killed in turn', () => {
  let cluster: ClusterPlatform;
  let api: ApiClient;
  const dataDir = mkdtempSync(join(tmpdir(), 'pp-cluster-e2e-'));
  const ids: { customer?: string; usd?: string; eur?: string } = {};
  let keys = 0;
  /** Attempts retried (no answer, 5xx, 409 IDEMPOTENCY_KEY_IN_USE): how much of the kills the client felt. */
  const retried: string[] = [];
  const key = () => `cluster-e2e-${keys++}-${randomBytes(4).toString('hex')}`;

  beforeAll(async () => {
    const sandbox = { clientId: `cluster-${randomBytes(4).toString('hex')}`, clientSecret: randomBytes(24).toString('hex') };
    cluster = await ClusterPlatform.create({
      ownPostgres: true, // 18 processes' pools: more connections than the shared test server has
      kafkaBrokers: kafkaBrokersForTests()!.join(','),
      busNamespace: `cluster_e2e_${randomBytes(4).toString('hex')}.`,
      sandbox,
      production: { clientId: `${sandbox.clientId}-prod`, clientSecret: randomBytes(24).toString('hex') },
      secretHashKey: randomBytes(32).toString('hex'),
      dataDir,
    });
    await cluster.start();
    api = new ApiClient(cluster.origin, basicAuth(sandbox.clientId, sandbox.clientSecret), { budgetMs: 60_000, attemptTimeoutMs: 15_000 });
  }, 240_000);

  afterAll(async () => {
    await cluster?.dispose();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const done = (what: string, result: CallResult) => {
    if (result.attempts.length > 1) retried.push(`${what}: ${result.attempts.map((a) => a.status ?? a.error).join(', ')}`);
    if (result.outcome !== 'acked') throw new Error(`${what}: ${result.outcome} after ${JSON.stringify(result.attempts)}; last answer ${JSON.stringify(result.answer?.body)}`);
    return result.answer!.body;
  };

  /** A quote from USD to EUR executed at once, waited for until COMPLETED: quoting, payments and accounts over RPC and Kafka. */
  const executedQuote = async (amount: number) => {
    const body = { source: { sourceType: 'ACCOUNT', accountId: ids.usd }, destination: { destinationType: 'ACCOUNT', accountId: ids.eur }, lockedCurrencySide: 'SENDING', lockedCurrencyAmount: amount, immediatelyExecute: true };
    const quote = done('POST /quotes', await api.call('POST', '/quotes', body, key()));
    const deadline = Date.now() + 60_000;
    for (;;) {
      const status = done(`GET /quotes/${quote.id}`, await api.call('GET', `/quotes/${quote.id}`, undefined, undefined)).status;
      if (status === 'COMPLETED') return quote;
      if (status === 'FAILED' || Date.now() > deadline) throw new Error(`quote ${quote.id} is ${status}`);
      await sleep(100);
    }
  };

  /** One request per app, each needing it (the gateway takes them all). */
  const requestsNeeding: Record<string, () => Promise<unknown>> = {
    identity: async () => done('GET /customers/{id}', await api.call('GET', `/customers/${encodeURIComponent(ids.customer!)}`, undefined, undefined)),
    accounts: async () => done('GET internal accounts', await api.call('GET', `/customers/internal-accounts?customerId=${encodeURIComponent(ids.customer!)}`, undefined, undefined)),
    quoting: async () => done('POST /quotes', await api.call('POST', '/quotes', { source: { sourceType: 'ACCOUNT', accountId: ids.usd }, destination: { destinationType: 'ACCOUNT', accountId: ids.eur }, lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 100 }, key())),
    payments: () => executedQuote(200),
    'webhook-dispatcher': async () => done('GET /webhook-deliveries', await api.call('GET', '/webhook-deliveries', undefined, undefined)),
    'wallet-auth': async () => done('GET /auth/credentials', await api.call('GET', `/auth/credentials?accountId=${encodeURIComponent(ids.usd!)}`, undefined, undefined)),
    cards: async () => done('GET /cards', await api.call('GET', '/cards', undefined, undefined)),
    agents: async () => done('GET /agents', await api.call('GET', '/agents', undefined, undefined)),
    gateway: () => executedQuote(300),
  };

  it('executes a quote to COMPLETED through the balancer', async () => {
    const currency = (code: string) => ({ currencyCode: code, minAmount: 1, maxAmount: 100_000_000, requiredCounterpartyFields: [], enabledTransactionTypes: ['INCOMING', 'OUTGOING'] });
    done('PATCH /config', await api.call('PATCH', '/config', { supportedCurrencies: [currency('USD'), currency('EUR')] }, undefined));
    ids.customer = done('POST /customers', await api.call('POST', '/customers', { customerType: 'INDIVIDUAL', fullName: 'Cluster Customer' }, key())).id;
    const account = async (code: string) => {
      const deadline = Date.now() + 30_000;
      for (;;) {
        const found = done(`${code} account`, await api.call('GET', `/customers/internal-accounts?customerId=${encodeURIComponent(ids.customer!)}&currency=${code}`, undefined, undefined)).data?.[0]?.id as string | undefined;
        if (found) return found;
        if (Date.now() > deadline) throw new Error(`no ${code} account for ${ids.customer}`);
        await sleep(100);
      }
    };
    ids.usd = await account('USD');
    ids.eur = await account('EUR');
    done('fund', await api.call('POST', `/sandbox/internal-accounts/${ids.usd}/fund`, { amount: 1_000_000 }, key()));
    await executedQuote(10_000);
  }, 90_000);

  it('serves every request through the other replica while one replica of each app is killed in turn, and takes a killed replica back', async () => {
    expect(ids.usd).toBeDefined();
    const everyApp = Object.keys(requestsNeeding);
    expect([...everyApp].sort()).toEqual([...cluster.apps].sort()); // a request for every app of the cluster
    for (const app of cluster.apps) {
      // The requests needing it go out first, the kill lands while they are on the wire.
      const running = Promise.all([requestsNeeding[app](), requestsNeeding[app](), requestsNeeding.identity()]);
      await sleep(20);
      await cluster.killReplica(app, 0);
      await running;
      await requestsNeeding[app](); // and after it: only replica 1 is left
    }
    expect(cluster.unexpectedExits).toEqual([]);
    // Back to two replicas of what carries the money path; each serves again.
    await Promise.all(['gateway', 'payments'].map((app) => cluster.startReplica(app, 0)));
    await Promise.all([executedQuote(400), executedQuote(401), executedQuote(402)]);
  }, 150_000);
});
