import { OPERATIONS } from '@payments/contracts';
import { eventually } from '@payments/testing';
import { accountQuote, agentPolicy, connectedAgent, TestAgent, transfer } from './test-agents';
import { createCustomer } from './test-kyc';
import { payer, usdBankAccount } from './test-payments';
import { startTestPlatform, TestPlatform, TestTenant } from './test-platform';
import { internalAccountOf } from './test-quotes';

/**
 * Tenancy of agents (issue #42 a). An agent's bearer token scopes it to one customer of one platform (docs/agents.md):
 * every Agent Operation (read from the declarations: a new one fails the coverage test until it has a row) is tried
 * with the owner agent's customer's resources — in the path, in the body, or as what a list must not hold — by the
 * agent of another customer of the same platform and by an agent of another platform, and, for what is the agent's
 * own (its quotes and actions), by another agent of the same customer. Each must answer 404 exactly as for an id that
 * does not exist (lists: a page without the resource); the owner's agent then succeeds with the same request. Agent
 * Management routes naming an agent and one of its things (an action, a token) are tried by the platform itself with
 * another of its agents in the path: 404 too. The other platform's and mode's Basic credentials on Agent Management
 * are tenancy.e2e.spec.ts's rows; list filters are tenancy-list-filters.e2e.spec.ts's.
 */

/** Agent Operations that name nothing of a customer's, and why. */
const NAMES_NOTHING: Record<string, string> = {
  'GET /agents/me': "the caller's own agent, whatever its token",
};

interface World {
  customerId: string;
  internal: string;
  eur: string;
  external: string;
  transactionId: string;
  actionId: string;
  quoteId: string;
}

interface AgentRow {
  route: string;
  /** The owner agent's request with its customer's resource; made once per row and sent by every caller. */
  request: (t: TestPlatform, w: World) => Promise<{ path: string; body?: unknown }>;
  /** 'agent' when only the agent that made it may see it (its quotes and actions); 'customer' for every agent of the customer. */
  scope: 'agent' | 'customer';
  /** A list: the owner's resource it holds for the owner's agent and for nobody else. */
  listed?: (w: World) => string;
}

const rows: AgentRow[] = [
  { route: 'GET /agents/me/actions', request: async () => ({ path: '/agents/me/actions?limit=100' }), scope: 'agent', listed: (w) => w.actionId },
  { route: 'GET /agents/me/actions/{actionId}', request: async (_t, w) => ({ path: `/agents/me/actions/${w.actionId}` }), scope: 'agent' },
  { route: 'POST /agents/me/quotes', request: async (_t, w) => ({ path: '/agents/me/quotes', body: accountQuote(w.internal, w.eur, 1_000) }), scope: 'customer' },
  { route: 'GET /agents/me/quotes/{quoteId}', request: async (_t, w) => ({ path: `/agents/me/quotes/${w.quoteId}` }), scope: 'agent' },
  { route: 'POST /agents/me/quotes/{quoteId}/execute', request: async (_t, w) => ({ path: `/agents/me/quotes/${w.quoteId}/execute` }), scope: 'agent' },
  { route: 'POST /agents/me/transfer-in', request: async (_t, w) => ({ path: '/agents/me/transfer-in', body: transfer(w.external, w.internal, 100) }), scope: 'customer' },
  { route: 'POST /agents/me/transfer-out', request: async (_t, w) => ({ path: '/agents/me/transfer-out', body: transfer(w.internal, w.external, 100) }), scope: 'customer' },
  { route: 'GET /agents/me/transactions', request: async () => ({ path: '/agents/me/transactions?limit=100' }), scope: 'customer', listed: (w) => w.transactionId },
  { route: 'GET /agents/me/transactions/{transactionId}', request: async (_t, w) => ({ path: `/agents/me/transactions/${w.transactionId}` }), scope: 'customer' },
  { route: 'GET /agents/me/internal-accounts', request: async () => ({ path: '/agents/me/internal-accounts?limit=100' }), scope: 'customer', listed: (w) => w.internal },
  { route: 'GET /agents/me/external-accounts', request: async () => ({ path: '/agents/me/external-accounts?limit=100' }), scope: 'customer', listed: (w) => w.external },
  { route: 'POST /agents/me/external-accounts', request: async (_t, w) => ({ path: '/agents/me/external-accounts', body: { customerId: w.customerId, ...usdBankAccount('795') } }), scope: 'customer' },
  { route: 'GET /agents/me/external-accounts/{externalAccountId}', request: async (_t, w) => ({ path: `/agents/me/external-accounts/${w.external}` }), scope: 'customer' },
  {
    route: 'DELETE /agents/me/external-accounts/{externalAccountId}',
    // Its own account: the one the other rows use must outlive this row.
    request: async (t, w) => ({ path: `/agents/me/external-accounts/${(await t.call('POST', '/customers/external-accounts', { body: { customerId: w.customerId, ...usdBankAccount('796') } })).body.id}` }),
    scope: 'customer',
  },
];

