import { Webhook } from 'standardwebhooks';
import { eventually, walletStamp } from '@payments/testing';
import { approvedCustomer, cardholder, untilCard } from './test-cards';
import { createCustomer, individualBody } from './test-kyc';
import { usdBankAccount } from './test-payments';
import { internalAccountOf } from './test-quotes';
import { startTestPlatform, TestPlatform, TestTenant } from './test-platform';
import { ClientKey, enableWallets, otpLogin, signed, walletCustomer } from './test-wallet';
import { WebhookReceiver } from './test-webhook-receiver';

/**
 * The card lifecycle (docs/cards.md) as a platform integrating the API sees it, through real HTTP: issuance by the
 * sandbox issuer, refusals, listing, PATCH (and its signed retry for Embedded Wallet cards), the reveal page, the card
 * webhooks and a restart while a card waits for its issuer. SANDBOX_TIME_SCALE 0.1: a KYC decision takes 0.5 s and the
 * issuer's `005` activation 3 s.
 */
const SCALE = 0.1;
const DELAYED_ACTIVATION_MS = 30_000 * SCALE;
const NO_CARD = 'Card:00000000-0000-7000-8000-000000000000';
/** The sandbox issuer refuses accounts ending in 002 / 003: a test that needs a second account must not draw one. */
const unlucky = (accountId: string) => ['002', '003'].includes(accountId.slice(-3));
const currencies = (codes: string[]) => codes.map((currencyCode) => ({ currencyCode, minAmount: 1, maxAmount: 1_000_000_000, requiredCounterpartyFields: [], enabledTransactionTypes: ['INCOMING', 'OUTGOING'] }));

let serial = 0;
/** A platformCardId ending in `suffix` (the sandbox issuer reads its last three characters). */
const platformCardId = (suffix: string) => `pc-${Date.now().toString(36)}-${serial++}-${suffix}`;

function luhnValid(pan: string): boolean {
  const sum = [...pan].reverse().reduce((s, ch, i) => {
    const n = Number(ch) * (i % 2 === 1 ? 2 : 1);
    return s + (n > 9 ? n - 9 : n);
  }, 0);
  return sum % 10 === 0;
}

