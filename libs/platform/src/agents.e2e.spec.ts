import { Client } from 'pg';
import { eventually } from '@payments/testing';
import {
  accountQuote,
  agentPolicy,
  asAgent,
  awayFromRateWindowEdge,
  bearer,
  connectedAgent,
  convertedUp,
  createAgent,
  redeem,
  TestAgent,
  transfer,
  usageOf,
} from './test-agents';
import { usdBankAccount, balances, expectLedgerClean, payer, untilTransaction } from './test-payments';
import { internalAccountOf } from './test-quotes';
import { startTestPlatform, TestPlatform } from './test-platform';
import { WebhookReceiver } from './test-webhook-receiver';

const currency = (code: string) => ({ currencyCode: code, minAmount: 1, maxAmount: 100_000_000, requiredCounterpartyFields: [], enabledTransactionTypes: ['INCOMING', 'OUTGOING'] });
/** Quotes live 4 s here (QUOTE_TTL_MS): long enough to execute and approve one, short enough to watch one expire. */
const QUOTE_TTL_MS = 4_000;
const FUNDING = 1_000_000;
const UNKNOWN_CUSTOMER = 'Customer:00000000-0000-4000-8000-000000000000';
const terminal = (tx: Record<string, any>) => tx.status === 'COMPLETED' || tx.status === 'FAILED';
const nextUtcDay = () => new Date(Date.parse(`${new Date().toISOString().slice(0, 10)}T00:00:00.000Z`) + 86_400_000).toISOString().slice(0, 10);

/**
 * Agents end to end: real gateway (Basic credentials for Agent Management, the agent's bearer token for Agent
 * Operations, nothing for the device-code redemption), the agents service and the services it acts through, real
 * PostgreSQL, a real webhook receiver. Each test asserts what the platform or the agent sees over HTTP.
 */
