import { eventually } from '@payments/testing';
import { startTestPlatform, TestPlatform, TestTenant } from './test-platform';
import { agentPolicy, connectedAgent, TestAgent, transfer } from './test-agents';
import { delegatedKeyLegs, walletFundedCard } from './test-delegated-keys';
import { uploadDocument } from './test-documents';
import { untilStatus } from './test-external-accounts';
import { addOwner, businessBody, createCustomer, ownerBody } from './test-kyc';
import { usdBankAccount } from './test-payments';
import { internalAccountOf } from './test-quotes';
import { enableWallets } from './test-wallet';
import { foreignCallers, isNotFound, servedDocument } from './test-tenancy';
import { WebhookReceiver } from './test-webhook-receiver';

/**
 * Tenancy of list filters (issue #42 a). Every read that takes query filters — read from the published OpenAPI
 * document the gateway serves, so a new list or a new filter is swept without touching this file — is asked, for
 * every filter that names a resource, with the owner's resource by a caller that must not see it: another platform
 * (both modes) and the owner's other mode; for Agent Operations, the agent of another customer of the same platform
 * and an agent of another platform. The answer must be exactly what the document promises for an id that does not
 * exist: an empty page where the operation documents no 404 (the published list operations have none: a filter is a
 * condition, not a lookup), a 404 where it documents one (the beneficial-owner list and the receiver lookups,
 * docs/api-conventions.md). Never the owner's data. The owner's own call with the same filter must find it (so the
 * value names something real).
 */

/** Query parameters that name no resource of a platform: why each cannot leak another platform's data by its value. */
const NOT_A_RESOURCE: Record<string, string> = {
  limit: 'page size',
  cursor: 'an opaque position in the caller\'s own list (decodeCursor: a sort key, scoped like the list)',
  sortOrder: 'ordering',
  status: 'an enum',
  state: 'an enum',
  type: 'an enum or webhook type name',
  customerType: 'an enum',
  operationType: 'an enum',
  issuanceStatus: 'an enum',
  gridOperationsStatus: 'an enum',
  provider: 'an enum',
  verificationStatus: 'an enum',
  isPaused: 'a flag',
  isConnected: 'a flag',
  isIncludingDeleted: 'a flag',
  hasBlockedProviders: 'a flag',
  region: 'a country code',
  country: 'a country code',
  countryCode: 'a country code',
  currency: 'a currency code',
  currencyCode: 'a currency code',
  sourceCurrency: 'a currency code',
  destinationCurrency: 'a currency code',
  sendingAmount: 'an amount',
  createdAfter: 'a time',
  createdBefore: 'a time',
  updatedAfter: 'a time',
  updatedBefore: 'a time',
  startDate: 'a time',
  endDate: 'a time',
  senderUmaAddress: 'a UMA address of anyone (public); it only picks the sending currency of a lookup (docs/uma.md)',
};

interface Parameter {
  name: string;
  in: string;
}
interface DocumentedRead {
  path: string;
  operationId: string;
  agent: boolean;
  queryNames: string[];
  /** Whether it can be asked without any query parameter (none required). */
  unfiltered: boolean;
  notFoundDocumented: boolean;
}

/** What the owner has in its sandbox, one of each resource a filter can name. */
interface World {
  customerId: string;
  platformCustomerId: string;
  umaAddress: string;
  internal: string;
  external: string;
  transactionId: string;
  reference: string;
  businessId: string;
  tokenName: string;
  walletCustomerId: string;
  walletAccountId: string;
  cardId: string;
  platformCardId: string;
  fundingSourceId: string;
  agent: TestAgent;
}