describe('Cards (HTTP)', () => {
  let t: TestPlatform;
  let other: TestTenant;
  /** An APPROVED individual with USD and EUR accounts (the platform's two currencies). */
  let holder: { customerId: string; account: string };
  const receiver = new WebhookReceiver();

  beforeAll(async () => {
    await receiver.start();
    t = await startTestPlatform({ SANDBOX_TIME_SCALE: String(SCALE) });
    expect((await t.call('PATCH', '/config', { body: { supportedCurrencies: currencies(['USD', 'EUR']) } })).status).toBe(200);
    holder = await cardholder(t, 0);
    other = await t.createTenant('cards-other');
  });
  afterAll(async () => {
    await t?.stop();
    await receiver.stop();
  });

  const create = (body: Record<string, unknown>, options: { auth?: string; headers?: Record<string, string> } = {}) =>
    t.call('POST', '/cards', { ...options, body: { cardholderId: holder.customerId, form: 'VIRTUAL', fundingSources: [holder.account], ...body } });
  const get = (cardId: string, auth = t.tenant.sandbox) => t.call('GET', `/cards/${cardId}`, { auth });
  const patch = (cardId: string, body: unknown, auth = t.tenant.sandbox) => t.call('PATCH', `/cards/${cardId}`, { auth, body });
  const list = (query: string, auth = t.tenant.sandbox) => t.call('GET', `/cards${query}`, { auth });
  /** A new card of `holder` (or `body.cardholderId`), ACTIVE. */
  async function activeCard(body: Record<string, unknown> = {}): Promise<Record<string, any>> {
    const created = await create({ platformCardId: platformCardId('100'), ...body });
    expect(created.status).toBe(201);
    return untilCard(t, created.body.id, (c) => c.state === 'ACTIVE');
  }

  describe('issuance', () => {
    it('POST /cards answers 201 PROCESSING; the issuer makes it ACTIVE with VISA, last4 from the platformCardId, a 3-year expiry and references', async () => {
      const pcid = platformCardId('4321');
      const created = await create({ platformCardId: pcid, maxSpendPerTransaction: 50_000 });
      expect(created.status).toBe(201);
      expect(created.body).toEqual({
        id: expect.stringMatching(/^Card:[0-9a-f-]{36}$/),
        cardholderId: holder.customerId,
        platformCardId: pcid,
        state: 'PROCESSING',
        stateReason: null,
        form: 'VIRTUAL',
        fundingSources: [holder.account],
        maxSpendPerTransaction: 50_000,
        currency: 'USD',
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      });
      const active = await untilCard(t, created.body.id, (c) => c.state === 'ACTIVE');
      const now = new Date();
      expect(active).toEqual({
        ...created.body,
        state: 'ACTIVE',
        brand: 'VISA',
        last4: '4321',
        expMonth: now.getUTCMonth() + 1,
        expYear: now.getUTCFullYear() + 3,
        processorRef: expect.stringMatching(/^proc_[0-9a-f]{24}$/),
        issuerRef: expect.stringMatching(/^iss_[0-9a-f]{24}$/),
        updatedAt: expect.any(String),
      });
      expect(Date.parse(active.updatedAt)).toBeGreaterThanOrEqual(Date.parse(active.createdAt));
      // GET never carries reveal data.
      for (const secret of ['pan', 'cvv', 'panEmbedUrl', 'number']) expect(active).not.toHaveProperty(secret);
    });

    it('issuance suffixes: 001 stays PROCESSING, 002 is CLOSED with ISSUER_REJECTED, 005 activates only after 30 s × SANDBOX_TIME_SCALE', async () => {
      const [stays, rejected, later] = await Promise.all(['001', '002', '005'].map((suffix) => create({ platformCardId: platformCardId(suffix) })));
      for (const created of [stays, rejected, later]) expect(created.body).toMatchObject({ state: 'PROCESSING', stateReason: null });
      expect((await get(later.body.id)).body.state).toBe('PROCESSING');

      const closed = await untilCard(t, rejected.body.id, (c) => c.state !== 'PROCESSING');
      expect(closed).toMatchObject({ state: 'CLOSED', stateReason: 'ISSUER_REJECTED' });
      expect(closed).not.toHaveProperty('last4');
      expect((await get(later.body.id)).body.state).toBe('PROCESSING');

      const activated = await untilCard(t, later.body.id, (c) => c.state !== 'PROCESSING', t.tenant.sandbox, 15_000);
      expect(activated).toMatchObject({ state: 'ACTIVE', stateReason: null, brand: 'VISA', last4: expect.stringMatching(/^\d{4}$/) });
      expect(Date.parse(activated.updatedAt) - Date.parse(activated.createdAt)).toBeGreaterThanOrEqual(DELAYED_ACTIVATION_MS - 50);

      // Long after the others answered, 001 has still heard nothing from the issuer.
      const waiting = (await get(stays.body.id)).body;
      expect(waiting).toEqual(stays.body);
    });

    it('without platformCardId a platformCardId is generated and the cardholderId suffix decides issuance', async () => {
      const created = await create({});
      expect(created.status).toBe(201);
      expect(created.body.platformCardId).toEqual(expect.any(String));
      expect(created.body.platformCardId.length).toBeGreaterThan(0);
      expect(created.body.id).toBe(`Card:${created.body.platformCardId}`);
      const suffix = holder.customerId.slice(-3);
      if (suffix === '001' || suffix === '002') return; // the holder was drawn with an issuer suffix: nothing more to see
      const active = await untilCard(t, created.body.id, (c) => c.state === 'ACTIVE');
      const tail = holder.customerId.slice(-4);
      expect(active.last4).toEqual(/^\d{4}$/.test(tail) ? tail : expect.stringMatching(/^\d{4}$/));
    });
  });

  describe('refusals', () => {
    const ineligibleAt = (res: { status: number; body: any }, index: number) => {
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ status: 400, code: 'FUNDING_SOURCE_INELIGIBLE', details: { errors: [expect.objectContaining({ field: `fundingSources[${index}]` })] } });
    };
    const cardsOf = async (customerId: string) => (await list(`?cardholderId=${encodeURIComponent(customerId)}&limit=100`)).body.totalCount as number;

    it('a cardholder whose KYC is not APPROVED is 400 CARDHOLDER_KYC_NOT_APPROVED; an unknown or foreign cardholder is 400', async () => {
      const pending = await createCustomer(t, individualBody('Not Yet Verified'));
      const account = await internalAccountOf(t, t.tenant.sandbox, pending, 'USD');
      const res = await create({ cardholderId: pending, fundingSources: [account] });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ status: 400, code: 'CARDHOLDER_KYC_NOT_APPROVED' });
      expect(await cardsOf(pending)).toBe(0);

      expect((await create({ cardholderId: 'Customer:00000000-0000-7000-8000-000000000000' })).body).toMatchObject({ status: 400, code: 'INVALID_INPUT' });
      // The holder is not a customer of the other tenant.
      expect((await create({}, { auth: other.sandbox })).body).toMatchObject({ status: 400, code: 'INVALID_INPUT' });
    });

    it("refuses, naming the index, another customer's account, another tenant's, an external account, an unknown id, a second currency and a duplicate", async () => {
      const before = await cardsOf(holder.customerId);
      const stranger = await cardholder(t, 0);
      ineligibleAt(await create({ fundingSources: [holder.account, stranger.account] }), 1);

      const foreignCustomer = await createCustomer(t, individualBody('Other Tenant'), other.sandbox);
      const foreignAccount = await internalAccountOf(t, other.sandbox, foreignCustomer, 'USD');
      ineligibleAt(await create({ fundingSources: [foreignAccount] }), 0);

      const external = await t.call('POST', '/customers/external-accounts', { body: { customerId: holder.customerId, ...usdBankAccount('0100') } });
      expect(external.status).toBe(201);
      ineligibleAt(await create({ fundingSources: [holder.account, external.body.id] }), 1);
      ineligibleAt(await create({ fundingSources: ['InternalAccount:00000000-0000-5000-8000-000000000000'] }), 0);
      ineligibleAt(await create({ fundingSources: ['not-an-account'] }), 0);

      // A customer opened with USD and EUR accounts (currencies in the body, both enabled in the platform's config).
      let eur: string;
      let usd: string;
      let customerId: string;
      do {
        customerId = await approvedCustomer(t, t.tenant.sandbox, { currencies: ['USD', 'EUR'] });
        usd = await internalAccountOf(t, t.tenant.sandbox, customerId, 'USD');
        eur = await internalAccountOf(t, t.tenant.sandbox, customerId, 'EUR');
      } while (unlucky(usd) || unlucky(eur));
      const mixed = await create({ cardholderId: customerId, fundingSources: [usd, eur] });
      ineligibleAt(mixed, 1);
      expect(mixed.body.message).toMatch(/EUR/);
      // One currency of the two is fine: the card takes it.
      const euro = await create({ cardholderId: customerId, fundingSources: [eur] });
      expect(euro.status).toBe(201);
      expect(euro.body).toMatchObject({ currency: 'EUR', fundingSources: [eur] });

      ineligibleAt(await create({ fundingSources: [holder.account, holder.account] }), 1);
      expect(await cardsOf(holder.customerId)).toBe(before);
    });

    it('an empty fundingSources, unknown fields and a form other than VIRTUAL are 400 INVALID_INPUT', async () => {
      for (const body of [{ fundingSources: [] }, { surprise: true }, { form: 'PHYSICAL' }, { form: undefined }, { fundingSources: undefined }, { maxSpendPerTransaction: 0 }, { fundingSources: Array.from({ length: 11 }, () => holder.account) }]) {
        const res = await create(body);
        expect([res.status, res.body.code]).toEqual([400, 'INVALID_INPUT']);
      }
    });

    it('production credentials get 501 NOT_IMPLEMENTED and nothing is recorded', async () => {
      const res = await create({ platformCardId: platformCardId('100') }, { auth: t.tenant.production });
      expect(res.status).toBe(501);
      expect(res.body).toMatchObject({ status: 501, code: 'NOT_IMPLEMENTED' });
      expect((await list('', t.tenant.production)).body).toMatchObject({ data: [], totalCount: 0 });
      const [{ n }] = await t.platform.cards.host.dataSource.query(`SELECT count(*)::int AS n FROM cards WHERE mode = 'PRODUCTION'`);
      expect(n).toBe(0);
    });

    it('the same Idempotency-Key twice issues one card', async () => {
      const pcid = platformCardId('100');
      const headers = { 'Idempotency-Key': `card-${pcid}` };
      const first = await create({ platformCardId: pcid }, { headers });
      const second = await create({ platformCardId: pcid }, { headers });
      expect(first.status).toBe(201);
      expect(second.status).toBe(201);
      expect(second.body.id).toBe(first.body.id);
      expect((await list(`?platformCardId=${encodeURIComponent(pcid)}`)).body.data.map((c: any) => c.id)).toEqual([first.body.id]);
    });
  });

  describe('listing', () => {
    it('filters by cardholderId, accountId, platformCardId and state, combined; newest first or oldest first; cursor pages', async () => {
      const a = await cardholder(t, 0);
      const b = await cardholder(t, 0);
      const prefix = platformCardId('x');
      const cards: Record<string, any>[] = [];
      for (const n of [1, 2, 3]) cards.push(await activeCard({ cardholderId: a.customerId, fundingSources: [a.account], platformCardId: `${prefix}-${n}00` }));
      const theirs = await activeCard({ cardholderId: b.customerId, fundingSources: [b.account] });
      const frozen = (await patch(cards[1].id, { state: 'FROZEN' })).body;
      expect(frozen.state).toBe('FROZEN');
      const newestFirst = [cards[2].id, cards[1].id, cards[0].id];
      const ids = async (query: string) => (await list(query)).body.data.map((c: any) => c.id);

      const byHolder = await list(`?cardholderId=${encodeURIComponent(a.customerId)}`);
      expect(byHolder.status).toBe(200);
      expect(byHolder.body).toMatchObject({ hasMore: false, totalCount: 3 });
      expect(byHolder.body.data).toEqual([(await get(cards[2].id)).body, frozen, (await get(cards[0].id)).body]);
      expect(await ids(`?accountId=${encodeURIComponent(a.account)}`)).toEqual(newestFirst);
      expect(await ids(`?accountId=${encodeURIComponent(b.account)}`)).toEqual([theirs.id]);
      expect(await ids(`?platformCardId=${encodeURIComponent(`${prefix}-200`)}`)).toEqual([cards[1].id]);
      expect(await ids(`?cardholderId=${encodeURIComponent(a.customerId)}&state=FROZEN`)).toEqual([cards[1].id]);
      expect(await ids(`?cardholderId=${encodeURIComponent(a.customerId)}&state=ACTIVE`)).toEqual([cards[2].id, cards[0].id]);
      expect(await ids(`?accountId=${encodeURIComponent(a.account)}&state=ACTIVE&platformCardId=${encodeURIComponent(`${prefix}-100`)}`)).toEqual([cards[0].id]);
      expect(await ids(`?cardholderId=${encodeURIComponent(b.customerId)}&accountId=${encodeURIComponent(a.account)}`)).toEqual([]);
      expect(await ids(`?cardholderId=${encodeURIComponent(a.customerId)}&state=CLOSED`)).toEqual([]);
      expect((await list('?state=ACTIVE')).body.data.every((c: any) => c.state === 'ACTIVE')).toBe(true);
      expect(await ids(`?cardholderId=${encodeURIComponent(a.customerId)}&sortOrder=desc`)).toEqual(newestFirst);
      expect(await ids(`?cardholderId=${encodeURIComponent(a.customerId)}&sortOrder=asc`)).toEqual([...newestFirst].reverse());
      for (const bad of ['?state=LOST', '?sortOrder=up', '?limit=0', '?limit=101']) expect((await list(bad)).status).toBe(400);

      for (const order of ['desc', 'asc']) {
        const seen: string[] = [];
        let cursor: string | undefined;
        for (let page = 0; page < 3; page++) {
          const res = await list(`?cardholderId=${encodeURIComponent(a.customerId)}&sortOrder=${order}&limit=1${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
          expect(res.body).toMatchObject({ totalCount: 3, hasMore: page < 2 });
          expect(res.body.data).toHaveLength(1);
          seen.push(res.body.data[0].id);
          cursor = res.body.nextCursor;
          expect(cursor === undefined).toBe(page === 2);
        }
        expect(seen).toEqual(order === 'desc' ? newestFirst : [...newestFirst].reverse());
      }
    });

    it("another tenant's card is 404 CARD_NOT_FOUND and never listed; a malformed or unknown id is 404", async () => {
      const card = await activeCard({ platformCardId: platformCardId('100') });
      expect((await get(card.id, other.sandbox)).body).toMatchObject({ status: 404, code: 'CARD_NOT_FOUND' });
      expect((await get(card.id, t.tenant.production)).body).toMatchObject({ status: 404, code: 'CARD_NOT_FOUND' });
      expect((await list(`?cardholderId=${encodeURIComponent(holder.customerId)}`, other.sandbox)).body).toMatchObject({ data: [], totalCount: 0 });
      expect((await list(`?accountId=${encodeURIComponent(holder.account)}`, other.sandbox)).body).toMatchObject({ data: [], totalCount: 0 });
      expect((await list(`?platformCardId=${encodeURIComponent(card.platformCardId)}`, other.sandbox)).body).toMatchObject({ data: [], totalCount: 0 });
      expect((await list('?limit=100', other.sandbox)).body.data.map((c: any) => c.id)).not.toContain(card.id);
      for (const id of ['nope', 'Card:123', encodeURIComponent(`${card.id} `), card.id.toUpperCase(), NO_CARD]) {
        const res = await get(id);
        expect(res.status).toBe(404);
        expect(res.body.code).toBe('CARD_NOT_FOUND');
      }
    });
  });

  describe('PATCH /cards/{id}', () => {
    it('ACTIVE → FROZEN → ACTIVE → CLOSED (CLOSED_BY_PLATFORM, no funding sources); then 409 CARD_ALREADY_CLOSED and CARD_NOT_MUTABLE', async () => {
      const card = await activeCard();
      const frozen = await patch(card.id, { state: 'FROZEN' });
      expect(frozen.status).toBe(200);
      expect(frozen.body).toEqual({ ...card, state: 'FROZEN', updatedAt: expect.any(String) });
      expect((await get(card.id)).body).toEqual(frozen.body);
      const unfrozen = await patch(card.id, { state: 'ACTIVE' });
      expect(unfrozen.body).toEqual({ ...card, state: 'ACTIVE', updatedAt: expect.any(String) });
      const closed = await patch(card.id, { state: 'CLOSED' });
      expect(closed.status).toBe(200);
      expect(closed.body).toEqual({ ...card, state: 'CLOSED', stateReason: 'CLOSED_BY_PLATFORM', fundingSources: [], updatedAt: expect.any(String) });
      expect((await get(card.id)).body).toEqual(closed.body);
      // No longer listed by the account it was bound to.
      expect((await list(`?accountId=${encodeURIComponent(holder.account)}&limit=100`)).body.data.map((c: any) => c.id)).not.toContain(card.id);

      expect((await patch(card.id, { state: 'CLOSED' })).body).toMatchObject({ status: 409, code: 'CARD_ALREADY_CLOSED' });
      for (const body of [{ state: 'ACTIVE' }, { state: 'FROZEN' }, { fundingSources: [holder.account] }, { fundingSources: [NO_CARD] }, { maxSpendPerTransaction: 100 }, { maxSpendPerTransaction: null }]) {
        expect((await patch(card.id, body)).body).toMatchObject({ status: 409, code: 'CARD_NOT_MUTABLE' });
      }
      expect((await get(card.id)).body).toEqual(closed.body);
    });

    it('any other move is 409 INVALID_STATE_TRANSITION: a PROCESSING card cannot be frozen, activated or closed; the state a card is in is a move too', async () => {
      const processing = (await create({ platformCardId: platformCardId('001') })).body;
      for (const state of ['FROZEN', 'ACTIVE', 'CLOSED']) expect((await patch(processing.id, { state })).body).toMatchObject({ status: 409, code: 'INVALID_STATE_TRANSITION' });
      expect((await get(processing.id)).body).toEqual(processing);

      const card = await activeCard();
      expect((await patch(card.id, { state: 'ACTIVE' })).body).toMatchObject({ status: 409, code: 'INVALID_STATE_TRANSITION' });
      expect((await patch(card.id, { state: 'FROZEN' })).status).toBe(200);
      expect((await patch(card.id, { state: 'FROZEN' })).body).toMatchObject({ status: 409, code: 'INVALID_STATE_TRANSITION' });
      expect((await patch(card.id, { state: 'CLOSED' })).body.state).toBe('CLOSED'); // FROZEN → CLOSED is allowed
    });

    it('400 for no field, for CLOSED with another field and for malformed fields', async () => {
      const card = await activeCard();
      for (const body of [
        {},
        { state: 'CLOSED', fundingSources: [holder.account] },
        { state: 'CLOSED', maxSpendPerTransaction: 100 },
        { state: 'PROCESSING' },
        { state: null },
        { fundingSources: [] },
        { maxSpendPerTransaction: 0 },
        { maxSpendPerTransaction: 1.5 },
        { nickname: 'x' },
      ]) {
        const res = await patch(card.id, body);
        expect([res.status, res.body.code, JSON.stringify(body)]).toEqual([400, 'INVALID_INPUT', JSON.stringify(body)]);
      }
      expect((await get(card.id)).body).toEqual(card);
    });

    it('fundingSources: the same binding changes nothing; an ineligible one is 400 FUNDING_SOURCE_INELIGIBLE and nothing changes', async () => {
      const card = await activeCard();
      const same = await patch(card.id, { fundingSources: [holder.account] });
      expect(same.status).toBe(200);
      expect(same.body).toEqual(card); // not even updatedAt moved
      const stranger = await cardholder(t, 0);
      const eur = await internalAccountOf(t, t.tenant.sandbox, holder.customerId, 'EUR');
      for (const [fundingSources, index] of [
        [[stranger.account], 0],
        [[holder.account, eur], 1], // not the card currency
        [[holder.account, holder.account], 1],
        [[NO_CARD], 0],
      ] as const) {
        const res = await patch(card.id, { fundingSources });
        expect(res.body).toMatchObject({ status: 400, code: 'FUNDING_SOURCE_INELIGIBLE', details: { errors: [expect.objectContaining({ field: `fundingSources[${index}]` })] } });
      }
      // Not even with a state change that alone would be fine.
      expect((await patch(card.id, { state: 'FROZEN', fundingSources: [stranger.account] })).body).toMatchObject({ status: 400, code: 'FUNDING_SOURCE_INELIGIBLE' });
      expect((await get(card.id)).body).toEqual(card);
    });

    it('maxSpendPerTransaction is set, changed, and cleared with null', async () => {
      const card = await activeCard();
      expect(card.maxSpendPerTransaction).toBeNull();
      const set = await patch(card.id, { maxSpendPerTransaction: 2_500 });
      expect(set.body).toEqual({ ...card, maxSpendPerTransaction: 2_500, updatedAt: expect.any(String) });
      expect((await patch(card.id, { maxSpendPerTransaction: 9_000, state: 'FROZEN' })).body).toMatchObject({ maxSpendPerTransaction: 9_000, state: 'FROZEN' });
      const cleared = await patch(card.id, { maxSpendPerTransaction: null });
      expect(cleared.body).toEqual({ ...card, state: 'FROZEN', maxSpendPerTransaction: null, updatedAt: expect.any(String) });
      expect((await get(card.id)).body).toEqual(cleared.body);
    });

    it("another tenant's card is 404 to PATCH and stays as it was", async () => {
      const card = await activeCard();
      for (const auth of [other.sandbox, t.tenant.production]) {
        expect((await patch(card.id, { state: 'FROZEN' }, auth)).body).toMatchObject({ status: 404, code: 'CARD_NOT_FOUND' });
        expect((await patch(card.id, { state: 'CLOSED' }, auth)).status).toBe(404);
      }
      expect((await patch(NO_CARD, { state: 'FROZEN' })).body).toMatchObject({ status: 404, code: 'CARD_NOT_FOUND' });
      expect((await get(card.id)).body).toEqual(card);
    });
  });

  describe('Embedded Wallet cards: PATCH is a signed retry', () => {
    let w: TestTenant;
    let wallet: { customerId: string; usd: string; walletAccount: string; key: ClientKey };
    let strangerKey: ClientKey;

    const credentialOf = async (accountId: string) => (await t.call('GET', `/auth/credentials?accountId=${encodeURIComponent(accountId)}`, { auth: w.sandbox })).body.data[0].id as string;

    beforeAll(async () => {
      w = await t.createTenant('cards-wallets');
      await enableWallets(t, w.sandbox);
      for (;;) {
        const customerId = await approvedCustomer(t, w.sandbox, { email: `card-${Math.random().toString(36).slice(2)}@example.com` });
        const walletAccount = await eventually(
          async () => (await t.call('GET', `/customers/internal-accounts?customerId=${encodeURIComponent(customerId)}&type=EMBEDDED_WALLET`, { auth: w.sandbox })).body.data?.[0]?.id as string | undefined,
          { what: `Embedded Wallet of ${customerId}` },
        );
        const usd = await internalAccountOf(t, w.sandbox, customerId, 'USD');
        if (unlucky(walletAccount) || unlucky(usd)) continue;
        const { key } = await otpLogin(t, await credentialOf(walletAccount), { auth: w.sandbox });
        wallet = { customerId, usd, walletAccount, key };
        break;
      }
      const stranger = await walletCustomer(t, w.sandbox);
      strangerKey = (await otpLogin(t, await credentialOf(stranger.accountId), { auth: w.sandbox })).key;
    });

    async function walletCard(): Promise<Record<string, any>> {
      const created = await t.call('POST', '/cards', { auth: w.sandbox, body: { cardholderId: wallet.customerId, form: 'VIRTUAL', fundingSources: [wallet.walletAccount], platformCardId: platformCardId('100') } });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ currency: 'USDB', fundingSources: [wallet.walletAccount] });
      return untilCard(t, created.body.id, (c) => c.state === 'ACTIVE', w.sandbox);
    }

    it('answers 202 {payloadToSign, requestId, expiresAt}; the retry stamped by a session of that wallet answers 200 with the change', async () => {
      const card = await walletCard();
      const { first, final } = await signed(t, 'PATCH', `/cards/${card.id}`, { state: 'FROZEN' }, wallet.key, w.sandbox);
      expect(first.status).toBe(202);
      expect(first.body).toEqual({ payloadToSign: expect.any(String), requestId: expect.stringMatching(/^Request:/), expiresAt: expect.any(String) });
      expect(Date.parse(first.body.expiresAt)).toBeGreaterThan(Date.now());
      expect(final.status).toBe(200);
      expect(final.body).toEqual({ ...card, state: 'FROZEN', updatedAt: expect.any(String) });
      expect((await get(card.id, w.sandbox)).body).toEqual(final.body);

      const limit = await signed(t, 'PATCH', `/cards/${card.id}`, { state: 'ACTIVE', maxSpendPerTransaction: 700 }, wallet.key, w.sandbox);
      expect([limit.first.status, limit.final.status]).toEqual([202, 200]);
      expect(limit.final.body).toMatchObject({ state: 'ACTIVE', maxSpendPerTransaction: 700 });
    });

    it("a signature by another wallet's session is 401 WALLET_SIGNATURE_INVALID and nothing changes; a changed body is 401 too", async () => {
      const card = await walletCard();
      const first = await patch(card.id, { state: 'CLOSED' }, w.sandbox);
      expect(first.status).toBe(202);
      // Nothing happens before the signed retry.
      expect((await get(card.id, w.sandbox)).body).toEqual(card);
      const retry = async (key: ClientKey, body: object) =>
        t.call('PATCH', `/cards/${card.id}`, { auth: w.sandbox, body, headers: { 'Service-Wallet-Signature': await walletStamp(key, first.body.payloadToSign), 'Request-Id': first.body.requestId } });
      expect((await retry(strangerKey, { state: 'CLOSED' })).body).toMatchObject({ status: 401, code: 'WALLET_SIGNATURE_INVALID' });
      expect((await retry(wallet.key, { state: 'FROZEN' })).body).toMatchObject({ status: 401, code: 'WALLET_SIGNATURE_BODY_MISMATCH' });
      expect((await get(card.id, w.sandbox)).body).toEqual(card);
      const closed = await retry(wallet.key, { state: 'CLOSED' });
      expect(closed.status).toBe(200);
      expect(closed.body).toMatchObject({ state: 'CLOSED', stateReason: 'CLOSED_BY_PLATFORM', fundingSources: [] });
    });

    it('a change the card refuses is answered at once, before any challenge (400, 409)', async () => {
      const card = await walletCard();
      for (const body of [{}, { state: 'CLOSED', maxSpendPerTransaction: 5 }]) {
        const res = await patch(card.id, body, w.sandbox);
        expect([res.status, res.body.code]).toEqual([400, 'INVALID_INPUT']);
      }
      expect((await patch(card.id, { fundingSources: [wallet.usd] }, w.sandbox)).body).toMatchObject({ status: 400, code: 'FUNDING_SOURCE_INELIGIBLE' });
      expect((await patch(card.id, { state: 'ACTIVE' }, w.sandbox)).body).toMatchObject({ status: 409, code: 'INVALID_STATE_TRANSITION' });
      const closed = await signed(t, 'PATCH', `/cards/${card.id}`, { state: 'CLOSED' }, wallet.key, w.sandbox);
      expect([closed.first.status, closed.final.status]).toEqual([202, 200]);
      expect((await patch(card.id, { state: 'CLOSED' }, w.sandbox)).body).toMatchObject({ status: 409, code: 'CARD_ALREADY_CLOSED' });
      expect((await patch(card.id, { state: 'FROZEN' }, w.sandbox)).body).toMatchObject({ status: 409, code: 'CARD_NOT_MUTABLE' });
    });

    it('a card funded by custodial accounts only is changed at once (200, no challenge)', async () => {
      const created = await t.call('POST', '/cards', { auth: w.sandbox, body: { cardholderId: wallet.customerId, form: 'VIRTUAL', fundingSources: [wallet.usd], platformCardId: platformCardId('100') } });
      expect(created.status).toBe(201);
      const card = await untilCard(t, created.body.id, (c) => c.state === 'ACTIVE', w.sandbox);
      const frozen = await patch(card.id, { state: 'FROZEN' }, w.sandbox);
      expect(frozen.status).toBe(200);
      expect(frozen.body).toEqual({ ...card, state: 'FROZEN', updatedAt: expect.any(String) });
      // Binding the wallet would need its signature, but a USD card cannot take a USDB account anyway.
      expect((await patch(card.id, { fundingSources: [wallet.walletAccount] }, w.sandbox)).body).toMatchObject({ status: 400, code: 'FUNDING_SOURCE_INELIGIBLE' });
    });
  });

  describe('reveal', () => {
    const reveal = (cardId: string, auth = t.tenant.sandbox) => t.call('POST', `/cards/${cardId}/reveal`, { auth });
    const page = async (url: string) => {
      const res = await fetch(url);
      return { status: res.status, headers: res.headers, html: await res.text() };
    };
    const details = (html: string) => ({
      pan: /<dd id="pan">([\d ]+)<\/dd>/.exec(html)?.[1].replace(/ /g, ''),
      expiry: /<dd id="expiry">([^<]+)<\/dd>/.exec(html)?.[1],
      cvv: /<dd id="cvv">([^<]+)<\/dd>/.exec(html)?.[1],
    });

    it('answers a 5-minute panEmbedUrl whose page (no auth) shows a Luhn-valid PAN ending in last4, the CVV and the expiry; never cached, no referrer', async () => {
      const card = await activeCard({ platformCardId: platformCardId('7788') });
      const before = Date.now();
      const res = await reveal(card.id);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ panEmbedUrl: expect.stringMatching(/^http:\/\/[^/]+\/card-reveal\/[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/), expiresAt: expect.any(String) });
      expect(new URL(res.body.panEmbedUrl).origin).toBe(new URL(t.url).origin);
      const ttl = Date.parse(res.body.expiresAt) - before;
      expect(ttl).toBeGreaterThan(5 * 60_000 - 5_000);
      expect(ttl).toBeLessThanOrEqual(5 * 60_000 + 1_000);

      const shown = await page(res.body.panEmbedUrl);
      expect(shown.status).toBe(200);
      expect(shown.headers.get('content-type')).toMatch(/^text\/html/);
      expect(shown.headers.get('cache-control')).toBe('no-store');
      expect(shown.headers.get('referrer-policy')).toBe('no-referrer');
      const { pan, expiry, cvv } = details(shown.html);
      expect(pan).toMatch(/^\d{16}$/);
      expect(pan!.endsWith('7788')).toBe(true);
      expect(luhnValid(pan!)).toBe(true);
      expect(cvv).toMatch(/^\d{3}$/);
      expect(expiry).toBe(`${String(card.expMonth).padStart(2, '0')}/${String(card.expYear % 100).padStart(2, '0')}`);
      // The same card shows the same details on a second link; the GET never does.
      const again = await page((await reveal(card.id)).body.panEmbedUrl);
      expect(details(again.html)).toEqual({ pan, expiry, cvv });
      expect(JSON.stringify((await get(card.id)).body)).not.toContain(pan);
    });

    it('a link works once: the second GET is the 404 page, and of concurrent GETs only one shows the PAN', async () => {
      const card = await activeCard();
      const { panEmbedUrl } = (await reveal(card.id)).body;
      const first = await page(panEmbedUrl);
      expect(first.status).toBe(200);
      const { pan } = details(first.html);
      const second = await page(panEmbedUrl);
      expect(second.status).toBe(404);
      expect(second.html).toContain('expired or is not valid');
      expect(second.html).not.toContain(pan!.slice(-4));
      expect(second.headers.get('cache-control')).toBe('no-store');

      const racing = (await reveal(card.id)).body.panEmbedUrl;
      const answers = await Promise.all(Array.from({ length: 6 }, () => page(racing)));
      expect(answers.map((a) => a.status).sort()).toEqual([200, 404, 404, 404, 404, 404]);
      expect(answers.filter((a) => /id="pan"/.test(a.html))).toHaveLength(1);
    });

    it('a tampered token is a 404 page; after the close the old link is 404; a CLOSED or PROCESSING card is 409; another tenant 404', async () => {
      const card = await activeCard();
      const { panEmbedUrl } = (await reveal(card.id)).body;
      const [base, token] = panEmbedUrl.split('/card-reveal/');
      const [body, mac] = token.split('.');
      const flip = (s: string) => `${s.slice(0, -1)}${s.endsWith('A') ? 'B' : 'A'}`;
      for (const bad of [`${flip(body)}.${mac}`, `${body}.${flip(mac)}`, body, `${token}.x`, 'nothing']) {
        const res = await page(`${base}/card-reveal/${bad}`);
        expect(res.status).toBe(404);
        expect(res.html).not.toMatch(/id="pan"/);
        expect(res.headers.get('cache-control')).toBe('no-store');
      }
      // HEAD answers as GET would, without the page and without using the link up (a link preview must not spend it).
      const head = async (url: string) => {
        const res = await fetch(url, { method: 'HEAD' });
        return [res.status, await res.text(), res.headers.get('cache-control')];
      };
      expect(await head(panEmbedUrl)).toEqual([200, '', 'no-store']);
      expect(await head(`${base}/card-reveal/${body}.${flip(mac)}`)).toEqual([404, '', 'no-store']);
      expect((await page(panEmbedUrl)).status).toBe(200);
      expect(await head(panEmbedUrl)).toEqual([404, '', 'no-store']); // used

      expect((await reveal(card.id, other.sandbox)).body).toMatchObject({ status: 404, code: 'CARD_NOT_FOUND' });
      expect((await reveal(card.id, t.tenant.production)).status).toBe(404);
      expect((await reveal(NO_CARD)).status).toBe(404);

      // A frozen card can still be revealed (a new link: the first was used above).
      expect((await patch(card.id, { state: 'FROZEN' })).status).toBe(200);
      const frozen = await reveal(card.id);
      expect(frozen.status).toBe(200);
      expect((await page(frozen.body.panEmbedUrl)).status).toBe(200);
      const unused = (await reveal(card.id)).body.panEmbedUrl;

      expect((await patch(card.id, { state: 'CLOSED' })).status).toBe(200);
      expect(await head(unused)).toEqual([404, '', 'no-store']);
      const closedPage = await page(unused);
      expect(closedPage.status).toBe(404);
      expect(closedPage.html).not.toMatch(/id="pan"/);
      expect((await reveal(card.id)).status).toBe(409);

      const processing = (await create({ platformCardId: platformCardId('001') })).body;
      expect((await reveal(processing.id)).status).toBe(409);
      const rejected = (await create({ platformCardId: platformCardId('002') })).body;
      await untilCard(t, rejected.id, (c) => c.state === 'CLOSED');
      expect((await reveal(rejected.id)).status).toBe(409);
    });

    it('every reveal is audited (CardRevealed.v1 with the credential and the expiry) and the PAN is never in the cards events', async () => {
      const card = await activeCard();
      const minted = [(await reveal(card.id)).body, (await reveal(card.id)).body];
      const { pan } = details((await page(minted[0].panEmbedUrl)).html);
      expect(pan).toMatch(/^\d{16}$/);
      const db = t.platform.cards.host.dataSource;
      const audit: { data: any; metadata: any }[] = await db.query(`SELECT data, metadata FROM events WHERE stream_id = $1 AND type = 'CardRevealed.v1' ORDER BY stream_version`, [card.id]);
      expect(audit.map((e) => e.data)).toEqual(minted.map((m) => ({ actor: t.bootstrap.SANDBOX.clientId, expiresAt: m.expiresAt, at: expect.any(String) })));
      expect(audit.every((e) => e.metadata.actor === t.bootstrap.SANDBOX.clientId)).toBe(true);

      const [{ n }] = await db.query(`SELECT count(*)::int AS n FROM events WHERE data::text LIKE $1 OR metadata::text LIKE $1`, [`%${pan}%`]);
      expect(n).toBe(0);
      const [{ m }] = await db.query(`SELECT count(*)::int AS m FROM events WHERE data::text LIKE $1`, [`%${minted[0].panEmbedUrl.split('/card-reveal/')[1].split('.')[1]}%`]);
      expect(m).toBe(0); // nor the reveal token
      const [{ r }] = await db.query(`SELECT count(*)::int AS r FROM cards WHERE body::text LIKE $1`, [`%${pan}%`]);
      expect(r).toBe(0);
    });
  });

  describe('webhooks', () => {
    it('card.state_change for PROCESSING → ACTIVE, ACTIVE → FROZEN and → CLOSED, card.funding_source_change for the close, each with the card as GET answered it', async () => {
      const tenant = await t.createTenant('cards-webhooks');
      expect((await t.call('PATCH', '/config', { auth: tenant.sandbox, body: { webhookEndpoint: receiver.url('/cards') } })).status).toBe(200);
      const { webhookSecret } = (await t.call('GET', '/config', { auth: tenant.sandbox })).body;
      const { customerId, account } = await cardholder(t, 0, tenant.sandbox);
      const hooksOf = (cardId: string) => receiver.at('/cards').filter((h) => h.json.type.startsWith('card.') && h.json.data?.id === cardId);
      const until = (cardId: string, n: number) => eventually(async () => (hooksOf(cardId).length >= n ? hooksOf(cardId) : undefined), { what: `${n} card webhooks of ${cardId}` });

      const created = await t.call('POST', '/cards', { auth: tenant.sandbox, body: { cardholderId: customerId, form: 'VIRTUAL', fundingSources: [account], platformCardId: platformCardId('100') } });
      expect(created.status).toBe(201);
      const [activated] = await until(created.body.id, 1);
      const active = (await get(created.body.id, tenant.sandbox)).body;
      expect(active.state).toBe('ACTIVE');
      expect(activated.json).toEqual({ id: expect.stringMatching(/^Webhook:/), type: 'card.state_change', timestamp: expect.any(String), data: active });
      expect(new Webhook(webhookSecret).verify(activated.body, activated.headers)).toEqual(activated.json);

      const frozen = (await patch(active.id, { state: 'FROZEN' }, tenant.sandbox)).body;
      const afterFreeze = await until(active.id, 2);
      expect(afterFreeze[1].json).toMatchObject({ type: 'card.state_change', data: frozen });
      // Changes that change nothing send nothing.
      expect((await patch(active.id, { fundingSources: [account] }, tenant.sandbox)).status).toBe(200);
      const limited = (await patch(active.id, { maxSpendPerTransaction: 10 }, tenant.sandbox)).body;
      expect(limited.maxSpendPerTransaction).toBe(10);

      const closed = (await patch(active.id, { state: 'CLOSED' }, tenant.sandbox)).body;
      expect(closed).toMatchObject({ state: 'CLOSED', stateReason: 'CLOSED_BY_PLATFORM', fundingSources: [] });
      const all = await until(active.id, 4);
      await new Promise((r) => setTimeout(r, 300)); // nothing else follows
      expect(hooksOf(active.id)).toHaveLength(4);
      const late = all.slice(2).map((h) => h.json);
      expect(late.map((j) => j.type).sort()).toEqual(['card.funding_source_change', 'card.state_change']);
      for (const hook of late) expect(hook.data).toEqual(closed);
      expect((await get(active.id, tenant.sandbox)).body).toEqual(closed);
      expect(new Set(all.map((h) => h.json.id)).size).toBe(4);

      // The issuer's rejection is a state change too.
      const rejected = await t.call('POST', '/cards', { auth: tenant.sandbox, body: { cardholderId: customerId, form: 'VIRTUAL', fundingSources: [account], platformCardId: platformCardId('002') } });
      const [rejection] = await until(rejected.body.id, 1);
      expect(rejection.json).toMatchObject({ type: 'card.state_change', data: { ...(await get(rejected.body.id, tenant.sandbox)).body, state: 'CLOSED', stateReason: 'ISSUER_REJECTED' } });
    });
  });

  describe('a restart', () => {
    it('a 005 card waiting for its issuer when the platform restarts still becomes ACTIVE afterwards', async () => {
      const created = await create({ platformCardId: platformCardId('005') });
      expect(created.status).toBe(201);
      expect((await get(created.body.id)).body.state).toBe('PROCESSING');
      // The issuer's answer is a durable timer, not yet fired when the platform goes down (a slow restart may outlast
      // the 3 s delay: then it fires as soon as the platform is back).
      const [timer] = await t.platform.cards.host.dataSource.query(`SELECT fired_at FROM timers WHERE stream_id = $1 AND name = 'cards.card.issuer'`, [created.body.id]);
      expect(timer).toEqual({ fired_at: null });
      await t.restart();
      const active = await untilCard(t, created.body.id, (c) => c.state === 'ACTIVE');
      expect(active).toMatchObject({ brand: 'VISA', last4: expect.stringMatching(/^\d{4}$/), stateReason: null });
      expect(Date.parse(active.updatedAt) - Date.parse(active.createdAt)).toBeGreaterThanOrEqual(DELAYED_ACTIVATION_MS - 50);
    });
  });
});