/** Agent Management routes naming an agent and something of it: the platform's own other agent in the path. */
interface MixedRow {
  route: string;
  /** Something of `theirs` (made fresh), and the request naming it under `ours` and under `theirs`. */
  request: (t: TestPlatform, ours: TestAgent, theirs: TestAgent) => Promise<{ wrong: string; right: string; body?: unknown }>;
}

const pendingAction = async (theirs: TestAgent, w: { internal: string; external: string }) => {
  const action = await theirs.call('POST', '/agents/me/transfer-in', { body: transfer(w.external, w.internal, 100) });
  if (action.body?.status !== 'PENDING_APPROVAL') throw new Error(`no action waiting: ${action.status} ${JSON.stringify(action.body)}`);
  return action.body.id as string;
};

const rowsMixed = (other: () => { internal: string; external: string }): MixedRow[] => [
  ...(['approve', 'reject'] as const).map((verb) => ({
    route: `POST /agents/{agentId}/actions/{actionId}/${verb}`,
    request: async (_t: TestPlatform, ours: TestAgent, theirs: TestAgent) => {
      const actionId = await pendingAction(theirs, other());
      return { wrong: `/agents/${ours.id}/actions/${actionId}/${verb}`, right: `/agents/${theirs.id}/actions/${actionId}/${verb}`, body: verb === 'reject' ? { reason: 'tenancy' } : undefined };
    },
  })),
  {
    route: 'DELETE /agents/{agentId}/access-tokens/{tokenId}',
    request: async (t, ours) => {
      // A token of an agent of its own: revoking the other agent's would stop it for the rows after this one.
      const victim = await connectedAgent(t, (await t.call('GET', `/agents/${ours.id}`)).body.customerId, agentPolicy());
      const [token] = (await t.call('GET', `/agents/${victim.id}/access-tokens`)).body.data;
      return { wrong: `/agents/${ours.id}/access-tokens/${token.id}`, right: `/agents/${victim.id}/access-tokens/${token.id}` };
    },
  },
];

const declared = (op: { method: string; path: string }) => `${op.method} ${op.path}`;
const currency = (code: string) => ({ currencyCode: code, minAmount: 1, maxAmount: 100_000_000, requiredCounterpartyFields: [], enabledTransactionTypes: ['INCOMING', 'OUTGOING'] });
const waits = agentPolicy({ defaultExecutionMode: 'APPROVAL_REQUIRED' });