/** The owner's value of a filter on a read (a filter's name means the same resource on every read, except accountId). */
function ownerValue(read: DocumentedRead, name: string, w: World): string | undefined {
  const walletRead = ['/cards', '/auth/credentials', '/auth/sessions', '/auth/delegated-keys'].includes(read.path);
  const values: Record<string, string> = {
    customerId: read.path === '/beneficial-owners' ? w.businessId : w.customerId,
    platformCustomerId: w.platformCustomerId,
    umaAddress: w.umaAddress,
    accountId: walletRead ? w.walletAccountId : w.internal,
    accountIdentifier: w.internal,
    senderAccountIdentifier: w.external,
    receiverAccountIdentifier: w.internal,
    reference: w.reference,
    resourceId: w.transactionId,
    documentHolder: w.customerId,
    name: w.tokenName,
    cardholderId: w.walletCustomerId,
    platformCardId: w.platformCardId,
    fundingSourceId: w.fundingSourceId,
    agentId: w.agent.id,
  };
  return values[name];
}

describe('tenancy: list filters naming another platform\'s (or customer\'s) resource find nothing', () => {
  let t: TestPlatform;
  let owner: TestTenant;
  let stranger: TestTenant;
  let reads: DocumentedRead[];
  let world: World;
  /** Agents that must not see the owner agent's customer: another customer's of the same platform, another platform's. */
  let otherCustomersAgent: TestAgent;
  let strangersAgent: TestAgent;
  /** The path parameters of a read for one caller: its own resource, so only the filter is foreign. */
  let ownPath: Map<string, (read: DocumentedRead) => string>;
  /** The owner's webhook endpoint: webhooks are kept only for a platform that has one. */
  const receiver = new WebhookReceiver();

  beforeAll(async () => {
    t = await startTestPlatform({ SANDBOX_TIME_SCALE: '0.1' });
    owner = t.tenant;
    stranger = await t.createTenant('stranger');
    const document = await servedDocument(t);
    reads = Object.entries(document.paths as Record<string, Record<string, any>>)
      .filter(([, item]) => item.get?.parameters?.some((p: Parameter) => p.in === 'query'))
      .map(([path, item]) => ({
        path,
        operationId: item.get.operationId,
        agent: (item.get.security ?? []).some((s: Record<string, unknown>) => 'AgentAuth' in s),
        queryNames: item.get.parameters.filter((p: Parameter) => p.in === 'query').map((p: Parameter) => p.name),
        unfiltered: !item.get.parameters.some((p: Parameter & { required?: boolean }) => p.in === 'query' && p.required),
        notFoundDocumented: '404' in item.get.responses,
      }));
    await receiver.start();
    expect((await t.call('PATCH', '/config', { auth: owner.sandbox, body: { webhookEndpoint: receiver.url('/owner') } })).status).toBe(200);
    world = await ownerWorld(t, owner.sandbox);
    otherCustomersAgent = await connectedAgent(t, await createCustomer(t, { customerType: 'INDIVIDUAL', fullName: 'Other Customer' }), agentPolicy());
    const strangerCustomer = await createCustomer(t, { customerType: 'INDIVIDUAL', fullName: 'Stranger Customer' }, stranger.sandbox);
    strangersAgent = await connectedAgent(t, strangerCustomer, agentPolicy(), { auth: stranger.sandbox });
    const strangerExternal = (await t.call('POST', '/customers/external-accounts', { auth: stranger.sandbox, body: { customerId: strangerCustomer, ...usdBankAccount('789') } })).body.id;
    await untilStatus(t, stranger.sandbox, strangerExternal, 'ACTIVE');
    ownPath = new Map([
      [owner.sandbox, (r) => pathOf(r, world.external)],
      [stranger.sandbox, (r) => pathOf(r, strangerExternal)],
    ]);
  }, 180_000);
  afterAll(async () => {
    await t?.stop();
    await receiver.stop();
  });

  /** A concrete path of a read: the caller's own external account for the receiver lookup, a sandbox receiver for UMA. */
  const pathOf = (read: DocumentedRead, externalAccount: string) =>
    read.path.replace('{accountId}', externalAccount).replace('{receiverUmaAddress}', encodeURIComponent('$success.usd@sandbox.uma.money'));

  /** Every (read, filter) pair whose filter names a resource: the sweep's table, derived from the document. */
  const resourceFilters = () => reads.flatMap((read) => read.queryNames.filter((name) => !(name in NOT_A_RESOURCE)).map((name) => ({ read, name })));

  it('classifies every query parameter of the document, and knows the owner\'s resource for every one that names one', () => {
    const unknown = resourceFilters().filter(({ read, name }) => ownerValue(read, name, world) === undefined).map(({ read, name }) => `${read.path}?${name}`);
    expect(unknown).toEqual([]);
    // A read taking a path parameter besides its filters must be given the caller's own resource there (pathOf).
    const unplaced = resourceFilters().filter(({ read }) => /\{/.test(pathOf(read, 'x'))).map(({ read }) => read.path);
    expect(unplaced).toEqual([]);
    console.log(`tenancy sweep of list filters: ${new Set(resourceFilters().map((f) => f.read.path)).size} reads of ${reads.length} with query parameters, ${resourceFilters().length} filters naming a resource`);
  });

  it("holds none of the owner's resources in another platform's or mode's unfiltered lists", async () => {
    const ownerIds = Object.values(world).filter((v): v is string => typeof v === 'string').concat(world.agent.id);
    const lists = reads.filter((r) => !r.agent && r.unfiltered && !r.path.includes('{'));
    const leaks: string[] = [];
    const needFilter: string[] = [];
    for (const read of lists) {
      const path = `${read.path}${read.queryNames.includes('limit') ? '?limit=100' : ''}`;
      const own = await t.call('GET', path, { auth: owner.sandbox });
      // A read that takes one of its optional filters at least (GET /auth/delegated-keys: docs/wallet-auth.md).
      if (own.status === 400) {
        needFilter.push(read.path);
        continue;
      }
      expect({ path, status: own.status }).toEqual({ path, status: 200 });
      for (const [who, auth] of foreignCallers(owner, stranger)) {
        const res = await t.call('GET', path, { auth });
        const text = JSON.stringify(res.body);
        const seen = ownerIds.filter((id) => text.includes(id));
        // Not 200 is no leak by itself (production without a rate source is 501): only the owner's ids are.
        if (seen.length) leaks.push(`${path} by ${who}: ${res.status} ${seen.join(', ')}`);
      }
    }
    expect(leaks).toEqual([]);
    expect(needFilter).toEqual(['/auth/delegated-keys']);
  });

  describe.each(['platform', 'agent'] as const)('%s callers', (kind) => {
    it('answer the owner\'s filter with its data, and every other caller as an unknown id', async () => {
      const leaks: string[] = [];
      for (const { read, name } of resourceFilters().filter((f) => f.read.agent === (kind === 'agent'))) {
        const value = ownerValue(read, name, world)!;
        const query = `?${name}=${encodeURIComponent(value)}`;
        const ownCall = () => (kind === 'agent' ? world.agent.call('GET', `${pathOf(read, world.external)}${query}`) : t.call('GET', `${ownPath.get(owner.sandbox)!(read)}${query}`, { auth: owner.sandbox }));
        // Read models follow their events: the owner's own filter must find its resource first.
        await eventually(async () => {
          const res = await ownCall();
          return res.status === 200 && found(res.body);
        }, { what: `the owner's ${read.path}${query} to find its resource` });
        const others: [string, () => Promise<{ status: number; body: any }>][] =
          kind === 'agent'
            ? [
                ['the agent of another customer', () => otherCustomersAgent.call('GET', `${pathOf(read, world.external)}${query}`)],
                ['an agent of another platform', () => strangersAgent.call('GET', `${pathOf(read, world.external)}${query}`)],
              ]
            : [
                // Another platform's sandbox asks on its own path (its own account): only the filter is foreign.
                ...foreignCallers(owner, stranger).map(([who, auth]): [string, () => Promise<{ status: number; body: any }>] => [who, () => t.call('GET', `${(ownPath.get(auth) ?? ((r: DocumentedRead) => pathOf(r, world.external)))(read)}${query}`, { auth })]),
              ];
        for (const [who, call] of others) {
          const res = await call();
          const answer = read.notFoundDocumented ? isNotFound(res) : res.status === 200 && !found(res.body);
          if (!answer) leaks.push(`${read.path}${query} by ${who}: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
        }
      }
      expect(leaks).toEqual([]);
    }, 120_000);
  });
});

/** Whether an answer holds anything: a page's or list's items, or a lookup. */
function found(body: any): boolean {
  if (Array.isArray(body?.data)) return body.data.length > 0 || (body.totalCount ?? 0) > 0;
  return body !== undefined && body !== null && typeof body === 'object' && !('code' in body);
}

/**
 * One of each resource in the owner's sandbox: a customer with a platform id, a UMA address, a USD account, a bank
 * account and a settled transfer-in (with its webhook); a document and a business with an owner; a wallet customer
 * with its card, session and delegated key; an agent of the customer with an action waiting for approval; a token.
 */
async function ownerWorld(t: TestPlatform, auth: string): Promise<World> {
  await enableWallets(t, auth);
  const platformCustomerId = `tenancy-filter-${Date.now()}`;
  const umaAddress = `$tenancy.filter.${Date.now()}@owner.example`;
  const customerId = await createCustomer(t, { customerType: 'INDIVIDUAL', fullName: 'Filter Owner', platformCustomerId, umaAddress }, auth);
  const internal = await internalAccountOf(t, auth, customerId, 'USD');
  const created = await t.call('POST', '/customers/external-accounts', { auth, body: { customerId, ...usdBankAccount('789') } });
  expect(created.status).toBe(201);
  const external = created.body.id as string;
  await untilStatus(t, auth, external, 'ACTIVE');
  const transferred = await t.call('POST', '/transfer-in', { auth, body: transfer(external, internal, 100) });
  expect(transferred.status).toBe(201);
  const transactionId = transferred.body.id as string;
  const reference = (await t.call('GET', `/transactions/${transactionId}`, { auth })).body.reconciliationInstructions.reference as string;
  await eventually(async () => (await t.call('GET', `/webhook-deliveries?resourceId=${encodeURIComponent(transactionId)}`, { auth })).body.data.length > 0, { what: `a webhook about ${transactionId}` });
  expect((await uploadDocument(t, customerId, { auth })).status).toBe(201);
  expect((await t.call('POST', '/verifications', { auth, body: { customerId } })).status).toBe(200);
  const businessId = await createCustomer(t, businessBody(`TENF-${Date.now()}`), auth);
  await addOwner(t, ownerBody(businessId, 'Filter'), auth);
  const tokenName = `tenancy filter ${Date.now()}`;
  expect((await t.call('POST', '/tokens', { auth, body: { name: tokenName, permissions: ['VIEW'] } })).status).toBe(201);

  const wallet = await walletFundedCard(t, auth);
  const card = (await t.call('GET', `/cards/${wallet.cardId}`, { auth })).body;
  const { final } = await delegatedKeyLegs(t, { cardId: wallet.cardId, internalAccountId: wallet.accountId, nickname: 'Filter' }, wallet.key, auth);
  expect(final.status).toBe(201);

  // The agent's transfer waits for the platform's approval, so the approvals list has it.
  const agent = await connectedAgent(t, customerId, agentPolicy({ defaultExecutionMode: 'APPROVAL_REQUIRED' }), { auth });
  const action = await agent.call('POST', '/agents/me/transfer-in', { body: transfer(external, internal, 100) });
  expect(action.body.status).toBe('PENDING_APPROVAL');
  return {
    customerId,
    platformCustomerId,
    umaAddress,
    internal,
    external,
    transactionId,
    reference,
    businessId,
    tokenName,
    walletCustomerId: wallet.customerId,
    walletAccountId: wallet.accountId,
    cardId: wallet.cardId,
    platformCardId: card.platformCardId,
    fundingSourceId: final.body.fundingSourceId,
    agent,
  };
}
