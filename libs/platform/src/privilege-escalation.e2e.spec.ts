import { basicAuth } from '@payments/testing';
import { accountQuote, agentPolicy, connectedAgent, createAgent } from './test-agents';
import { balances, payer, usdBankAccount } from './test-payments';
import { internalAccountOf } from './test-quotes';
import { startTestPlatform, TestPlatform } from './test-platform';

const currency = (code: string) => ({ currencyCode: code, minAmount: 1, maxAmount: 100_000_000, requiredCounterpartyFields: [], enabledTransactionTypes: ['INCOMING', 'OUTGOING'] });

/**
 * A credential or an agent never gets more than it was given: a MANAGE-only API token cannot mint a spending
 * credential (an API token with TRANSACT, or an agent allowed to move money), and an agent that may only create
 * quotes cannot execute one by asking for `immediatelyExecute`, nor set the platform's fees, nor execute a quote
 * from an account its policy no longer allows. Everything through HTTP, each refusal checked for "nothing changed".
 */
describe('privilege escalation through the gateway', () => {
  let t: TestPlatform;

  beforeAll(async () => {
    t = await startTestPlatform({ SANDBOX_TIME_SCALE: '0.001' });
    expect((await t.call('PATCH', '/config', { body: { supportedCurrencies: [currency('USD'), currency('EUR')] } })).status).toBe(200);
  }, 60_000);
  afterAll(async () => {
    await t?.stop();
  });

  async function tokenWith(permissions: string[]): Promise<string> {
    const res = await t.call('POST', '/tokens', { body: { name: `only ${permissions.join('+')}`, permissions } });
    expect(res.status).toBe(201);
    return basicAuth(res.body.clientId, res.body.clientSecret);
  }
  const tokenCount = async () => (await t.call('GET', '/tokens?limit=100')).body.data.length as number;

  it('a MANAGE-only token cannot create a token with permissions it lacks (403, nothing created); it can create a MANAGE token', async () => {
    const manager = await tokenWith(['MANAGE']);
    const before = await tokenCount();
    for (const permissions of [['TRANSACT'], ['VIEW', 'TRANSACT', 'MANAGE'], ['VIEW']]) {
      const res = await t.call('POST', '/tokens', { auth: manager, body: { name: 'escalated', permissions } });
      expect({ status: res.status, code: res.body.code }).toEqual({ status: 403, code: 'FORBIDDEN' });
      expect(res.body.message).toMatch(/permission/i);
    }
    expect(await tokenCount()).toBe(before);
    expect((await t.call('POST', '/tokens', { auth: manager, body: { name: 'peer', permissions: ['MANAGE'] } })).status).toBe(201);
  });

  it('a MANAGE-only token cannot create, widen or reconnect an agent that may move money; with TRANSACT too it can', async () => {
    const manager = await tokenWith(['MANAGE']);
    const both = await tokenWith(['MANAGE', 'TRANSACT']);
    const customerId = (await t.call('POST', '/customers', { body: { customerType: 'INDIVIDUAL', fullName: 'Agent Owner' } })).body.id as string;
    const spending = agentPolicy({ permissions: ['CREATE_TRANSFERS', 'VIEW_TRANSACTIONS'] });
    const refused = await createAgent(t, customerId, spending, { auth: manager });
    expect({ status: refused.status, code: refused.body.code }).toEqual({ status: 403, code: 'FORBIDDEN' });
    expect((await t.call('GET', `/agents?customerId=${encodeURIComponent(customerId)}`)).body.data).toEqual([]);

    // A read-only agent is management, not money: MANAGE suffices; giving it money permissions later does not.
    const reader = await createAgent(t, customerId, agentPolicy({ permissions: ['VIEW_TRANSACTIONS'] }), { auth: manager });
    expect(reader.status).toBe(201);
    const agentId = reader.body.agent.id as string;
    const widen = await t.call('PATCH', `/agents/${agentId}/policy`, { auth: manager, body: { permissions: ['VIEW_TRANSACTIONS', 'EXECUTE_QUOTES'] } });
    expect({ status: widen.status, code: widen.body.code }).toEqual({ status: 403, code: 'FORBIDDEN' });
    expect((await t.call('GET', `/agents/${agentId}`)).body.policy.permissions).toEqual(['VIEW_TRANSACTIONS']);

    const spender = await createAgent(t, customerId, spending, { auth: both });
    expect(spender.status).toBe(201);
    const code = await t.call('POST', `/agents/${spender.body.agent.id}/device-codes`, { auth: manager });
    expect({ status: code.status, code: code.body.code }).toEqual({ status: 403, code: 'FORBIDDEN' });
    expect((await t.call('POST', `/agents/${spender.body.agent.id}/device-codes`, { auth: both })).status).toBe(201);
  });

  it('an agent with CREATE_QUOTES only cannot execute through immediatelyExecute, nor override the platform fee (400, no quote, no money moved)', async () => {
    const p = await payer(t, '781', 100_000);
    const eur = await internalAccountOf(t, t.tenant.sandbox, p.customerId, 'EUR');
    const agent = await connectedAgent(t, p.customerId, agentPolicy({ permissions: ['CREATE_QUOTES'] }));
    const executeNow = await agent.call('POST', '/agents/me/quotes', { body: accountQuote(p.internal, eur, 10_000, { immediatelyExecute: true }) });
    expect({ status: executeNow.status, code: executeNow.body.code }).toEqual({ status: 400, code: 'INVALID_INPUT' });
    expect(JSON.stringify(executeNow.body)).toContain('immediatelyExecute');
    const fee = await agent.call('POST', '/agents/me/quotes', { body: accountQuote(p.internal, eur, 10_000, { platformFeeOverride: { platformFixedFee: { amount: 0, currency: 'USD' }, platformVariableFeeBps: 0 } }) });
    expect({ status: fee.status, code: fee.body.code }).toEqual({ status: 400, code: 'INVALID_INPUT' });
    expect(JSON.stringify(fee.body)).toContain('platformFeeOverride');
    expect(await balances(t, p.customerId)).toEqual({ balance: 100_000, totalBalance: 100_000 });
    expect((await t.call('GET', `/transactions?customerId=${encodeURIComponent(p.customerId)}`)).body.data.filter((tx: { type: string }) => tx.type !== 'INCOMING')).toEqual([]);
  });

  it('an agent cannot execute its quote from an account the policy stopped allowing (404, nothing moved)', async () => {
    const p = await payer(t, '782', 100_000);
    const eur = await internalAccountOf(t, t.tenant.sandbox, p.customerId, 'EUR');
    const agent = await connectedAgent(t, p.customerId, agentPolicy({ accountRestrictions: { allowedAccountIds: [p.internal, eur], accountRules: [] } }));
    const quote = await agent.call('POST', '/agents/me/quotes', { body: accountQuote(p.internal, eur, 10_000) });
    expect(quote.status).toBe(201);
    expect((await t.call('PATCH', `/agents/${agent.id}/policy`, { body: { accountRestrictions: { allowedAccountIds: [eur], accountRules: [] } } })).status).toBe(200);
    const executed = await agent.call('POST', `/agents/me/quotes/${quote.body.id}/execute`);
    expect(executed.status).toBe(404);
    expect((await t.call('GET', `/quotes/${quote.body.id}`)).body.status).toBe('PENDING');
    expect(await balances(t, p.customerId)).toEqual({ balance: 100_000, totalBalance: 100_000 });
  });

  it("two agents sending the same Idempotency-Key create one external account each, each for its own customer", async () => {
    const [a, b] = [await payer(t, '783', 0), await payer(t, '784', 0)];
    const policy = agentPolicy({ permissions: ['MANAGE_EXTERNAL_ACCOUNTS'] });
    const [agentA, agentB] = [await connectedAgent(t, a.customerId, policy), await connectedAgent(t, b.customerId, policy)];
    const body = usdBankAccount('785');
    const headers = { 'idempotency-key': 'shared-key-between-two-agents' };
    const ra = await agentA.call('POST', '/agents/me/external-accounts', { body, headers });
    const rb = await agentB.call('POST', '/agents/me/external-accounts', { body, headers });
    expect([ra.status, rb.status]).toEqual([201, 201]);
    expect(ra.body.customerId).toBe(a.customerId);
    expect(rb.body.customerId).toBe(b.customerId);
    expect(rb.body.id).not.toBe(ra.body.id);
  });
});