describe('agents through the gateway', () => {
  let t: TestPlatform;
  const receiver = new WebhookReceiver();

  beforeAll(async () => {
    await receiver.start();
    t = await startTestPlatform({ SANDBOX_TIME_SCALE: '0.001', QUOTE_TTL_MS: String(QUOTE_TTL_MS), WEBHOOK_BACKOFF_SCALE: '0.0002' });
    const config = await t.call('PATCH', '/config', { body: { supportedCurrencies: [currency('USD'), currency('EUR')], webhookEndpoint: receiver.url('/agents') } });
    expect(config.status).toBe(200);
    await eventually(() => Promise.resolve(receiver.at('/agents', 'TEST').length > 0), { what: 'TEST webhook' });
  }, 60_000);
  afterAll(async () => {
    await t?.stop();
    await receiver.stop();
  });

  const newCustomer = async (auth = t.tenant.sandbox, fullName = 'Agent Owner') => (await t.call('POST', '/customers', { auth, body: { customerType: 'INDIVIDUAL', fullName } })).body.id as string;
  /** A customer with a funded USD account, an empty EUR account and an ACTIVE USD bank account (pull-capable). */
  async function holder(funding = FUNDING): Promise<{ customerId: string; internal: string; external: string; eur: string }> {
    const p = await payer(t, '789', funding);
    return { ...p, eur: await internalAccountOf(t, t.tenant.sandbox, p.customerId, 'EUR') };
  }
  const patchPolicy = (agentId: string, body: Record<string, unknown>) => t.call('PATCH', `/agents/${agentId}/policy`, { body });
  const approve = (agentId: string, actionId: string) => t.call('POST', `/agents/${agentId}/actions/${actionId}/approve`);
  const reject = (agentId: string, actionId: string, reason?: string) => t.call('POST', `/agents/${agentId}/actions/${actionId}/reject`, reason === undefined ? {} : { body: { reason } });
  const approvals = async (query = '') => (await t.call('GET', `/agents/approvals${query}`)).body.data.map((a: { id: string }) => a.id) as string[];
  const expectError = (res: { status: number; body: any }, status: number, code?: string) => {
    expect({ status: res.status, code: res.body?.code }).toEqual({ status, code: code ?? expect.any(String) });
  };

  describe('Agent Management', () => {
    it('POST /agents answers the agent (not connected, no usage) and a device code; list filters and pages; get; rename and pause', async () => {
      const tenant = await t.createTenant('Agents management');
      const auth = tenant.sandbox;
      const [c1, c2] = [await newCustomer(auth, 'Ann'), await newCustomer(auth, 'Bob')];
      const policy = agentPolicy(
        { accountRestrictions: { allowedAccountIds: null, accountRules: [] }, approvalThresholds: { currency: 'USD', amount: 50_000 } },
        { perTransactionLimit: 10_000, dailyLimit: 50_000, dailyTransactionLimit: 10, monthlyLimit: 200_000 },
      );
      const res = await createAgent(t, c1, policy, { auth, name: 'Ledger bot' });
      expect(res.status).toBe(201);
      const month = new Date().toISOString().slice(0, 7);
      expect(res.body).toEqual({
        agent: {
          id: expect.stringMatching(/^Agent:[0-9a-f-]{36}$/),
          name: 'Ledger bot',
          customerId: c1,
          isPaused: false,
          isConnected: false,
          policy,
          usage: { dailyTransactionCount: 0, dailySpend: 0, monthlySpend: 0, dailyResetDate: nextUtcDay(), monthlyResetMonth: expect.stringMatching(/^\d{4}-\d{2}$/) },
          createdAt: expect.any(String),
          updatedAt: expect.any(String),
        },
        deviceCode: { code: expect.stringMatching(/^[A-Z0-9]{4}(-[A-Z0-9]{4}){6}$/), agentId: res.body.agent.id, expiresAt: expect.any(String), redeemed: false },
      });
      expect(res.body.agent.usage.monthlyResetMonth > month).toBe(true);
      const validFor = Date.parse(res.body.deviceCode.expiresAt) - Date.parse(res.body.agent.createdAt);
      expect(Math.abs(validFor - 15 * 60_000)).toBeLessThan(5_000); // AGENT_DEVICE_CODE_TTL_SECONDS' default
      const a1 = res.body.agent;

      const a2 = (await createAgent(t, c1, policy, { auth, name: 'Second' })).body.agent;
      const a3created = (await createAgent(t, c2, policy, { auth, name: 'Third' })).body;
      const a3 = a3created.agent;
      expect((await t.call('PATCH', `/agents/${a2.id}`, { auth, body: { isPaused: true } })).body).toMatchObject({ id: a2.id, isPaused: true });
      expect((await redeem(t, a3created.deviceCode.code)).status).toBe(200);

      const ids = async (query: string) => {
        const page = await t.call('GET', `/agents${query}`, { auth });
        expect(page.status).toBe(200);
        return page.body.data.map((a: { id: string }) => a.id);
      };
      expect(await ids(`?customerId=${encodeURIComponent(c1)}`)).toEqual([a2.id, a1.id]); // newest first
      expect(await ids(`?customerId=${encodeURIComponent(c1)}&isPaused=true`)).toEqual([a2.id]);
      expect(await ids(`?customerId=${encodeURIComponent(c1)}&isPaused=false`)).toEqual([a1.id]);
      expect(await ids('?isConnected=true')).toEqual([a3.id]);
      expect(await ids('?isConnected=false&isPaused=false')).toEqual([a1.id]);
      const first = (await t.call('GET', '/agents?limit=2', { auth })).body;
      expect(first).toMatchObject({ hasMore: true, totalCount: 3, nextCursor: expect.any(String) });
      expect(first.data.map((a: { id: string }) => a.id)).toEqual([a3.id, a2.id]);
      const second = (await t.call('GET', `/agents?limit=2&cursor=${encodeURIComponent(first.nextCursor)}`, { auth })).body;
      expect(second).toMatchObject({ hasMore: false, totalCount: 3 });
      expect(second.data.map((a: { id: string }) => a.id)).toEqual([a1.id]);
      expect(second).not.toHaveProperty('nextCursor');

      const got = await t.call('GET', `/agents/${a1.id}`, { auth });
      expect(got.status).toBe(200);
      expect(got.body).toEqual(second.data[0]);
      expect(got.body).toEqual(a1);
      expect((await t.call('GET', `/agents/${a3.id}`, { auth })).body.isConnected).toBe(true);

      const renamed = await t.call('PATCH', `/agents/${a1.id}`, { auth, body: { name: 'Renamed bot' } });
      expect(renamed.status).toBe(200);
      expect(renamed.body).toEqual({ ...a1, name: 'Renamed bot', updatedAt: expect.any(String) });
      expect(Date.parse(renamed.body.updatedAt)).toBeGreaterThanOrEqual(Date.parse(a1.updatedAt));
      expect((await t.call('PATCH', `/agents/${a1.id}`, { auth, body: { isPaused: true } })).body).toMatchObject({ name: 'Renamed bot', isPaused: true });
      expect((await t.call('PATCH', `/agents/${a1.id}`, { auth, body: { isPaused: false } })).body).toMatchObject({ name: 'Renamed bot', isPaused: false });
      expect((await t.call('GET', `/agents/${a1.id}`, { auth })).body).toMatchObject({ name: 'Renamed bot', isPaused: false });
    });

    it('an unknown customer, another platform\'s customer or an incoherent policy is 400', async () => {
      const policy = agentPolicy();
      expectError(await createAgent(t, UNKNOWN_CUSTOMER, policy), 400, 'INVALID_INPUT');
      const other = await t.createTenant('Agents foreign customer');
      expectError(await createAgent(t, await newCustomer(other.sandbox), policy), 400, 'INVALID_INPUT');
      const customerId = await newCustomer();
      expectError(await createAgent(t, customerId, { ...policy, approvalThresholds: { amount: 5_000 } }), 400, 'INVALID_INPUT');
      expectError(await createAgent(t, customerId, { ...policy, permissions: ['FLY'] }), 400, 'INVALID_INPUT');
      expectError(await t.call('POST', '/agents', { body: { name: 'No policy', customerId } }), 400, 'INVALID_INPUT');
    });

    it('PATCH /agents/{id}/policy changes only what it names: permissions replace, limits field by field, a new currency recasts', async () => {
      const customerId = await newCustomer();
      const a = (await createAgent(t, customerId, agentPolicy({}, { perTransactionLimit: 10_000, dailyLimit: 50_000, dailyTransactionLimit: 5, monthlyLimit: 100_000 }))).body.agent;
      let policy = a.policy;
      const patch = async (body: Record<string, unknown>, expected: Record<string, unknown>) => {
        const res = await patchPolicy(a.id, body);
        expect(res.status).toBe(200);
        policy = { ...policy, ...expected };
        expect(res.body.policy).toEqual(policy);
        expect((await t.call('GET', `/agents/${a.id}`)).body.policy).toEqual(policy);
      };
      await patch({ permissions: ['VIEW_TRANSACTIONS'] }, { permissions: ['VIEW_TRANSACTIONS'] });
      await patch({ permissions: ['CREATE_QUOTES', 'EXECUTE_QUOTES'] }, { permissions: ['CREATE_QUOTES', 'EXECUTE_QUOTES'] });
      await patch({ spendingLimits: { dailyLimit: 60_000 } }, { spendingLimits: { ...policy.spendingLimits, dailyLimit: 60_000 } });
      await patch({ spendingLimits: { monthlyLimit: null, dailyTransactionLimit: 7 } }, { spendingLimits: { ...policy.spendingLimits, monthlyLimit: null, dailyTransactionLimit: 7 } });
      await patch({ defaultExecutionMode: 'APPROVAL_REQUIRED' }, { defaultExecutionMode: 'APPROVAL_REQUIRED' });
      await patch({ approvalThresholds: { currency: 'USD', amount: 2_500 } }, { approvalThresholds: { currency: 'USD', amount: 2_500 } });

      // USD → EUR: the kept amount limits are converted at the mid rate of the moment; the count and null limits stay.
      await awayFromRateWindowEdge();
      const perMillion = convertedUp(1_000_000, 'USD', 'EUR');
      const recast = (amount: number) => Math.round((amount * perMillion) / 1_000_000);
      await patch({ spendingLimits: { currency: 'EUR' } }, { spendingLimits: { currency: 'EUR', perTransactionLimit: recast(10_000), dailyLimit: recast(60_000), dailyTransactionLimit: 7, monthlyLimit: null } });
      expect(policy.spendingLimits.perTransactionLimit).toBeLessThan(10_000); // a euro is worth more than a dollar
      // A limit given with the new currency is taken as given.
      await awayFromRateWindowEdge();
      const back = convertedUp(1_000_000, 'EUR', 'USD');
      await patch(
        { spendingLimits: { currency: 'USD', perTransactionLimit: 777 } },
        { spendingLimits: { currency: 'USD', perTransactionLimit: 777, dailyLimit: Math.round((policy.spendingLimits.dailyLimit * back) / 1_000_000), dailyTransactionLimit: 7, monthlyLimit: null } },
      );
      expectError(await patchPolicy(a.id, { approvalThresholds: { amount: 10 } }), 400, 'INVALID_INPUT');
      expectError(await patchPolicy(a.id, { permissions: ['NOPE'] }), 400, 'INVALID_INPUT');
      expect((await t.call('GET', `/agents/${a.id}`)).body.policy).toEqual(policy);
    });

    it("another platform's agent (or the same platform's production) is 404 on every management route", async () => {
      const p = await holder(0);
      const agent = await connectedAgent(t, p.customerId, agentPolicy({ defaultExecutionMode: 'APPROVAL_REQUIRED' }));
      const pending = await agent.call('POST', '/agents/me/transfer-out', { body: transfer(p.internal, p.external, 100) });
      expect(pending.body.status).toBe('PENDING_APPROVAL');
      const code = (await t.call('POST', `/agents/${agent.id}/device-codes`)).body.code;
      const other = await t.createTenant('Agents outsider');
      for (const auth of [other.sandbox, t.tenant.production]) {
        const routes: [string, string, unknown?][] = [
          ['GET', `/agents/${agent.id}`],
          ['PATCH', `/agents/${agent.id}`, { name: 'Stolen' }],
          ['PATCH', `/agents/${agent.id}/policy`, { permissions: [] }],
          ['POST', `/agents/${agent.id}/device-codes`],
          ['POST', `/agents/${agent.id}/actions/${pending.body.id}/approve`],
          ['POST', `/agents/${agent.id}/actions/${pending.body.id}/reject`, { reason: 'mine now' }],
          ['GET', `/agents/device-codes/${code}/status`],
          ['DELETE', `/agents/${agent.id}`],
        ];
        for (const [method, path, body] of routes) {
          const res = await t.call(method, path, { auth, body });
          expect({ route: `${method} ${path}`, status: res.status }).toEqual({ route: `${method} ${path}`, status: 404 });
        }
        expect((await t.call('GET', '/agents', { auth })).body.data.map((a: { id: string }) => a.id)).not.toContain(agent.id);
        expect((await t.call('GET', `/agents/approvals?agentId=${encodeURIComponent(agent.id)}`, { auth })).body.data).toEqual([]);
      }
      // Nothing changed for the owner: the agent, its policy, its action and the new code are as they were.
      const mine = (await t.call('GET', `/agents/${agent.id}`)).body;
      expect(mine).toMatchObject({ name: 'Test agent', isPaused: false, policy: agent.created.agent.policy });
      expect((await t.call('GET', `/agents/approvals?agentId=${encodeURIComponent(agent.id)}`)).body.data.map((a: { id: string }) => a.id)).toEqual([pending.body.id]);
      expect((await t.call('GET', `/agents/device-codes/${code}/status`)).body).toEqual({ code, redeemed: false });
      expect((await agent.call('GET', '/agents/me')).status).toBe(200);
    });
  });

  describe('device codes and tokens', () => {
    it('redeems with no credentials once; a new code replaces an unredeemed one; the status follows; unknown codes are 404', async () => {
      const customerId = await newCustomer();
      const created = (await createAgent(t, customerId, agentPolicy(), { name: 'Device bot' })).body;
      const agentId = created.agent.id;
      const first = created.deviceCode.code;
      expect((await t.call('GET', `/agents/device-codes/${first}/status`)).body).toEqual({ code: first, redeemed: false });

      const issued = await t.call('POST', `/agents/${agentId}/device-codes`);
      expect(issued.status).toBe(201);
      expect(issued.body).toEqual({ code: expect.stringMatching(/^[A-Z0-9]{4}(-[A-Z0-9]{4}){6}$/), agentId, expiresAt: expect.any(String), redeemed: false });
      const second = issued.body.code;
      expect(second).not.toBe(first);
      expectError(await redeem(t, first), 400, 'DEVICE_CODE_INVALID'); // replaced before it was redeemed

      const redeemed = await redeem(t, second);
      expect(redeemed.status).toBe(200);
      expect(redeemed.body).toEqual({ agentId, agentName: 'Device bot', accessToken: expect.stringMatching(/^agt_[A-Za-z0-9_-]{43}$/), policy: created.agent.policy });
      const token = redeemed.body.accessToken;
      expectError(await redeem(t, second), 400, 'DEVICE_CODE_INVALID');
      expect((await t.call('GET', `/agents/device-codes/${second}/status`)).body).toEqual({ code: second, redeemed: true });
      expect((await t.call('GET', `/agents/device-codes/${first}/status`)).body).toEqual({ code: first, redeemed: false }); // replaced, never redeemed
      expectError(await redeem(t, 'ZZZZ-ZZZZ-ZZZZ-ZZZZ-ZZZZ-ZZZZ-ZZZZ'), 404, 'DEVICE_CODE_NOT_FOUND');
      expectError(await t.call('GET', '/agents/device-codes/ZZZZ-ZZZZ-ZZZZ-ZZZZ-ZZZZ-ZZZZ-ZZZZ/status'), 404);

      // The token is shown that once: the agent as the platform sees it does not hold it, nor does the database.
      const agent = await t.call('GET', `/agents/${agentId}`);
      expect(agent.body.isConnected).toBe(true);
      expect(JSON.stringify(agent.body)).not.toContain(token);
      const db = t.platform.agents.host.dataSource;
      const [{ n }] = await db.query(`SELECT count(*)::int AS n FROM agents.events WHERE data::text LIKE $1`, [`%${token.slice(4)}%`]);
      expect(n).toBe(0);
      expect((await db.query(`SELECT token_hash FROM agents.agent_tokens WHERE agent_id = $1`, [agentId])).map((r: { token_hash: string }) => r.token_hash)).not.toContain(token);

      // The token works on Agent Operations, and only there.
      const me = await t.call('GET', '/agents/me', { auth: bearer(token) });
      expect(me.status).toBe(200);
      expect(me.body).toMatchObject({ id: agentId, name: 'Device bot', customerId, isConnected: true, isPaused: false });
      for (const auth of [bearer(`agt_${'A'.repeat(43)}`), bearer(`${token}x`), bearer('not-a-token'), 'Bearer', '', t.tenant.sandbox]) {
        const refused = await t.call('GET', '/agents/me', { auth });
        expect({ auth, status: refused.status, code: refused.body?.code }).toEqual({ auth, status: 401, code: 'UNAUTHORIZED' });
        expect(refused.headers.get('www-authenticate')).toMatch(/^Bearer\b/);
      }
      expectError(await t.call('GET', '/customers', { auth: bearer(token) }), 401, 'UNAUTHORIZED');
      expectError(await t.call('GET', `/agents/${agentId}`, { auth: bearer(token) }), 401, 'UNAUTHORIZED');
      expectError(await t.call('POST', `/agents/${agentId}/device-codes`, { auth: bearer(token) }), 401, 'UNAUTHORIZED');
    });
  });

  describe('pause and delete', () => {
    it('a paused agent is 401 from the very next request until resumed; a deleted one for good, its waiting actions rejected', async () => {
      const p = await holder(10_000);
      const agent = await connectedAgent(t, p.customerId, agentPolicy({ defaultExecutionMode: 'APPROVAL_REQUIRED' }));
      expect((await agent.call('GET', '/agents/me')).status).toBe(200);
      expect((await t.call('PATCH', `/agents/${agent.id}`, { body: { isPaused: true } })).status).toBe(200);
      expectError(await agent.call('GET', '/agents/me'), 401, 'UNAUTHORIZED');
      expectError(await agent.call('POST', '/agents/me/transfer-out', { body: transfer(p.internal, p.external, 100) }), 401, 'UNAUTHORIZED');
      expect((await t.call('PATCH', `/agents/${agent.id}`, { body: { isPaused: false } })).status).toBe(200);
      expect((await agent.call('GET', '/agents/me')).status).toBe(200);

      const waiting = (await agent.call('POST', '/agents/me/transfer-out', { body: transfer(p.internal, p.external, 100) })).body;
      expect(waiting.status).toBe('PENDING_APPROVAL');
      const outstanding = (await t.call('POST', `/agents/${agent.id}/device-codes`)).body.code;
      const deleted = await t.call('DELETE', `/agents/${agent.id}`);
      expect(deleted.status).toBe(204);
      expectError(await agent.call('GET', '/agents/me'), 401, 'UNAUTHORIZED');
      expectError(await t.call('GET', `/agents/${agent.id}`), 404, 'AGENT_NOT_FOUND');
      expectError(await t.call('PATCH', `/agents/${agent.id}`, { body: { isPaused: false } }), 404, 'AGENT_NOT_FOUND');
      expectError(await t.call('DELETE', `/agents/${agent.id}`), 404, 'AGENT_NOT_FOUND');
      expect((await t.call('GET', `/agents?customerId=${encodeURIComponent(p.customerId)}`)).body.data).toEqual([]);
      expect((await t.call('GET', `/agents/approvals?agentId=${encodeURIComponent(agent.id)}`)).body.data).toEqual([]);
      expect(await t.platform.agents.actions.view(waiting.id)).toMatchObject({ status: 'REJECTED', rejectionReason: 'AGENT_DELETED' });
      // A code issued before the delete gives no token afterwards.
      const late = await redeem(t, outstanding);
      expect(late.status).toBe(404);
      expect(late.body).not.toHaveProperty('accessToken');
      expectError(await t.call('GET', `/agents/device-codes/${outstanding}/status`), 404);
      expect(await balances(t, p.customerId)).toEqual({ balance: 10_000, totalBalance: 10_000 });
    });
  });

  describe('permissions', () => {
    it('each Agent Operation is 403 FORBIDDEN without its permission and allowed with it', async () => {
      const p = await holder();
      const agent = await connectedAgent(t, p.customerId, agentPolicy({ permissions: [] }));
      const grant = async (...permissions: string[]) => expect((await patchPolicy(agent.id, { permissions })).status).toBe(200);
      const platformTx = (await t.call('POST', '/transfer-out', { body: transfer(p.internal, p.external, 10) })).body.id;
      const account = (await t.call('POST', '/customers/external-accounts', { body: { customerId: p.customerId, ...usdBankAccount('790') } })).body.id;

      type Op = [permission: string, method: string, path: () => string, body?: () => unknown];
      let quoteId = '';
      let created = '';
      const ops: Op[] = [
        ['CREATE_QUOTES', 'POST', () => '/agents/me/quotes', () => accountQuote(p.internal, p.eur, 1_000)],
        ['EXECUTE_QUOTES', 'POST', () => `/agents/me/quotes/${quoteId}/execute`],
        ['CREATE_TRANSFERS', 'POST', () => '/agents/me/transfer-out', () => transfer(p.internal, p.external, 100)],
        ['CREATE_TRANSFERS', 'POST', () => '/agents/me/transfer-in', () => transfer(p.external, p.internal, 100)],
        ['VIEW_TRANSACTIONS', 'GET', () => '/agents/me/transactions'],
        ['VIEW_TRANSACTIONS', 'GET', () => `/agents/me/transactions/${platformTx}`],
        ['MANAGE_EXTERNAL_ACCOUNTS', 'GET', () => '/agents/me/external-accounts'],
        ['MANAGE_EXTERNAL_ACCOUNTS', 'POST', () => '/agents/me/external-accounts', () => usdBankAccount('791')],
        ['MANAGE_EXTERNAL_ACCOUNTS', 'GET', () => `/agents/me/external-accounts/${account}`],
        ['MANAGE_EXTERNAL_ACCOUNTS', 'DELETE', () => `/agents/me/external-accounts/${created}`],
      ];
      const run = (op: Op) => agent.call(op[1], op[2](), { body: op[3]?.() });
      const label = (op: Op) => `${op[1]} ${op[2]()}`;

      // With no permission: 403 everywhere a permission is needed; the agent's own reads still answer.
      quoteId = 'Quote:00000000-0000-4000-8000-000000000000';
      created = account;
      for (const op of ops) {
        const res = await run(op);
        expect({ op: label(op), status: res.status, code: res.body?.code }).toEqual({ op: label(op), status: 403, code: 'FORBIDDEN' });
      }
      for (const path of ['/agents/me', '/agents/me/actions', '/agents/me/internal-accounts']) expect((await agent.call('GET', path)).status).toBe(200);

      // Each permission alone: its operations answer, the others stay 403.
      const expected: Record<string, number> = { POST: 201, GET: 200, DELETE: 204 };
      for (const permission of ['CREATE_QUOTES', 'EXECUTE_QUOTES', 'CREATE_TRANSFERS', 'VIEW_TRANSACTIONS', 'MANAGE_EXTERNAL_ACCOUNTS']) {
        if (permission === 'EXECUTE_QUOTES') {
          await grant('CREATE_QUOTES');
          quoteId = (await agent.call('POST', '/agents/me/quotes', { body: accountQuote(p.internal, p.eur, 1_000) })).body.id;
        }
        await grant(permission);
        if (permission === 'MANAGE_EXTERNAL_ACCOUNTS') created = (await agent.call('POST', '/agents/me/external-accounts', { body: usdBankAccount('792') })).body.id;
        for (const op of ops) {
          const res = await run(op);
          const path = op[2]();
          const want = op[0] !== permission ? 403 : path.endsWith('/execute') ? 200 : expected[op[1]];
          expect({ op: label(op), with: permission, status: res.status }).toEqual({ op: label(op), with: permission, status: want });
          if (want === 403) {
            expect(res.body.code).toBe('FORBIDDEN');
          } else if (path === '/agents/me/quotes') {
            expect(res.body).toMatchObject({ id: expect.stringMatching(/^Quote:/), status: 'PENDING', sendingCurrency: { code: 'USD' }, receivingCurrency: { code: 'EUR' } });
          } else if (path.endsWith('/execute')) {
            expect(res.body).toMatchObject({ type: 'EXECUTE_QUOTE', status: 'APPROVED', quote: { id: quoteId }, transaction: { id: expect.stringMatching(/^Transaction:/) } });
          } else if (path.startsWith('/agents/me/transfer')) {
            expect(res.body).toMatchObject({ status: 'APPROVED', type: path.endsWith('out') ? 'TRANSFER_OUT' : 'TRANSFER_IN', transaction: { id: expect.stringMatching(/^Transaction:/) } });
          }
        }
      }
    });
  });

  describe("scope: the agent's customer, the allowed accounts, its own quotes", () => {
    let p: Awaited<ReturnType<typeof holder>>;
    let q: Awaited<ReturnType<typeof holder>>;
    let agent: TestAgent;

    beforeAll(async () => {
      [p, q] = [await holder(), await holder()];
      agent = await connectedAgent(t, p.customerId, agentPolicy());
    });

    it("another customer's internal or external account in a transfer or quote is 404", async () => {
      const cases: [string, unknown][] = [
        ['/agents/me/transfer-out', transfer(q.internal, p.external, 100)],
        ['/agents/me/transfer-out', transfer(p.internal, q.external, 100)],
        ['/agents/me/transfer-in', transfer(q.external, p.internal, 100)],
        ['/agents/me/transfer-in', transfer(p.external, q.internal, 100)],
        ['/agents/me/quotes', accountQuote(q.internal, p.eur, 1_000)],
        ['/agents/me/quotes', accountQuote(p.internal, q.eur, 1_000)],
        ['/agents/me/transfer-out', transfer('InternalAccount:00000000-0000-4000-8000-000000000000', p.external, 100)],
      ];
      for (const [path, body] of cases) {
        const res = await agent.call('POST', path, { body });
        expect({ path, body, status: res.status }).toEqual({ path, body, status: 404 });
      }
      expect(await usageOf(agent)).toMatchObject({ dailyTransactionCount: 0, dailySpend: 0 });
      expect(await balances(t, q.customerId)).toEqual({ balance: FUNDING, totalBalance: FUNDING });
    });

    it('an internal account outside allowedAccountIds is 404, and not listed', async () => {
      const restricted = await connectedAgent(t, p.customerId, agentPolicy({ accountRestrictions: { allowedAccountIds: [p.eur] } }));
      expectError(await restricted.call('POST', '/agents/me/transfer-out', { body: transfer(p.internal, p.external, 100) }), 404);
      expectError(await restricted.call('POST', '/agents/me/quotes', { body: accountQuote(p.internal, p.eur, 1_000) }), 404);
      const listed = await restricted.call('GET', '/agents/me/internal-accounts');
      expect(listed.body).toMatchObject({ hasMore: false, totalCount: 1 });
      expect(listed.body.data.map((a: { id: string }) => a.id)).toEqual([p.eur]);
      const all = await agent.call('GET', '/agents/me/internal-accounts');
      expect(new Set(all.body.data.map((a: { id: string }) => a.id))).toEqual(new Set([p.internal, p.eur]));
    });

    it("a quote the agent did not create is 404 (another agent's, the platform's)", async () => {
      const own = await agent.call('POST', '/agents/me/quotes', { body: accountQuote(p.internal, p.eur, 1_000) });
      expect(own.status).toBe(201);
      expect((await agent.call('GET', `/agents/me/quotes/${own.body.id}`)).body).toEqual(own.body);
      const sibling = await connectedAgent(t, p.customerId, agentPolicy());
      expectError(await sibling.call('GET', `/agents/me/quotes/${own.body.id}`), 404, 'QUOTE_NOT_FOUND');
      expectError(await sibling.call('POST', `/agents/me/quotes/${own.body.id}/execute`), 404, 'QUOTE_NOT_FOUND');
      const platformQuote = await t.call('POST', '/quotes', { body: accountQuote(p.internal, p.eur, 1_000) });
      expect(platformQuote.status).toBe(201);
      expectError(await agent.call('GET', `/agents/me/quotes/${platformQuote.body.id}`), 404, 'QUOTE_NOT_FOUND');
      expectError(await agent.call('POST', `/agents/me/quotes/${platformQuote.body.id}/execute`), 404, 'QUOTE_NOT_FOUND');
      expect((await t.call('GET', `/quotes/${platformQuote.body.id}`)).body.status).toBe('PENDING');
    });

    it("transactions: only the customer's are listed; another customer's is 404", async () => {
      const mine = (await t.call('POST', '/transfer-out', { body: transfer(p.internal, p.external, 11) })).body.id;
      const theirs = (await t.call('POST', '/transfer-out', { body: transfer(q.internal, q.external, 12) })).body.id;
      await Promise.all([untilTransaction(t, mine, terminal), untilTransaction(t, theirs, terminal)]);
      const listed = await agent.call('GET', '/agents/me/transactions?limit=100');
      expect(listed.status).toBe(200);
      const ids = listed.body.data.map((x: { id: string }) => x.id);
      expect(ids).toContain(mine);
      expect(ids).not.toContain(theirs);
      expect(listed.body.data.every((x: { customerId: string }) => x.customerId === p.customerId)).toBe(true);
      // A customer filter is not the agent's to choose: the operation has none, so it is an unknown field.
      expectError(await agent.call('GET', `/agents/me/transactions?customerId=${encodeURIComponent(q.customerId)}`), 400, 'INVALID_INPUT');
      expect((await agent.call('GET', `/agents/me/transactions/${mine}`)).body).toMatchObject({ id: mine, customerId: p.customerId });
      expectError(await agent.call('GET', `/agents/me/transactions/${theirs}`), 404);
    });

    it("external accounts: created for the agent's customer without customerId; another customer's is 404", async () => {
      const created = await agent.call('POST', '/agents/me/external-accounts', { body: usdBankAccount('793') });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ id: expect.stringMatching(/^ExternalAccount:/), customerId: p.customerId, currency: 'USD' });
      expectError(await agent.call('POST', '/agents/me/external-accounts', { body: { customerId: q.customerId, ...usdBankAccount('794') } }), 404);
      expect((await agent.call('POST', '/agents/me/external-accounts', { body: { customerId: p.customerId, ...usdBankAccount('795') } })).status).toBe(201);
      expect((await t.call('GET', `/customers/external-accounts?customerId=${encodeURIComponent(q.customerId)}`)).body.data.map((a: { id: string }) => a.id)).toEqual([q.external]);
      const listed = (await agent.call('GET', '/agents/me/external-accounts?limit=100')).body.data;
      expect(listed.map((a: { id: string }) => a.id)).toEqual(expect.arrayContaining([p.external, created.body.id]));
      expect(listed.every((a: { customerId: string }) => a.customerId === p.customerId)).toBe(true);
      expect((await agent.call('GET', `/agents/me/external-accounts/${created.body.id}`)).body.id).toBe(created.body.id);
      expectError(await agent.call('GET', `/agents/me/external-accounts/${q.external}`), 404);
      expectError(await agent.call('DELETE', `/agents/me/external-accounts/${q.external}`), 404);
      expect((await t.call('GET', `/customers/external-accounts/${q.external}`)).status).toBe(200);
      expect((await agent.call('DELETE', `/agents/me/external-accounts/${created.body.id}`)).status).toBe(204);
    });
  });

  describe('limits', () => {
    const out = (agent: TestAgent, p: { internal: string; external: string }, amount: number) => agent.call('POST', '/agents/me/transfer-out', { body: transfer(p.internal, p.external, amount) });

    it('per transaction: exactly the limit passes, one more is 403 LIMIT_EXCEEDED; an account rule overrides it', async () => {
      const p = await holder();
      const agent = await connectedAgent(t, p.customerId, agentPolicy({}, { perTransactionLimit: 1_000 }));
      expect((await out(agent, p, 1_000)).body).toMatchObject({ status: 'APPROVED', transferDetails: { amount: 1_000, currency: 'USD', sourceAccountId: p.internal, destinationAccountId: p.external } });
      expectError(await out(agent, p, 1_001), 403, 'LIMIT_EXCEEDED');
      expect(await usageOf(agent)).toMatchObject({ dailyTransactionCount: 1, dailySpend: 1_000, monthlySpend: 1_000 });

      // The account's rule is the limit for that account, lower or higher than the policy's.
      await patchPolicy(agent.id, { accountRestrictions: { accountRules: [{ accountId: p.internal, perTransactionLimit: 300 }] } });
      expect((await out(agent, p, 300)).status).toBe(201);
      expectError(await out(agent, p, 301), 403, 'LIMIT_EXCEEDED');
      await patchPolicy(agent.id, { accountRestrictions: { accountRules: [{ accountId: p.internal, perTransactionLimit: 5_000 }] } });
      expect((await out(agent, p, 5_000)).status).toBe(201);
      expectError(await out(agent, p, 5_001), 403, 'LIMIT_EXCEEDED');
      // A rule with a null limit inherits the policy's.
      await patchPolicy(agent.id, { accountRestrictions: { accountRules: [{ accountId: p.internal, perTransactionLimit: null }] } });
      expectError(await out(agent, p, 1_001), 403, 'LIMIT_EXCEEDED');
      expect(await usageOf(agent)).toMatchObject({ dailyTransactionCount: 3, dailySpend: 6_300 });
    });

    it('daily amount, daily count and monthly amount: reached is 403; usage on /agents/me counts them', async () => {
      const p = await holder();
      const daily = await connectedAgent(t, p.customerId, agentPolicy({}, { perTransactionLimit: 1_000, dailyLimit: 2_500 }));
      for (const amount of [1_000, 1_000, 500]) expect((await out(daily, p, amount)).status).toBe(201);
      expectError(await out(daily, p, 1), 403, 'LIMIT_EXCEEDED');
      expect(await usageOf(daily)).toEqual({ dailyTransactionCount: 3, dailySpend: 2_500, monthlySpend: 2_500, dailyResetDate: nextUtcDay(), monthlyResetMonth: expect.any(String) });

      const counted = await connectedAgent(t, p.customerId, agentPolicy({}, { dailyTransactionLimit: 2 }));
      for (let i = 0; i < 2; i++) expect((await out(counted, p, 10)).status).toBe(201);
      expectError(await out(counted, p, 10), 403, 'LIMIT_EXCEEDED');
      expect(await usageOf(counted)).toMatchObject({ dailyTransactionCount: 2, dailySpend: 20 });

      const monthly = await connectedAgent(t, p.customerId, agentPolicy({}, { monthlyLimit: 1_500, dailyLimit: null }));
      expect((await out(monthly, p, 1_000)).status).toBe(201);
      expectError(await out(monthly, p, 501), 403, 'LIMIT_EXCEEDED');
      expect((await out(monthly, p, 500)).status).toBe(201);
      expectError(await out(monthly, p, 1), 403, 'LIMIT_EXCEEDED');
      expect(await usageOf(monthly)).toMatchObject({ monthlySpend: 1_500, dailySpend: 1_500, dailyTransactionCount: 2 });
      // Raising the limit is effective at the next request.
      await patchPolicy(monthly.id, { spendingLimits: { monthlyLimit: 1_501 } });
      expect((await out(monthly, p, 1)).status).toBe(201);
    });

    it('a limit in another currency converts the amount at the sandbox mid rate, rounded up', async () => {
      const p = await holder();
      await awayFromRateWindowEdge();
      const amount = 10_000; // USD cents
      const inEur = convertedUp(amount, 'USD', 'EUR');
      expect(inEur).toBeLessThan(amount);
      const agent = await connectedAgent(t, p.customerId, agentPolicy({}, { currency: 'EUR', perTransactionLimit: inEur }));
      expect((await out(agent, p, amount)).body.status).toBe('APPROVED');
      expectError(await out(agent, p, amount + 2), 403, 'LIMIT_EXCEEDED'); // 2 cents more is at least a euro cent more
      expect(await usageOf(agent)).toMatchObject({ dailyTransactionCount: 1, dailySpend: inEur, monthlySpend: inEur });
      // A quote is counted by what it sends, in the limits' currency.
      const quote = (await agent.call('POST', '/agents/me/quotes', { body: accountQuote(p.internal, p.eur, 2_000) })).body;
      await patchPolicy(agent.id, { spendingLimits: { perTransactionLimit: 1_000_000 } });
      const executed = (await agent.call('POST', `/agents/me/quotes/${quote.id}/execute`)).body;
      expect(executed.status).toBe('APPROVED');
      expect(await usageOf(agent)).toMatchObject({ dailyTransactionCount: 2, dailySpend: inEur + convertedUp(quote.totalSendingAmount, 'USD', 'EUR') });
    });

    it('a rejected action gives its amount back', async () => {
      const p = await holder();
      const agent = await connectedAgent(t, p.customerId, agentPolicy({ defaultExecutionMode: 'APPROVAL_REQUIRED' }, { dailyLimit: 1_000 }));
      const waiting = (await out(agent, p, 1_000)).body;
      expect(waiting.status).toBe('PENDING_APPROVAL');
      expect(await usageOf(agent)).toMatchObject({ dailySpend: 1_000, dailyTransactionCount: 1 });
      expectError(await out(agent, p, 1), 403, 'LIMIT_EXCEEDED');
      expect((await t.call('POST', `/agents/${agent.id}/actions/${waiting.id}/reject`, { body: { reason: 'too much' } })).body.status).toBe('REJECTED');
      expect(await usageOf(agent)).toMatchObject({ dailySpend: 0, dailyTransactionCount: 0, monthlySpend: 0 });
      expect((await out(agent, p, 1_000)).body.status).toBe('PENDING_APPROVAL');
    });
  });

  it('a burst of 10 parallel transfer-outs against a daily limit that fits 3: exactly 3 accepted, 7 refused; money and ledger agree', async () => {
    const p = await holder(10_000);
    const amount = 700;
    const agent = await connectedAgent(t, p.customerId, agentPolicy({}, { dailyLimit: 3 * amount }));
    const results = await Promise.all(Array.from({ length: 10 }, () => agent.call('POST', '/agents/me/transfer-out', { body: transfer(p.internal, p.external, amount) })));
    expect(results.map((r) => r.status).sort()).toEqual([...Array(3).fill(201), ...Array(7).fill(403)]);
    expect(results.filter((r) => r.status === 403).every((r) => r.body.code === 'LIMIT_EXCEEDED')).toBe(true);
    const accepted = results.filter((r) => r.status === 201).map((r) => r.body);
    expect(accepted.every((a) => a.status === 'APPROVED' && a.transaction)).toBe(true);
    expect(await usageOf(agent)).toMatchObject({ dailySpend: 3 * amount, dailyTransactionCount: 3 });
    await Promise.all(accepted.map((a) => untilTransaction(t, a.transaction.id, (tx) => tx.status === 'COMPLETED')));
    expect(await balances(t, p.customerId)).toEqual({ balance: 10_000 - 3 * amount, totalBalance: 10_000 - 3 * amount });
    expect((await agent.call('GET', '/agents/me/actions?limit=100')).body.totalCount).toBe(3);
    await expectLedgerClean(t);
  });

  describe('approval', () => {
    it('APPROVAL_REQUIRED: 201 PENDING_APPROVAL without transaction, the webhook, the queue; approve moves the money once; reject moves nothing', async () => {
      const p = await holder(10_000);
      const agent = await connectedAgent(t, p.customerId, agentPolicy({ defaultExecutionMode: 'APPROVAL_REQUIRED' }));
      const customer = (await t.call('GET', `/customers/${p.customerId}`)).body;
      const res = await agent.call('POST', '/agents/me/transfer-out', { body: transfer(p.internal, p.external, 2_500) });
      expect(res.status).toBe(201);
      const action = res.body;
      expect(action).toEqual({
        id: expect.stringMatching(/^AgentAction:[0-9a-f-]{36}$/),
        agentId: agent.id,
        customerId: p.customerId,
        platformCustomerId: customer.platformCustomerId,
        status: 'PENDING_APPROVAL',
        type: 'TRANSFER_OUT',
        transferDetails: { amount: 2_500, currency: 'USD', sourceAccountId: p.internal, destinationAccountId: p.external },
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      });
      expect(await balances(t, p.customerId)).toEqual({ balance: 10_000, totalBalance: 10_000 });
      const hook = await eventually(() => Promise.resolve(receiver.at('/agents', 'AGENT_ACTION.PENDING_APPROVAL').find((h) => h.json.data.id === action.id)), { what: 'AGENT_ACTION.PENDING_APPROVAL' });
      expect(hook.json.data).toEqual(action);
      expect((await agent.call('GET', `/agents/me/actions/${action.id}`)).body).toEqual(action);

      const sibling = await connectedAgent(t, p.customerId, agentPolicy({ defaultExecutionMode: 'APPROVAL_REQUIRED' }));
      const other = (await sibling.call('POST', '/agents/me/transfer-out', { body: transfer(p.internal, p.external, 1_000) })).body;
      expect(await approvals(`?agentId=${encodeURIComponent(agent.id)}`)).toEqual([action.id]);
      expect(await approvals(`?agentId=${encodeURIComponent(sibling.id)}`)).toEqual([other.id]);
      expect(await approvals(`?customerId=${encodeURIComponent(p.customerId)}`)).toEqual([other.id, action.id]);
      expect(await approvals(`?customerId=${encodeURIComponent(p.customerId)}&sortOrder=asc`)).toEqual([action.id, other.id]);
      expect(await approvals()).toEqual(expect.arrayContaining([action.id, other.id]));
      expectError(await approve(sibling.id, action.id), 404); // the action is not that agent's

      const approved = await approve(agent.id, action.id);
      expect(approved.status).toBe(200);
      expect(approved.body).toMatchObject({ id: action.id, status: 'APPROVED', transaction: { id: expect.stringMatching(/^Transaction:/), type: 'OUTGOING', customerId: p.customerId } });
      const tx = await untilTransaction(t, approved.body.transaction.id, (x) => x.status === 'COMPLETED');
      expect(tx.sentAmount.amount).toBe(2_500);
      expect(await balances(t, p.customerId)).toEqual({ balance: 7_500, totalBalance: 7_500 });
      expectError(await approve(agent.id, action.id), 409, 'INVALID_STATE_TRANSITION');
      expectError(await reject(agent.id, action.id, 'late'), 409, 'INVALID_STATE_TRANSITION');
      expect((await agent.call('GET', `/agents/me/actions/${action.id}`)).body).toMatchObject({ status: 'APPROVED', transaction: { id: tx.id } });
      expect(await approvals(`?customerId=${encodeURIComponent(p.customerId)}`)).toEqual([other.id]);

      const rejected = await reject(sibling.id, other.id, 'not today');
      expect(rejected.status).toBe(200);
      expect(rejected.body).toEqual({ ...other, status: 'REJECTED', rejectionReason: 'not today', updatedAt: expect.any(String) });
      expect(rejected.body).not.toHaveProperty('transaction');
      expectError(await approve(sibling.id, other.id), 409, 'INVALID_STATE_TRANSITION');
      expect(await approvals(`?customerId=${encodeURIComponent(p.customerId)}`)).toEqual([]);
      expect((await sibling.call('GET', '/agents/me/actions?status=REJECTED')).body.data.map((a: { id: string }) => a.id)).toEqual([other.id]);
      await new Promise((r) => setTimeout(r, 100));
      expect(await balances(t, p.customerId)).toEqual({ balance: 7_500, totalBalance: 7_500 });
      // A reject with no body has no reason.
      const third = (await sibling.call('POST', '/agents/me/transfer-out', { body: transfer(p.internal, p.external, 1) })).body;
      expect((await reject(sibling.id, third.id)).body).toMatchObject({ status: 'REJECTED' });
      await expectLedgerClean(t);
    });

    it('AUTO above approvalThresholds (converted), or an account rule APPROVAL_REQUIRED, waits; at the threshold it runs', async () => {
      const p = await holder();
      const agent = await connectedAgent(t, p.customerId, agentPolicy({ approvalThresholds: { currency: 'USD', amount: 400 } }));
      const out = (amount: number, source = p.internal) => agent.call('POST', '/agents/me/transfer-out', { body: transfer(source, p.external, amount) });
      expect((await out(400)).body).toMatchObject({ status: 'APPROVED', transaction: { id: expect.any(String) } });
      const above = (await out(401)).body;
      expect(above.status).toBe('PENDING_APPROVAL');
      expect(above).not.toHaveProperty('transaction');
      expect(await approvals(`?agentId=${encodeURIComponent(agent.id)}`)).toEqual([above.id]);

      await awayFromRateWindowEdge();
      await patchPolicy(agent.id, { approvalThresholds: { currency: 'EUR', amount: convertedUp(1_000, 'USD', 'EUR') } });
      expect((await out(1_000)).body.status).toBe('APPROVED');
      expect((await out(1_002)).body.status).toBe('PENDING_APPROVAL');

      await patchPolicy(agent.id, { approvalThresholds: { amount: null }, accountRestrictions: { accountRules: [{ accountId: p.internal, executionMode: 'APPROVAL_REQUIRED' }] } });
      expect((await out(1)).body.status).toBe('PENDING_APPROVAL');
      await patchPolicy(agent.id, { defaultExecutionMode: 'APPROVAL_REQUIRED', accountRestrictions: { accountRules: [{ accountId: p.internal, executionMode: 'AUTO' }] } });
      expect((await out(1)).body.status).toBe('APPROVED');
    });

    it('a quote approved in time executes; one that expired before approval makes approve answer FAILED and gives the amount back', async () => {
      const p = await holder();
      const agent = await connectedAgent(t, p.customerId, agentPolicy({ defaultExecutionMode: 'APPROVAL_REQUIRED' }));
      const quote = (await agent.call('POST', '/agents/me/quotes', { body: accountQuote(p.internal, p.eur, 5_000) })).body;
      const waiting = await agent.call('POST', `/agents/me/quotes/${quote.id}/execute`);
      expect(waiting.status).toBe(200);
      expect(waiting.body).toMatchObject({ status: 'PENDING_APPROVAL', type: 'EXECUTE_QUOTE', quote: { id: quote.id, status: 'PENDING' } });
      expect(waiting.body).not.toHaveProperty('transaction');
      const approved = (await approve(agent.id, waiting.body.id)).body;
      expect(approved).toMatchObject({ status: 'APPROVED', quote: { id: quote.id }, transaction: { id: quote.transactionId } });
      await untilTransaction(t, quote.transactionId, (x) => x.status === 'COMPLETED');

      const late = (await agent.call('POST', '/agents/me/quotes', { body: accountQuote(p.internal, p.eur, 3_000) })).body;
      const lateAction = (await agent.call('POST', `/agents/me/quotes/${late.id}/execute`)).body;
      expect(lateAction.status).toBe('PENDING_APPROVAL');
      expect((await usageOf(agent)).dailySpend).toBe(5_000 + 3_000);
      await eventually(async () => ((await agent.call('GET', `/agents/me/quotes/${late.id}`)).body.status === 'EXPIRED' ? true : undefined), { what: 'quote EXPIRED', timeoutMs: QUOTE_TTL_MS + 10_000 });
      const failed = await approve(agent.id, lateAction.id);
      expect(failed.status).toBe(200);
      expect(failed.body).toMatchObject({ id: lateAction.id, status: 'FAILED', failureReason: 'QUOTE_EXPIRED' });
      expect(failed.body).not.toHaveProperty('transaction');
      expect((await usageOf(agent)).dailySpend).toBe(5_000);
      expectError(await approve(agent.id, lateAction.id), 409, 'INVALID_STATE_TRANSITION');
      expect(await balances(t, p.customerId)).toEqual({ balance: FUNDING - 5_000, totalBalance: FUNDING - 5_000 });
    });

    it('AUTO: 201 APPROVED with the transaction; a transfer beyond the balance is FAILED with its reason and gives the amount back', async () => {
      const p = await holder(1_000);
      const agent = await connectedAgent(t, p.customerId, agentPolicy({}, { dailyLimit: 5_000 }));
      const ok = await agent.call('POST', '/agents/me/transfer-out', { body: transfer(p.internal, p.external, 600) });
      expect(ok.status).toBe(201);
      expect(ok.body).toMatchObject({ status: 'APPROVED', type: 'TRANSFER_OUT', transaction: { id: expect.stringMatching(/^Transaction:/), customerId: p.customerId, sentAmount: { amount: 600 } } });
      await untilTransaction(t, ok.body.transaction.id, (x) => x.status === 'COMPLETED');
      // The recorded action accounts for its reservation: no check of it is left to fire a minute later.
      const db = new Client({ connectionString: t.database.url });
      await db.connect();
      const pendingChecks = await db.query(`SELECT 1 FROM agents.timers WHERE name = 'agents.reservation.check' AND payload->>'actionId' = $1 AND fired_at IS NULL`, [ok.body.id]).finally(() => db.end());
      expect(pendingChecks.rowCount).toBe(0);
      const broke = await agent.call('POST', '/agents/me/transfer-out', { body: transfer(p.internal, p.external, 500) });
      expect(broke.status).toBe(201);
      expect(broke.body).toMatchObject({ status: 'FAILED', failureReason: 'INSUFFICIENT_FUNDS' });
      expect(await usageOf(agent)).toMatchObject({ dailySpend: 600, dailyTransactionCount: 1 });
      expect((await agent.call('GET', `/agents/me/actions/${broke.body.id}`)).body).toMatchObject({ status: 'FAILED', failureReason: 'INSUFFICIENT_FUNDS' });
      expect(await balances(t, p.customerId)).toEqual({ balance: 400, totalBalance: 400 });
      // A quote beyond the balance: executed, its transaction fails on the hold; the action says so.
      const quote = (await agent.call('POST', '/agents/me/quotes', { body: accountQuote(p.internal, p.eur, 450) })).body;
      const executed = await agent.call('POST', `/agents/me/quotes/${quote.id}/execute`);
      expect(executed.status).toBe(200);
      expect(executed.body).toMatchObject({ type: 'EXECUTE_QUOTE', status: 'FAILED', failureReason: 'INSUFFICIENT_FUNDS', transaction: { id: quote.transactionId, status: 'FAILED' } });
      expect(await usageOf(agent)).toMatchObject({ dailySpend: 600, dailyTransactionCount: 1 });
      expect(await balances(t, p.customerId)).toEqual({ balance: 400, totalBalance: 400 });
      await expectLedgerClean(t);
    });
  });

  describe('idempotency and restarts', () => {
    it('the same Idempotency-Key on /agents/me/transfer-out answers the same action and counts once', async () => {
      const p = await holder();
      const agent = await connectedAgent(t, p.customerId, agentPolicy());
      const headers = { 'Idempotency-Key': 'agent-pay-1' };
      const first = await agent.call('POST', '/agents/me/transfer-out', { body: transfer(p.internal, p.external, 123), headers });
      const again = await agent.call('POST', '/agents/me/transfer-out', { body: transfer(p.internal, p.external, 123), headers });
      expect(first.status).toBe(201);
      expect(again.status).toBe(201);
      expect(again.body.id).toBe(first.body.id);
      expect(again.body.transaction.id).toBe(first.body.transaction.id);
      expectError(await agent.call('POST', '/agents/me/transfer-out', { body: transfer(p.internal, p.external, 124), headers }), 409);
      expect(await usageOf(agent)).toMatchObject({ dailySpend: 123, dailyTransactionCount: 1 });
      // Another agent (and the platform) may use the same key: it is not shared.
      const sibling = await connectedAgent(t, p.customerId, agentPolicy());
      const theirs = await sibling.call('POST', '/agents/me/transfer-out', { body: transfer(p.internal, p.external, 123), headers });
      expect(theirs.status).toBe(201);
      expect(theirs.body.id).not.toBe(first.body.id);
      await untilTransaction(t, first.body.transaction.id, terminal);
      await untilTransaction(t, theirs.body.transaction.id, terminal);
      expect(await balances(t, p.customerId)).toEqual({ balance: FUNDING - 246, totalBalance: FUNDING - 246 });
    });

    it('after a restart an action PENDING_APPROVAL is still listed and approvable, and the token still works', async () => {
      const p = await holder(5_000);
      const agent = await connectedAgent(t, p.customerId, agentPolicy({ defaultExecutionMode: 'APPROVAL_REQUIRED' }));
      const waiting = (await agent.call('POST', '/agents/me/transfer-out', { body: transfer(p.internal, p.external, 1_500) })).body;
      expect(waiting.status).toBe('PENDING_APPROVAL');
      await t.restart();
      const again = asAgent(t, agent.token);
      expect((await again('GET', '/agents/me')).body).toMatchObject({ id: agent.id, usage: { dailySpend: 1_500 } });
      expect(await approvals(`?agentId=${encodeURIComponent(agent.id)}`)).toEqual([waiting.id]);
      const approved = (await approve(agent.id, waiting.id)).body;
      expect(approved).toMatchObject({ status: 'APPROVED', transaction: { id: expect.any(String) } });
      await untilTransaction(t, approved.transaction.id, (x) => x.status === 'COMPLETED');
      expect(await balances(t, p.customerId)).toEqual({ balance: 3_500, totalBalance: 3_500 });
      expect(await approvals(`?agentId=${encodeURIComponent(agent.id)}`)).toEqual([]);
      await expectLedgerClean(t);
    });
  });
});
