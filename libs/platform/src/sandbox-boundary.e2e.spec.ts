import { randomUUID } from 'node:crypto';
import { createServer, Server } from 'node:net';
import { AnyHttpOperation, ApiError, CallerContext, Mode, OPERATIONS, PERMISSIONS, ServiceName } from '@payments/contracts';
import { API_VERSION, ServiceClient } from '@payments/gateway';
import { eventually, freePort } from '@payments/testing';
import { productionState } from './test-production-state';
import { internalAccountOf } from './test-quotes';
import { startTestPlatform, TestPlatform, TestTenant } from './test-platform';
import { rawRequest, spellingsOf } from './test-path-spellings';
import { WebhookReceiver } from './test-webhook-receiver';

/**
 * The sandbox boundary (issue #27 item 1): an operation declared `sandboxOnly` does not exist for production
 * credentials, whatever the spelling of its path, and changes nothing; the service behind it refuses a production
 * caller too, even when the gateway is bypassed. The operations are read from the declarations, so a new sandbox-only
 * operation is covered without touching this file.
 */
const SANDBOX_ONLY = OPERATIONS.filter((op) => op.sandboxOnly);

/** The services' RPC ports, fixed here so the RPC-level test can reach each service as a peer pod would. */
const RPC_PORT_SETTING: Record<ServiceName, string> = {
  identity: 'IDENTITY_RPC_PORT',
  accounts: 'ACCOUNTS_RPC_PORT',
  quoting: 'QUOTING_RPC_PORT',
  payments: 'PAYMENTS_RPC_PORT',
  webhooks: 'WEBHOOK_DISPATCHER_RPC_PORT',
  walletAuth: 'WALLET_AUTH_RPC_PORT',
  cards: 'CARDS_RPC_PORT',
  agents: 'AGENTS_RPC_PORT',
};

/** What a tenant holds in one mode that a sandbox operation could touch: an internal account, a UMA-addressed customer. */
interface ModeFixture {
  auth: string;
  accountId: string;
  uma: string;
}

/** The concrete path of `op` for a fixture: a real account where the operation names one, a well-formed unknown id elsewhere. */
function pathOf(op: AnyHttpOperation, fixture: ModeFixture): string {
  const ids: Record<string, string> = { accountId: fixture.accountId };
  return `/${API_VERSION}${op.path.replace(/\{([^}]+)\}/g, (_, name: string) => ids[name] ?? `${name.replace(/Id$/, '')}:${randomUUID()}`)}`;
}

/** A body the operation would accept (money to the fixture's account or customer); `{}` for one this test does not know yet. */
function bodyOf(op: AnyHttpOperation, fixture: ModeFixture): unknown {
  const bodies: Record<string, unknown> = {
    sandboxFundInternalAccount: { amount: 1_000_000 },
    sandboxSend: { quoteId: `Quote:${randomUUID()}`, currencyCode: 'USD' },
    sandboxReceive: { senderUmaAddress: '$sender@other-vasp.example', receiverUmaAddress: fixture.uma, receivingCurrencyCode: 'USD', receivingCurrencyAmount: 1_000_000 },
    sendTestWebhook: undefined,
    sandboxFundStablecoinOperation: undefined,
  };
  if (op.operationId in bodies) return bodies[op.operationId];
  if (op.operationId.startsWith('sandboxSimulateCard')) return { amount: 100, currency: { code: 'USD' }, merchant: { descriptor: 'BLUE BOTTLE COFFEE SF', mcc: '5814', country: 'US' } };
  return op.body || op.bodyOptional ? {} : undefined;
}