describe("tenancy: an agent sees only its customer's (and its own) resources", () => {
  let t: TestPlatform;
  let stranger: TestTenant;
  let world: World;
  let owner: TestAgent;
  let sibling: TestAgent;
  let otherCustomers: TestAgent;
  let otherCustomer: { internal: string; external: string };
  let strangers: TestAgent;

  beforeAll(async () => {
    t = await startTestPlatform({ SANDBOX_TIME_SCALE: '0.01' });
    stranger = await t.createTenant('stranger');
    for (const auth of [t.tenant.sandbox, stranger.sandbox]) expect((await t.call('PATCH', '/config', { auth, body: { supportedCurrencies: [currency('USD'), currency('EUR')] } })).status).toBe(200);
    // Every agent waits for approval: an action stays PENDING_APPROVAL, so what one agent made is there to be tried.
    const p = await payer(t, '789', 1_000_000);
    owner = await connectedAgent(t, p.customerId, waits);
    sibling = await connectedAgent(t, p.customerId, waits);
    const q = await payer(t, '789', 1_000_000);
    otherCustomer = q;
    otherCustomers = await connectedAgent(t, q.customerId, waits);
    strangers = await connectedAgent(t, await createCustomer(t, { customerType: 'INDIVIDUAL', fullName: 'Stranger Customer' }, stranger.sandbox), waits, { auth: stranger.sandbox });
    const transactionId = (await t.call('POST', '/transfer-in', { body: transfer(p.external, p.internal, 100) })).body.id as string;
    const eur = await internalAccountOf(t, t.tenant.sandbox, p.customerId, 'EUR');
    const quote = await owner.call('POST', '/agents/me/quotes', { body: accountQuote(p.internal, eur, 1_000) });
    expect(quote.status).toBe(201);
    world = { ...p, eur, transactionId, actionId: await pendingAction(owner, p), quoteId: quote.body.id };
    await eventually(async () => (await owner.call('GET', `/agents/me/transactions/${transactionId}`)).status === 200, { what: `${transactionId} in payments` });
  }, 120_000);
  afterAll(() => t?.stop());

  it('has a row for every Agent Operation, and a mixed row for every Agent Management route naming an agent and its thing', () => {
    const agentOperations = OPERATIONS.filter((op) => op.auth === 'agent').map(declared);
    expect(agentOperations.filter((r) => !rows.some((row) => row.route === r) && !(r in NAMES_NOTHING))).toEqual([]);
    const twoParameters = OPERATIONS.filter((op) => op.auth === undefined && op.path.startsWith('/agents/') && (op.path.match(/\{/g) ?? []).length >= 2).map(declared);
    expect(twoParameters.filter((r) => !rowsMixed(() => otherCustomer).some((row) => row.route === r))).toEqual([]);
  });

  it.each(rows.map((row) => [row.route, row] as const))('%s', async (route, row) => {
    const method = route.split(' ')[0];
    const { path, body } = await row.request(t, world);
    const others: [string, TestAgent][] = [['the agent of another customer', otherCustomers], ['an agent of another platform', strangers], ...(row.scope === 'agent' ? [['another agent of the same customer', sibling] as [string, TestAgent]] : [])];
    for (const [who, agent] of others) {
      const res = await agent.call(method, path, { body });
      if (row.listed) {
        expect({ who, status: res.status }).toEqual({ who, status: 200 });
        expect(res.body.data.map((x: { id: string }) => x.id)).not.toContain(row.listed(world));
      } else {
        expect({ who, status: res.status, code: res.body?.code }).toEqual({ who, status: 404, code: expect.stringMatching(/NOT_FOUND$/) });
      }
    }
    const own = await owner.call(method, path, { body });
    if (own.status >= 300) throw new Error(`the owner's agent was refused its own request: ${own.status} ${JSON.stringify(own.body)}`);
    if (row.listed) expect(own.body.data.map((x: { id: string }) => x.id)).toContain(row.listed(world));
  });

  it.each(rowsMixed(() => otherCustomer).map((row) => [row.route, row] as const))('%s with another of the platform\'s agents in the path', async (route, row) => {
    const method = route.split(' ')[0];
    const { wrong, right, body } = await row.request(t, owner, otherCustomers);
    const res = await t.call(method, wrong, { body });
    expect({ status: res.status, code: res.body?.code }).toEqual({ status: 404, code: expect.stringMatching(/NOT_FOUND$/) });
    expect((await t.call(method, right, { body })).status).toBeLessThan(300);
  });
});
