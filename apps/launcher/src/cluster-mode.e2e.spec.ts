import { ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import { basicAuth, createTestDatabase, describeIfKafka, eventually, freePort, http, TestDatabase } from '@payments/testing';

const APPS = ['identity', 'accounts', 'quoting', 'payments', 'webhook-dispatcher', 'wallet-auth', 'cards', 'agents', 'gateway'] as const;
const mainOf = (app: string) => resolve(__dirname, `../../../dist/apps/${app}/src/main.js`);

/**
 * The cluster mode for real: every app of `apps/` in its own process, on one PostgreSQL database and the Kafka broker
 * of the test run, started one after another as an orchestrator would. A quote executed through the gateway crosses
 * quoting, payments and accounts over RPC and Kafka; SIGTERM stops every process cleanly.
 */
describeIfKafka('cluster mode (one process per app, PostgreSQL and Kafka)', () => {
  let database: TestDatabase;
  const children: { app: string; child: ChildProcess; output: () => string }[] = [];
  const sandbox = { id: `cluster-${randomBytes(4).toString('hex')}`, secret: randomBytes(24).toString('hex') };
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    for (const app of APPS) if (!existsSync(mainOf(app))) throw new Error(`${mainOf(app)} is missing: run npm run build (npm test does it first)`);
    database = await createTestDatabase('pp_cluster');
    const port = async () => String(await freePort());
    env = {
      ...process.env,
      DATABASE_URL: database.url,
      BUS_NAMESPACE: database.name, // this run's own topics and consumer groups on the shared broker
      PORT: await port(),
      GATEWAY_OPS_PORT: await port(), // the gateway's /readyz and /metrics, off the API port
      IDENTITY_RPC_PORT: await port(), IDENTITY_OPS_PORT: await port(),
      ACCOUNTS_RPC_PORT: await port(), ACCOUNTS_OPS_PORT: await port(),
      QUOTING_RPC_PORT: await port(), QUOTING_OPS_PORT: await port(),
      PAYMENTS_RPC_PORT: await port(), PAYMENTS_OPS_PORT: await port(),
      WEBHOOK_DISPATCHER_RPC_PORT: await port(), WEBHOOK_DISPATCHER_OPS_PORT: await port(),
      WALLET_AUTH_RPC_PORT: await port(), WALLET_AUTH_OPS_PORT: await port(),
      CARDS_RPC_PORT: await port(), CARDS_OPS_PORT: await port(),
      AGENTS_RPC_PORT: await port(), AGENTS_OPS_PORT: await port(),
      BOOTSTRAP_SANDBOX_CLIENT_ID: sandbox.id, BOOTSTRAP_SANDBOX_CLIENT_SECRET: sandbox.secret,
      BOOTSTRAP_PRODUCTION_CLIENT_ID: `${sandbox.id}-prod`, BOOTSTRAP_PRODUCTION_CLIENT_SECRET: randomBytes(24).toString('hex'),
      SECRET_HASH_KEY: randomBytes(32).toString('hex'), // every app: the services' RPC is signed under a key derived from it
      SANDBOX_TIME_SCALE: '0.01',
      LOG_LEVEL: 'info',
    };
    for (const app of APPS) {
      const child = spawn(process.execPath, [mainOf(app)], { env, stdio: ['ignore', 'pipe', 'pipe'] });
      let output = '';
      child.stdout!.on('data', (d) => (output += d));
      child.stderr!.on('data', (d) => (output += d));
      children.push({ app, child, output: () => output });
    }
  }, 60_000);

  afterAll(async () => {
    await Promise.all(children.filter((c) => c.child.exitCode === null).map((c) => new Promise((r) => (c.child.once('exit', r), c.child.kill('SIGKILL')))));
    await database?.drop();
  });

  it('serves a quote executed to COMPLETED across the processes, and every process stops on SIGTERM', async () => {
    const gateway = `http://127.0.0.1:${env.PORT}`;
    const gatewayOps = `http://127.0.0.1:${env.GATEWAY_OPS_PORT}`;
    const logs = () => children.map((c) => `--- ${c.app} (exit ${c.child.exitCode})\n${c.output()}`).join('\n');
    let last: unknown;
    const ready = await eventually(async () => {
      const res = await http('GET', `${gatewayOps}/readyz`).catch((e) => ({ status: 0, body: String(e) }));
      last = res.body;
      return res.status === 200 ? res.body : undefined;
    }, { timeoutMs: 120_000, what: 'every app ready' }).catch((error) => {
      throw new Error(`${error.message}; last /readyz: ${JSON.stringify(last)}; output:\n${logs()}`);
    });
    expect(ready.checks).toEqual({ database: 'ok', bus: 'ok', identity: 'ok', accounts: 'ok', quoting: 'ok', payments: 'ok', webhooks: 'ok', walletAuth: 'ok', cards: 'ok', agents: 'ok' });
    expect((await http('GET', `${gateway}/readyz`)).status).toBe(404); // not on the public port
    expect(logs()).not.toMatch(/refused an RPC/); // every app signs with the key the others check

    const base = `${gateway}/2025-10-13`;
    const auth = basicAuth(sandbox.id, sandbox.secret);
    const currency = (code: string) => ({ currencyCode: code, minAmount: 1, maxAmount: 100_000_000, requiredCounterpartyFields: [], enabledTransactionTypes: ['INCOMING', 'OUTGOING'] });
    expect((await http('PATCH', `${base}/config`, { auth, body: { supportedCurrencies: [currency('USD'), currency('EUR')] } })).status).toBe(200);
    const customer = (await http('POST', `${base}/customers`, { auth, body: { customerType: 'INDIVIDUAL', fullName: 'Cluster Customer' } })).body;
    const account = (code: string) =>
      eventually(async () => (await http('GET', `${base}/customers/internal-accounts?customerId=${encodeURIComponent(customer.id)}&currency=${code}`, { auth })).body.data?.[0]?.id as string | undefined, { timeoutMs: 30_000, what: `${code} account` });
    const usd = await account('USD');
    const eur = await account('EUR');
    expect((await http('POST', `${base}/sandbox/internal-accounts/${usd}/fund`, { auth, body: { amount: 100_000 } })).status).toBe(200);
    const quote = (await http('POST', `${base}/quotes`, { auth, body: { source: { sourceType: 'ACCOUNT', accountId: usd }, destination: { destinationType: 'ACCOUNT', accountId: eur }, lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 10_000, immediatelyExecute: true } })).body;
    expect(quote.status).toBe('PROCESSING');
    await eventually(async () => ((await http('GET', `${base}/quotes/${quote.id}`, { auth })).body.status === 'COMPLETED' ? true : undefined), { timeoutMs: 30_000, what: 'quote COMPLETED' });
    const balances = (await http('GET', `${base}/customers/internal-accounts?customerId=${encodeURIComponent(customer.id)}`, { auth })).body.data;
    expect(Object.fromEntries(balances.map((a: any) => [a.balance.currency.code, a.balance.amount]))).toEqual({ USD: 100_000 - quote.totalSendingAmount, EUR: quote.totalReceivingAmount });

    // An agent's token works across the processes, and its deletion stops it at the very next request (the gateway asks
    // the agents process every time: no cache to outlive it).
    const policy = { permissions: ['VIEW_TRANSACTIONS'], defaultExecutionMode: 'AUTO', spendingLimits: { currency: 'USD', perTransactionLimit: 1_000 } };
    const agent = (await http('POST', `${base}/agents`, { auth, body: { name: 'Cluster agent', customerId: customer.id, policy } })).body;
    const redeemed = await http('POST', `${base}/agents/device-codes/${agent.deviceCode.code}/redeem`);
    expect(redeemed.status).toBe(200);
    const bearer = { Authorization: `Bearer ${redeemed.body.accessToken}` };
    expect((await http('GET', `${base}/agents/me`, { headers: bearer })).status).toBe(200);
    expect((await http('DELETE', `${base}/agents/${agent.agent.id}`, { auth })).status).toBe(204);
    expect((await http('GET', `${base}/agents/me`, { headers: bearer })).status).toBe(401);

    const codes = await Promise.all(children.map((c) => new Promise<number | null>((r) => (c.child.once('exit', (code) => r(code)), c.child.kill('SIGTERM')))));
    expect(codes).toEqual(APPS.map(() => 0));
  }, 240_000);
});