describe('sandbox-only operations and production credentials', () => {
  let t: TestPlatform;
  const ports = {} as Record<ServiceName, number>;
  const receiver = new WebhookReceiver();
  /**
   * The production endpoint (production endpoints must be https): a loopback TCP listener that counts connections,
   * so any delivery attempt in production is seen whether or not TLS could succeed.
   */
  let productionConnections = 0;
  const productionEndpoint: Server = createServer((socket) => {
    productionConnections++;
    socket.destroy();
  });
  let attacker: TestTenant & { platformId?: string };
  let production: ModeFixture;
  let sandbox: ModeFixture;

  /**
   * A customer with a UMA address and its USD internal account, in the mode of `auth`, and the webhook endpoint of
   * that mode set to `endpoint` (its TEST has been tried when this returns).
   */
  async function fixtureOf(auth: string, mode: Mode, endpoint: string, tested: () => boolean): Promise<ModeFixture> {
    const uma = `$holder.${mode.toLowerCase()}.${randomUUID().slice(0, 8)}@platform.example`;
    const created = await t.call('POST', '/customers', { auth, body: { customerType: 'INDIVIDUAL', fullName: 'Account Holder', umaAddress: uma } });
    expect(created.status).toBe(201);
    const accountId = await internalAccountOf(t, auth, created.body.id, 'USD');
    const configured = await t.call('PATCH', '/config', { auth, body: { webhookEndpoint: endpoint } });
    if (configured.status !== 200) throw new Error(`PATCH /config: ${configured.status} ${JSON.stringify(configured.body)}`);
    await eventually(async () => tested(), { what: `the TEST webhook to ${endpoint}` });
    return { auth, accountId, uma };
  }

  /** The production state once it stopped moving (the webhooks and projections of the setup have landed). */
  async function settledProductionState(): Promise<Record<string, string>> {
    let last = await productionState(t.database.url, attacker.platformId!);
    return eventually(async () => {
      await new Promise((resolve) => setTimeout(resolve, 300));
      const now = await productionState(t.database.url, attacker.platformId!);
      const settled = JSON.stringify(now) === JSON.stringify(last);
      last = now;
      return settled ? now : undefined;
    }, { what: 'a settled production state', timeoutMs: 20_000 });
  }

  /** The production balances as the API shows them: every USD customer account and the platform's own accounts. */
  const balances = async (fixture: ModeFixture) => ({
    customers: (await t.call('GET', '/customers/internal-accounts?currency=USD&limit=100', { auth: fixture.auth })).body.data.map((a: Record<string, unknown>) => [a.id, a.balance, a.totalBalance]),
    platform: (await t.call('GET', '/platform/internal-accounts', { auth: fixture.auth })).body,
  });

  beforeAll(async () => {
    await receiver.start();
    await new Promise<void>((resolve) => productionEndpoint.listen(0, '127.0.0.1', resolve));
    const productionPort = (productionEndpoint.address() as { port: number }).port;
    const env: Record<string, string> = { SANDBOX_TIME_SCALE: '0.001' };
    for (const [service, setting] of Object.entries(RPC_PORT_SETTING) as [ServiceName, string][]) env[setting] = String((ports[service] = await freePort()));
    t = await startTestPlatform(env);
    attacker = await t.createTenant('Production tenant');
    production = await fixtureOf(attacker.production, 'PRODUCTION', `https://127.0.0.1:${productionPort}/production`, () => productionConnections > 0);
    sandbox = await fixtureOf(t.tenant.sandbox, 'SANDBOX', receiver.url('/sandbox'), () => receiver.at('/sandbox', 'TEST').length > 0);
  }, 120_000);
  afterAll(async () => {
    await t?.stop();
    await receiver.stop();
    await new Promise((resolve) => productionEndpoint.close(resolve));
  });

  it('declares every operation under /sandbox/ sandbox-only, and there are some', () => {
    expect(SANDBOX_ONLY.length).toBeGreaterThanOrEqual(15);
    expect(OPERATIONS.filter((op) => op.path.toLowerCase().startsWith('/sandbox/') && !op.sandboxOnly).map((op) => op.operationId)).toEqual([]);
  });

  it('answers 4xx in the error envelope to production credentials under every spelling, and nothing changes', async () => {
    const before = await settledProductionState();
    // The digest sees the tenant's production: the events of its customer and of the account opened for it.
    expect(before['identity.events']).toMatch(/^[1-9]/);
    expect(before['accounts.events']).toMatch(/^[1-9]/);
    const hooksBefore = productionConnections;
    const balancesBefore = await balances(production);
    expect(balancesBefore.customers.map(([id]: string[]) => id)).toContain(production.accountId);
    const answered: string[] = [];
    for (const op of SANDBOX_ONLY) {
      for (const spelling of spellingsOf(op.method, pathOf(op, production), { canonical: true })) {
        const res = await rawRequest(t.url, spelling, production.auth, bodyOf(op, production));
        const envelope = typeof res.body === 'object' && res.body !== null && res.body.status === res.status && typeof res.body.code === 'string';
        if (res.status < 400 || res.status >= 500 || !envelope) answered.push(`${op.operationId} (${spelling.name}) ${spelling.method} ${spelling.path}: ${res.status} ${JSON.stringify(res.body).slice(0, 120)}`);
      }
    }
    expect(answered).toEqual([]);
    expect(await balances(production)).toEqual(balancesBefore);
    expect(productionConnections).toBe(hooksBefore);
    expect(await productionState(t.database.url, attacker.platformId!)).toEqual(before);
  });

  it('answers exactly 404 NOT_FOUND, as for an unknown route, to production credentials on the canonical path', async () => {
    for (const op of SANDBOX_ONLY) {
      const res = await rawRequest(t.url, { name: 'canonical', method: op.method, path: pathOf(op, production) }, production.auth, bodyOf(op, production));
      expect({ op: op.operationId, status: res.status, body: res.body }).toEqual({ op: op.operationId, status: 404, body: { status: 404, code: 'NOT_FOUND', message: 'no such resource or route' } });
    }
  });

  it('routes one canonical spelling only: sandbox credentials get no 2xx from any other spelling, and the canonical one works', async () => {
    const answered: string[] = [];
    for (const op of SANDBOX_ONLY) {
      for (const spelling of spellingsOf(op.method, pathOf(op, sandbox))) {
        const res = await rawRequest(t.url, spelling, sandbox.auth, bodyOf(op, sandbox));
        if (res.status < 400 || res.status >= 500) answered.push(`${op.operationId} (${spelling.name}) ${spelling.method} ${spelling.path}: ${res.status}`);
      }
    }
    expect(answered).toEqual([]);
    const fund = SANDBOX_ONLY.find((op) => op.operationId === 'sandboxFundInternalAccount')!;
    const funded = await rawRequest(t.url, { name: 'canonical', method: 'POST', path: pathOf(fund, sandbox) }, sandbox.auth, { amount: 500 });
    expect(funded).toMatchObject({ status: 200, body: { id: sandbox.accountId } });
  });

  it('is refused by the service itself to a production caller that bypasses the gateway, before any effect', async () => {
    const before = await settledProductionState();
    const hooksBefore = productionConnections;
    const caller: CallerContext = { platformId: attacker.platformId!, mode: 'PRODUCTION', clientId: 'bypass', permissions: PERMISSIONS };
    const answers: Record<string, unknown> = {};
    for (const op of SANDBOX_ONLY) {
      const client = new ServiceClient({ name: op.service, host: '127.0.0.1', port: ports[op.service] }, 10_000);
      try {
        const path = pathOf(op, production).slice(API_VERSION.length + 1);
        const params = Object.fromEntries(
          [...op.path.matchAll(/\{([^}]+)\}/g)].map((m) => [m[1], path.split('/')[op.path.split('/').indexOf(m[0])]]),
        );
        const body = op.request({ params, query: {}, body: bodyOf(op, production), origin: 'http://127.0.0.1', signature: {} });
        answers[op.operationId] = await client.call(op.rpc, { caller, body }).then(
          (result) => ({ answered: result }),
          (error: unknown) => (error instanceof ApiError ? { status: error.status, code: error.code } : { error: String(error) }),
        );
      } finally {
        await client.close();
      }
    }
    expect(answers).toEqual(Object.fromEntries(SANDBOX_ONLY.map((op) => [op.operationId, { status: 404, code: 'NOT_FOUND' }])));
    expect(productionConnections).toBe(hooksBefore);
    expect(await productionState(t.database.url, attacker.platformId!)).toEqual(before);
  });
});
