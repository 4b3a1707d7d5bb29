import { CARD_SIMULATIONS } from '@payments/contracts';
import { eventually } from '@payments/testing';
import {
  accountBalances,
  activeCard,
  cardholder,
  cardTransactionOf,
  declinesOf,
  expectCardLedgersClean,
  extraUsdAccount,
  purchase,
  simulate,
  untilCardTransaction,
} from './test-cards';
import { systemBalance } from './test-payments';
import { startTestPlatform, TestPlatform, TestTenant } from './test-platform';
import { WebhookReceiver } from './test-webhook-receiver';

/**
 * Card transactions end to end (docs/cards.md, "Card transactions"): money through the ten sandbox simulators over
 * real HTTP, seen through GET /transactions (type CARD, payments' consumer of the cards events) and the funding
 * accounts' balances. After every scenario the funding balances are checked to the unit, and both the ledger checker
 * and the card ledger check (each card transaction's postings against what it says the network holds) are clean.
 */

/** 30 s × SANDBOX_TIME_SCALE is the delay of a descriptor-005 pull. */
const DELAYED_PULL_MS = 30_000;
const envelope = (status: number, code: string) => ({ status, code, message: expect.any(String) });

interface Holder {
  customerId: string;
  account: string;
}

/** What every test needs of one platform: a cardholder with a funded account and an active card, and the simulators. */
function cardKit(get: () => TestPlatform) {
  const kit = {
    async holderWithCard(funding: number, extra: Record<string, unknown> = {}, auth?: string): Promise<Holder & { card: Record<string, any> }> {
      const t = get();
      const holder = await cardholder(t, funding, auth ?? t.tenant.sandbox);
      const card = await activeCard(t, holder.customerId, [holder.account], extra, auth ?? t.tenant.sandbox);
      return { ...holder, card };
    },
    /** A simulator call that must be accepted: its issuer token. */
    async send(cardId: string, kind: string, body: Record<string, unknown>, auth?: string): Promise<string> {
      const res = await simulate(get(), cardId, kind, body, auth ?? get().tenant.sandbox);
      if (res.status !== 202) throw new Error(`simulate/${kind}: ${res.status} ${JSON.stringify(res.body)}`);
      expect(res.body).toEqual({ issuerTransactionToken: expect.stringMatching(/^itx_[0-9a-f]{32}$/) });
      return res.body.issuerTransactionToken;
    },
    /** An authorization-family message that opens a transaction: the transaction once `done` holds for it. */
    async open(cardId: string, kind: string, body: Record<string, unknown>, done: (tx: Record<string, any>) => boolean, auth?: string): Promise<Record<string, any>> {
      const token = await kit.send(cardId, kind, body, auth);
      return cardTransactionOf(get(), token, done, auth ?? get().tenant.sandbox);
    },
    /** An authorization, AUTHORIZED with its pull confirmed. */
    authorize(cardId: string, amount: number, descriptor?: string, auth?: string): Promise<Record<string, any>> {
      return kit.open(cardId, 'authorization', purchase(amount, descriptor), (tx) => tx.status === 'AUTHORIZED' && tx.pullSummary.pendingCount === 0, auth);
    },
    /** A message on an open transaction, then the transaction once `done` holds for it. */
    async message(tx: Record<string, any>, kind: string, body: Record<string, unknown>, done: (tx: Record<string, any>) => boolean, auth?: string): Promise<Record<string, any>> {
      await kit.send(tx.cardId, kind, { cardTransactionId: tx.id, ...body }, auth);
      return untilCardTransaction(get(), tx.id, (after) => after.updatedAt !== tx.updatedAt && done(after), auth ?? get().tenant.sandbox);
    },
    balances(holder: Holder, auth?: string) {
      return accountBalances(get(), holder.customerId, holder.account, auth ?? get().tenant.sandbox);
    },
    async expectBalances(holder: Holder, balance: number, totalBalance = balance, auth?: string): Promise<void> {
      expect(await kit.balances(holder, auth)).toEqual({ balance, totalBalance });
    },
    /** A declined authorization: its CardAuthorizationDeclined.v1 says why, and no transaction of its token is ever listed. */
    async expectDeclined(cardId: string, body: Record<string, unknown>, reason: string, kind = 'authorization', auth?: string): Promise<Record<string, any>> {
      const token = await kit.send(cardId, kind, body, auth);
      const declines = await declinesOf(get(), token);
      expect(declines).toEqual([expect.objectContaining({ cardId, issuerTransactionToken: token, reason, amount: body.amount ?? 0 })]);
      return { token, decline: declines[0] };
    },
    /** Once a later transaction of the platform is listed (one bus hop after the decline), the declined token still is not. */
    async expectNeverListed(token: string, later: Record<string, any>, auth?: string): Promise<void> {
      const t = get();
      await cardTransactionOf(t, later.issuerTransactionToken, () => true, auth ?? t.tenant.sandbox);
      const listed = (await t.call('GET', '/transactions?type=CARD&limit=100', { auth: auth ?? t.tenant.sandbox })).body.data as any[];
      expect(listed.filter((x) => x.issuerTransactionToken === token)).toEqual([]);
      // Nor was a CardTransactionUpdated.v1 (what payments lists and webhooks send) ever told of it.
      const told = await t.platform.cards.host.dataSource.query(`SELECT 1 FROM cards.events WHERE type = 'CardTransactionUpdated.v1' AND data->'transaction'->>'issuerTransactionToken' = $1`, [token]);
      expect(told).toEqual([]);
    },
  };
  return kit;
}

describe('card transactions: the ten simulators through the ledger', () => {
  const SCALE = 0.1; // the 005 pull waits 3 s: room to see it pending through the bus, also on a slow CI machine
  let t: TestPlatform;
  const kit = cardKit(() => t);
  beforeAll(async () => {
    t = await startTestPlatform({ SANDBOX_TIME_SCALE: String(SCALE) });
  });
  afterAll(() => t?.stop());
  afterEach(async () => {
    if (t) await expectCardLedgersClean(t);
  });

  it('authorization holds and pulls; a clearing of it all settles; in two parts PARTIALLY_SETTLED then SETTLED', async () => {
    const h = await kit.holderWithCard(10_000);
    const network = await systemBalance(t, 'CARD_NETWORK', 'USD');
    const tx = await kit.authorize(h.card.id, 1_000);
    expect(tx).toMatchObject({
      type: 'CARD', status: 'AUTHORIZED', direction: 'DEBIT', cardId: h.card.id, customerId: h.customerId, accountId: h.account,
      authorizedAmount: { amount: 1_000, currency: { code: 'USD' } }, merchant: { descriptor: 'BLUE BOTTLE COFFEE SF', mcc: '5814', country: 'US' },
      pullSummary: { count: 1, totalAmount: 1_000, pendingCount: 0 }, settlementSummary: { count: 0, totalAmount: 0 }, refundSummary: { count: 0, totalAmount: 0 },
    });
    expect(tx).not.toHaveProperty('settledAmount');
    expect(tx.id).toMatch(/^CardTransaction:[0-9a-f-]{36}$/);
    // The hold was captured into the card network: available and total both down.
    await kit.expectBalances(h, 9_000);
    expect(await systemBalance(t, 'CARD_NETWORK', 'USD')).toBe(network + 1_000);
    expect((await t.call('GET', `/transactions/${tx.id}`)).body).toEqual(tx);

    const settled = await kit.message(tx, 'clearing', { amount: 1_000 }, (x) => x.status === 'SETTLED');
    expect(settled).toMatchObject({ settledAmount: { amount: 1_000 }, settlementSummary: { count: 1, totalAmount: 1_000 }, pullSummary: { count: 1, totalAmount: 1_000, pendingCount: 0 } });
    expect(settled).not.toHaveProperty('closedReason');
    await kit.expectBalances(h, 9_000);

    const two = await kit.authorize(h.card.id, 2_000);
    await kit.expectBalances(h, 7_000);
    const part = await kit.message(two, 'clearing', { amount: 800 }, (x) => x.status === 'PARTIALLY_SETTLED');
    expect(part).toMatchObject({ settledAmount: { amount: 800 }, settlementSummary: { count: 1, totalAmount: 800 } });
    const rest = await kit.message(part, 'clearing', { amount: 1_200 }, (x) => x.status === 'SETTLED');
    expect(rest).toMatchObject({ settledAmount: { amount: 2_000 }, settlementSummary: { count: 2, totalAmount: 2_000 }, pullSummary: { count: 1, totalAmount: 2_000 } });
    await kit.expectBalances(h, 7_000);
    expect(await systemBalance(t, 'CARD_NETWORK', 'USD')).toBe(network + 3_000);

    // A clearing on a SETTLED transaction does not fit: 409, nothing moves.
    const again = await simulate(t, h.card.id, 'clearing', { cardTransactionId: rest.id, amount: 100 });
    expect(again.status).toBe(409);
    expect(again.body).toEqual(envelope(409, 'INVALID_STATE_TRANSITION'));
    await kit.expectBalances(h, 7_000);
  });

  it('a clearing above the authorization pulls the difference after the fact; without the funds it is an EXCEPTION', async () => {
    const h = await kit.holderWithCard(5_000);
    const tx = await kit.authorize(h.card.id, 1_000);
    const over = await kit.message(tx, 'clearing', { amount: 1_500 }, (x) => x.status === 'SETTLED');
    expect(over).toMatchObject({ settledAmount: { amount: 1_500 }, pullSummary: { count: 2, totalAmount: 1_500, pendingCount: 0 }, settlementSummary: { count: 1, totalAmount: 1_500 } });
    await kit.expectBalances(h, 3_500);

    // Exactly the authorized amount in the account: the post-hoc pull finds nothing.
    const poor = await kit.holderWithCard(1_000);
    const all = await kit.authorize(poor.card.id, 1_000);
    await kit.expectBalances(poor, 0);
    const failed = await kit.message(all, 'clearing', { amount: 1_300 }, (x) => x.status === 'EXCEPTION');
    expect(failed).toMatchObject({ settledAmount: { amount: 1_300 }, pullSummary: { count: 2, totalAmount: 1_000, pendingCount: 0 } });
    await kit.expectBalances(poor, 0);
    // An EXCEPTION takes no further clearing.
    expect((await simulate(t, poor.card.id, 'clearing', { cardTransactionId: all.id, amount: 1 })).body).toEqual(envelope(409, 'INVALID_STATE_TRANSITION'));
  });

  it('a clearing of 0 expires the authorization: what was pulled goes back, SETTLED with closedReason AUTHORIZATION_EXPIRY', async () => {
    const h = await kit.holderWithCard(3_000);
    const tx = await kit.authorize(h.card.id, 700);
    await kit.expectBalances(h, 2_300);
    const expired = await kit.message(tx, 'clearing', { amount: 0 }, (x) => x.status === 'SETTLED');
    expect(expired).toMatchObject({ closedReason: 'AUTHORIZATION_EXPIRY', settledAmount: { amount: 0 }, authorizedAmount: { amount: 700 }, pullSummary: { count: 1, totalAmount: 700 } });
    await kit.expectBalances(h, 3_000);

    // Partly settled, then expired: only the unsettled rest comes back.
    const part = await kit.authorize(h.card.id, 1_000);
    const cleared = await kit.message(part, 'clearing', { amount: 400 }, (x) => x.status === 'PARTIALLY_SETTLED');
    const rest = await kit.message(cleared, 'clearing', { amount: 0 }, (x) => x.status === 'SETTLED');
    expect(rest).toMatchObject({ closedReason: 'AUTHORIZATION_EXPIRY', settledAmount: { amount: 400 } });
    await kit.expectBalances(h, 2_600);
    expect((await simulate(t, h.card.id, 'clearing', { cardTransactionId: rest.id, amount: 0 })).body).toEqual(envelope(409, 'INVALID_STATE_TRANSITION'));
  });

  it('descriptor 002 declines INSUFFICIENT_FUNDS and 003 CARD_PAUSED: no transaction is opened, nothing moves', async () => {
    const h = await kit.holderWithCard(5_000);
    const { token: poor, decline } = await kit.expectDeclined(h.card.id, purchase(1_000, 'CORNER SHOP 002'), 'INSUFFICIENT_FUNDS');
    expect(decline).toMatchObject({ customerId: h.customerId, currency: 'USD', merchant: { descriptor: 'CORNER SHOP 002' } });
    const { token: paused } = await kit.expectDeclined(h.card.id, purchase(1_000, 'CORNER SHOP 003'), 'CARD_PAUSED');
    await kit.expectBalances(h, 5_000);
    const later = await kit.authorize(h.card.id, 100);
    await kit.expectNeverListed(poor, later);
    await kit.expectNeverListed(paused, later);
    await kit.expectBalances(h, 4_900);
  });

  it('descriptor 005 delays the pull ~30 s × SANDBOX_TIME_SCALE (the hold meanwhile); 006 fails it: EXCEPTION, nothing taken', async () => {
    const h = await kit.holderWithCard(5_000);
    const started = Date.now();
    const token = await kit.send(h.card.id, 'authorization', purchase(1_200, 'SLOW MERCHANT 005'));
    const pending = await cardTransactionOf(t, token, (x) => x.pullSummary.pendingCount === 1);
    expect(pending).toMatchObject({ status: 'AUTHORIZED', pullSummary: { count: 1, totalAmount: 0, pendingCount: 1 } });
    // Held, not yet taken: available down, total not.
    await kit.expectBalances(h, 3_800, 5_000);
    const pulled = await untilCardTransaction(t, pending.id, (x) => x.pullSummary.pendingCount === 0);
    expect(Date.now() - started).toBeGreaterThanOrEqual(DELAYED_PULL_MS * SCALE - 100);
    expect(pulled).toMatchObject({ status: 'AUTHORIZED', pullSummary: { count: 1, totalAmount: 1_200, pendingCount: 0 } });
    await kit.expectBalances(h, 3_800);
    await expectCardLedgersClean(t);
    await kit.message(pulled, 'clearing', { amount: 1_200 }, (x) => x.status === 'SETTLED');
    await kit.expectBalances(h, 3_800);

    // Expired before its delayed pull ran: the pull is cancelled (the hold released), and it never runs later.
    const early = Date.now();
    const cancelled = await cardTransactionOf(t, await kit.send(h.card.id, 'authorization', purchase(1_000, 'SLOW MERCHANT 005')), (x) => x.pullSummary.pendingCount === 1);
    await kit.expectBalances(h, 2_800, 3_800);
    const expired = await kit.message(cancelled, 'clearing', { amount: 0 }, (x) => x.status === 'SETTLED');
    expect(expired).toMatchObject({ closedReason: 'AUTHORIZATION_EXPIRY', settledAmount: { amount: 0 }, pullSummary: { count: 1, totalAmount: 0, pendingCount: 0 } });
    await kit.expectBalances(h, 3_800);
    await new Promise((r) => setTimeout(r, Math.max(0, DELAYED_PULL_MS * SCALE + 500 - (Date.now() - early))));
    await kit.expectBalances(h, 3_800);
    expect((await t.call('GET', `/transactions/${expired.id}`)).body).toEqual(expired);

    const failed = await kit.open(h.card.id, 'authorization', purchase(900, 'BROKEN MERCHANT 006'), (x) => x.status === 'EXCEPTION');
    expect(failed).toMatchObject({ authorizedAmount: { amount: 900 }, pullSummary: { count: 1, totalAmount: 0, pendingCount: 0 } });
    await kit.expectBalances(h, 3_800);
    expect((await simulate(t, h.card.id, 'clearing', { cardTransactionId: failed.id, amount: 900 })).body).toEqual(envelope(409, 'INVALID_STATE_TRANSITION'));
  });

  it('a frozen card declines CARD_PAUSED while an earlier authorization on it still clears and returns', async () => {
    const h = await kit.holderWithCard(5_000);
    const before = await kit.authorize(h.card.id, 1_000);
    expect((await t.call('PATCH', `/cards/${h.card.id}`, { body: { state: 'FROZEN' } })).body.state).toBe('FROZEN');
    await kit.expectDeclined(h.card.id, purchase(500), 'CARD_PAUSED');
    await kit.expectBalances(h, 4_000);
    const settled = await kit.message(before, 'clearing', { amount: 1_000 }, (x) => x.status === 'SETTLED');
    const returned = await kit.message(settled, 'return', { amount: 250 }, (x) => x.refundSummary.count === 1);
    expect(returned).toMatchObject({ status: 'SETTLED', refundedAmount: { amount: 250 } });
    await kit.expectBalances(h, 4_250);
    // Unfrozen, it authorizes again.
    expect((await t.call('PATCH', `/cards/${h.card.id}`, { body: { state: 'ACTIVE' } })).body.state).toBe('ACTIVE');
    await kit.authorize(h.card.id, 250);
    await kit.expectBalances(h, 4_000);
  });

  it('maxSpendPerTransaction: exactly the limit passes, one more declines SPEND_LIMIT_EXCEEDED', async () => {
    const h = await kit.holderWithCard(10_000, { maxSpendPerTransaction: 2_500 });
    await kit.authorize(h.card.id, 2_500);
    await kit.expectDeclined(h.card.id, purchase(2_501), 'SPEND_LIMIT_EXCEEDED');
    await kit.expectBalances(h, 7_500);
    // The limit is per authorization, and a single-message authorization is held to it too.
    await kit.expectDeclined(h.card.id, purchase(2_501), 'SPEND_LIMIT_EXCEEDED', 'financial_authorization');
    await kit.expectBalances(h, 7_500);
  });

  it('funding sources in priority order: the first that covers the amount pays; none → INSUFFICIENT_FUNDS', async () => {
    const first = await cardholder(t, 500);
    const second = { customerId: first.customerId, account: await extraUsdAccount(t, first.customerId, 4_000) };
    const card = await activeCard(t, first.customerId, [first.account, second.account]);
    expect(card.fundingSources).toEqual([first.account, second.account]);

    const small = await kit.authorize(card.id, 500);
    expect(small.accountId).toBe(first.account);
    const large = await kit.authorize(card.id, 1_000);
    expect(large.accountId).toBe(second.account);
    await kit.expectBalances(first, 0);
    await kit.expectBalances(second, 3_000);
    await kit.expectDeclined(card.id, purchase(3_001), 'INSUFFICIENT_FUNDS');
    await kit.expectBalances(first, 0);
    await kit.expectBalances(second, 3_000);
    // Money goes back to the source that paid.
    await kit.message(large, 'clearing', { amount: 0 }, (x) => x.closedReason === 'AUTHORIZATION_EXPIRY');
    await kit.expectBalances(second, 4_000);
    await kit.expectBalances(first, 0);
  });

  it('authorization_advice: up pulls more, down gives the difference back, below what settled is 400', async () => {
    const h = await kit.holderWithCard(10_000);
    const tx = await kit.authorize(h.card.id, 1_000);
    const up = await kit.message(tx, 'authorization_advice', { amount: 1_600 }, (x) => x.authorizedAmount.amount === 1_600);
    expect(up).toMatchObject({ status: 'AUTHORIZED', pullSummary: { count: 2, totalAmount: 1_600, pendingCount: 0 } });
    await kit.expectBalances(h, 8_400);
    const down = await kit.message(up, 'authorization_advice', { amount: 700 }, (x) => x.authorizedAmount.amount === 700);
    expect(down).toMatchObject({ status: 'AUTHORIZED', pullSummary: { count: 2, totalAmount: 1_600 } });
    await kit.expectBalances(h, 9_300);
    const part = await kit.message(down, 'clearing', { amount: 300 }, (x) => x.status === 'PARTIALLY_SETTLED');
    const below = await simulate(t, h.card.id, 'authorization_advice', { cardTransactionId: part.id, amount: 299 });
    expect(below.status).toBe(400);
    expect(below.body).toMatchObject(envelope(400, 'INVALID_INPUT'));
    await kit.expectBalances(h, 9_300);
    // Down to exactly what settled: SETTLED, the rest back.
    const exact = await kit.message(part, 'authorization_advice', { amount: 300 }, (x) => x.authorizedAmount.amount === 300);
    expect(exact).toMatchObject({ status: 'SETTLED', settledAmount: { amount: 300 } });
    await kit.expectBalances(h, 9_700);
  });

  it('balance_inquiry settles at once with nothing moved; credits pay the account from CARD_NETWORK; financial messages settle at once', async () => {
    const h = await kit.holderWithCard(5_000);
    const network = await systemBalance(t, 'CARD_NETWORK', 'USD');
    const inquiry = await kit.open(h.card.id, 'balance_inquiry', { merchant: { descriptor: 'ATM BALANCE' } }, (x) => x.status === 'SETTLED');
    expect(inquiry).toMatchObject({ closedReason: 'BALANCE_INQUIRY', authorizedAmount: { amount: 0 }, settledAmount: { amount: 0 }, pullSummary: { count: 0, totalAmount: 0 } });
    await kit.expectBalances(h, 5_000);

    const credit = await kit.open(h.card.id, 'credit_authorization', purchase(800, 'REFUNDING MERCHANT'), (x) => x.status === 'AUTHORIZED');
    expect(credit).toMatchObject({ direction: 'CREDIT', accountId: h.account, authorizedAmount: { amount: 800 }, pullSummary: { count: 0, totalAmount: 0 } });
    await kit.expectBalances(h, 5_000);
    const credited = await kit.message(credit, 'clearing', { amount: 800 }, (x) => x.status === 'SETTLED');
    expect(credited).toMatchObject({ direction: 'CREDIT', settledAmount: { amount: 800 } });
    await kit.expectBalances(h, 5_800);
    expect(await systemBalance(t, 'CARD_NETWORK', 'USD')).toBe(network - 800);

    const advice = await kit.open(h.card.id, 'credit_authorization_advice', purchase(300, 'ADVISED CREDIT'), (x) => x.status === 'AUTHORIZED');
    expect(advice).toMatchObject({ direction: 'CREDIT', authorizedAmount: { amount: 300 } });
    await kit.expectBalances(h, 5_800);
    await kit.message(advice, 'clearing', { amount: 300 }, (x) => x.status === 'SETTLED');
    await kit.expectBalances(h, 6_100);
    // A return does not apply to a credit.
    expect((await simulate(t, h.card.id, 'return', { cardTransactionId: advice.id, amount: 100 })).body).toEqual(envelope(409, 'INVALID_STATE_TRANSITION'));

    const financial = await kit.open(h.card.id, 'financial_authorization', purchase(500, 'ONE SHOT'), (x) => x.status === 'SETTLED' && x.pullSummary.pendingCount === 0);
    expect(financial).toMatchObject({ direction: 'DEBIT', settledAmount: { amount: 500 }, pullSummary: { count: 1, totalAmount: 500 } });
    await kit.expectBalances(h, 5_600);
    const financialCredit = await kit.open(h.card.id, 'financial_credit_authorization', purchase(400, 'ONE SHOT CREDIT'), (x) => x.status === 'SETTLED');
    expect(financialCredit).toMatchObject({ direction: 'CREDIT', settledAmount: { amount: 400 } });
    await kit.expectBalances(h, 6_000);
    expect(await systemBalance(t, 'CARD_NETWORK', 'USD')).toBe(network - 800 - 300 + 500 - 400);
  });

  it('returns: partial stays SETTLED, the rest REFUNDED, above the net settled 400; a return reversal takes it back (SETTLED), on SETTLED 409', async () => {
    const h = await kit.holderWithCard(5_000);
    const tx = await kit.authorize(h.card.id, 1_000);
    const settled = await kit.message(tx, 'clearing', { amount: 1_000 }, (x) => x.status === 'SETTLED');
    await kit.expectBalances(h, 4_000);
    const partial = await kit.message(settled, 'return', { amount: 300 }, (x) => x.refundSummary.count === 1);
    expect(partial).toMatchObject({ status: 'SETTLED', refundedAmount: { amount: 300 }, refundSummary: { count: 1, totalAmount: 300 } });
    await kit.expectBalances(h, 4_300);
    const tooMuch = await simulate(t, h.card.id, 'return', { cardTransactionId: tx.id, amount: 701 });
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.body).toMatchObject(envelope(400, 'INVALID_INPUT'));
    const refunded = await kit.message(partial, 'return', { amount: 700 }, (x) => x.status === 'REFUNDED');
    expect(refunded).toMatchObject({ refundedAmount: { amount: 1_000 }, refundSummary: { count: 2, totalAmount: 1_000 } });
    await kit.expectBalances(h, 5_000);
    expect((await simulate(t, h.card.id, 'return', { cardTransactionId: tx.id, amount: 1 })).body).toEqual(envelope(409, 'INVALID_STATE_TRANSITION'));

    const reversed = await kit.message(refunded, 'return_reversal', {}, (x) => x.status === 'SETTLED');
    expect(reversed).toMatchObject({ refundedAmount: { amount: 300 }, refundSummary: { count: 1, totalAmount: 300 } });
    await kit.expectBalances(h, 4_300);
    const onSettled = await simulate(t, h.card.id, 'return_reversal', { cardTransactionId: tx.id });
    expect(onSettled.status).toBe(409);
    expect(onSettled.body).toEqual(envelope(409, 'INVALID_STATE_TRANSITION'));
    await kit.expectBalances(h, 4_300);
  });

  it('a return reversal the account cannot pay back is an EXCEPTION', async () => {
    const h = await kit.holderWithCard(1_000);
    const tx = await kit.authorize(h.card.id, 1_000);
    const settled = await kit.message(tx, 'clearing', { amount: 1_000 }, (x) => x.status === 'SETTLED');
    const refunded = await kit.message(settled, 'return', { amount: 1_000 }, (x) => x.status === 'REFUNDED');
    await kit.expectBalances(h, 1_000);
    // The refund is spent before the network reverses it.
    await kit.authorize(h.card.id, 1_000);
    await kit.expectBalances(h, 0);
    const exception = await kit.message(refunded, 'return_reversal', {}, (x) => x.status === 'EXCEPTION');
    expect(exception).toMatchObject({ refundedAmount: { amount: 1_000 } });
    await kit.expectBalances(h, 0);
  });

  it('closing a card expires its open authorizations (money back); a simulation on the closed card declines CARD_PAUSED', async () => {
    const h = await kit.holderWithCard(5_000);
    const open = await kit.authorize(h.card.id, 1_000);
    const part = await kit.message(await kit.authorize(h.card.id, 800), 'clearing', { amount: 300 }, (x) => x.status === 'PARTIALLY_SETTLED');
    const done = await kit.message(await kit.authorize(h.card.id, 200), 'clearing', { amount: 200 }, (x) => x.status === 'SETTLED');
    const delayed = await cardTransactionOf(t, await kit.send(h.card.id, 'authorization', purchase(500, 'LATE PULL 005')), (x) => x.pullSummary.pendingCount === 1);
    await kit.expectBalances(h, 2_500, 3_000);
    const closed = await t.call('PATCH', `/cards/${h.card.id}`, { body: { state: 'CLOSED' } });
    expect(closed.body).toMatchObject({ state: 'CLOSED', stateReason: 'CLOSED_BY_PLATFORM', fundingSources: [] });
    const expired = await untilCardTransaction(t, open.id, (x) => x.status === 'SETTLED');
    expect(expired).toMatchObject({ closedReason: 'AUTHORIZATION_EXPIRY', settledAmount: { amount: 0 } });
    const rest = await untilCardTransaction(t, part.id, (x) => x.status === 'SETTLED');
    expect(rest).toMatchObject({ closedReason: 'AUTHORIZATION_EXPIRY', settledAmount: { amount: 300 } });
    expect((await t.call('GET', `/transactions/${done.id}`)).body).toEqual(done);
    // A pull still pending is cancelled: its hold released, nothing taken.
    const cancelled = await untilCardTransaction(t, delayed.id, (x) => x.status === 'SETTLED');
    expect(cancelled).toMatchObject({ closedReason: 'AUTHORIZATION_EXPIRY', settledAmount: { amount: 0 }, pullSummary: { count: 1, totalAmount: 0, pendingCount: 0 } });
    await kit.expectBalances(h, 4_500);
    await kit.expectDeclined(h.card.id, purchase(100), 'CARD_PAUSED');
    await kit.expectBalances(h, 4_500);
  });

  it('tenancy and input: another tenant\'s card 404, another card\'s transaction 404, production 404, malformed bodies 400', async () => {
    const h = await kit.holderWithCard(5_000);
    const other = await kit.holderWithCard(5_000);
    const tx = await kit.authorize(h.card.id, 100);
    const tenant = await t.createTenant('Card transactions elsewhere');

    const foreign = await simulate(t, h.card.id, 'authorization', purchase(100), tenant.sandbox);
    expect(foreign.body).toEqual(envelope(404, 'CARD_NOT_FOUND'));
    const foreignClearing = await simulate(t, h.card.id, 'clearing', { cardTransactionId: tx.id, amount: 100 }, tenant.sandbox);
    expect(foreignClearing.status).toBe(404);
    expect((await t.call('GET', `/transactions/${tx.id}`, { auth: tenant.sandbox })).status).toBe(404);
    expect((await t.call('GET', `/transactions?type=CARD`, { auth: tenant.sandbox })).body.data).toEqual([]);
    // Another card's transaction, on this tenant and from another tenant's own card.
    expect((await simulate(t, other.card.id, 'clearing', { cardTransactionId: tx.id, amount: 100 })).body).toEqual(envelope(404, 'CARD_TRANSACTION_NOT_FOUND'));
    expect((await simulate(t, other.card.id, 'return_reversal', { cardTransactionId: tx.id })).body).toEqual(envelope(404, 'CARD_TRANSACTION_NOT_FOUND'));
    const theirs = await kit.holderWithCard(1_000, {}, tenant.sandbox);
    expect((await simulate(t, theirs.card.id, 'clearing', { cardTransactionId: tx.id, amount: 100 }, tenant.sandbox)).body).toEqual(envelope(404, 'CARD_TRANSACTION_NOT_FOUND'));
    expect((await simulate(t, h.card.id, 'clearing', { cardTransactionId: 'CardTransaction:00000000-0000-7000-8000-000000000000', amount: 1 })).body).toEqual(envelope(404, 'CARD_TRANSACTION_NOT_FOUND'));

    // Production credentials: every simulator path is 404, and nothing happened.
    const validBody = (kind: string): Record<string, unknown> => {
      if (kind === 'balance_inquiry') return { merchant: { descriptor: 'ATM' } };
      if (kind === 'return_reversal') return { cardTransactionId: tx.id };
      if (kind === 'clearing' || kind === 'return' || kind === 'authorization_advice') return { cardTransactionId: tx.id, amount: 100 };
      return purchase(100);
    };
    for (const kind of CARD_SIMULATIONS) {
      const res = await simulate(t, h.card.id, kind, validBody(kind), t.tenant.production);
      expect([kind, res.status]).toEqual([kind, 404]);
      expect(res.body).toMatchObject({ status: 404, code: expect.any(String), message: expect.any(String) });
    }

    const invalid = async (kind: string, body: Record<string, unknown>, code = 'INVALID_INPUT'): Promise<string[]> => {
      const res = await simulate(t, h.card.id, kind, body);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject(envelope(400, code));
      return (res.body.details?.errors ?? []).map((e: { field: string }) => e.field);
    };
    expect(await invalid('authorization', { amount: 100, currency: { code: 'USD' } })).toContain('merchant');
    expect(await invalid('authorization', purchase(0))).toContain('amount');
    expect(await invalid('authorization', { ...purchase(100), merchant: {} })).toEqual(expect.arrayContaining([expect.stringMatching(/^merchant/)]));
    expect(await invalid('authorization', purchase(100, 'SHOP', 'EUR'), 'INVALID_CURRENCY')).toEqual(['currency.code']);
    expect(await invalid('financial_credit_authorization', purchase(100, 'SHOP', 'GBP'), 'INVALID_CURRENCY')).toEqual(['currency.code']);
    expect(await invalid('authorization', { ...purchase(100), tip: 5 })).toContain('tip');
    expect(await invalid('balance_inquiry', { merchant: { descriptor: 'ATM' }, amount: 5 })).toContain('amount');
    expect(await invalid('clearing', { amount: 100 })).toContain('cardTransactionId');
    expect(await invalid('clearing', { cardTransactionId: tx.id, amount: -1 })).toContain('amount');
    expect(await invalid('return', { cardTransactionId: tx.id, amount: 0 })).toContain('amount');
    expect(await invalid('authorization_advice', { cardTransactionId: tx.id })).toContain('amount');
    expect(await invalid('return_reversal', { cardTransactionId: tx.id, amount: 5 })).toContain('amount');
    // None of it moved money or opened anything.
    await kit.expectBalances(h, 4_900);
    expect((await t.call('GET', `/transactions/${tx.id}`)).body).toEqual(tx);
    const listed = (await t.call('GET', `/transactions?type=CARD&customerId=${encodeURIComponent(h.customerId)}`)).body.data;
    expect(listed.map((x: any) => x.id)).toEqual([tx.id]);
  });
});

describe('card transactions: concurrency, crashes and idempotency', () => {
  const SCALE = 0.2; // the 005 pull waits 6 s: long enough to restart the platform before it runs
  let t: TestPlatform;
  const kit = cardKit(() => t);
  beforeAll(async () => {
    t = await startTestPlatform({ SANDBOX_TIME_SCALE: String(SCALE) });
  });
  afterAll(() => t?.stop());
  afterEach(async () => {
    if (t) await expectCardLedgersClean(t);
  });

  it('20 parallel authorizations on an account that holds exactly 7 of them: 7 AUTHORIZED, 13 declined, balance 0 and never negative', async () => {
    const h = await kit.holderWithCard(7 * 300);
    let lowest = Number.POSITIVE_INFINITY;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        const b = await kit.balances(h);
        lowest = Math.min(lowest, b.balance, b.totalBalance);
      }
    })();
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => simulate(t, h.card.id, 'authorization', purchase(300, `BURST ${i}`))));
    sampling = false;
    await sampler;
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(202));
    const tokens = answers.map((a) => a.body.issuerTransactionToken as string);
    const declined = (await Promise.all(tokens.map((token) => declinesOf(t, token)))).filter((d) => d.length > 0);
    expect(declined).toHaveLength(13);
    for (const [d] of declined) expect(d.reason).toBe('INSUFFICIENT_FUNDS');
    const listed = await eventually(async () => {
      const page = (await t.call('GET', `/transactions?type=CARD&customerId=${encodeURIComponent(h.customerId)}&limit=100`)).body.data as any[];
      return page.length === 7 && page.every((x) => x.status === 'AUTHORIZED' && x.pullSummary.pendingCount === 0) ? page : undefined;
    }, { what: '7 authorized card transactions' });
    expect(new Set(listed.map((x) => x.issuerTransactionToken))).toEqual(new Set(tokens.filter((_, i) => !declined.some(([d]) => d.issuerTransactionToken === tokens[i]))));
    expect(listed.reduce((sum, x) => sum + x.pullSummary.totalAmount, 0)).toBe(2_100);
    expect(lowest).toBeGreaterThanOrEqual(0);
    await kit.expectBalances(h, 0);
  });

  it('parallel returns on one transaction: one at a time (409 CONFLICT while one applies), never more than settled', async () => {
    const h = await kit.holderWithCard(2_000);
    const settled = await kit.message(await kit.authorize(h.card.id, 1_000), 'clearing', { amount: 1_000 }, (x) => x.status === 'SETTLED');
    const answers = await Promise.all(Array.from({ length: 10 }, () => simulate(t, h.card.id, 'return', { cardTransactionId: settled.id, amount: 600 })));
    const accepted = answers.filter((a) => a.status === 202);
    expect(accepted).toHaveLength(1);
    for (const a of answers.filter((x) => x.status !== 202)) expect(a.body).toEqual(expect.objectContaining({ code: expect.stringMatching(/^(CONFLICT|INVALID_INPUT)$/) }));
    const refunded = await untilCardTransaction(t, settled.id, (x) => x.refundSummary.count === 1);
    expect(refunded).toMatchObject({ status: 'SETTLED', refundedAmount: { amount: 600 } });
    await kit.expectBalances(h, 1_600);
  });

  it('closing a card while clearings keep arriving still expires every open authorization of it', async () => {
    const h = await kit.holderWithCard(50_000);
    const txs = [];
    for (let i = 0; i < 10; i++) txs.push(await kit.authorize(h.card.id, 5_000));
    const settledBy = new Map<string, number>();
    // Clearings of 1 on each, one after the other, until the transaction no longer takes them (expired by the close).
    const streams = txs.map(async (tx) => {
      for (let i = 0; i < 150; i++) {
        const res = await simulate(t, h.card.id, 'clearing', { cardTransactionId: tx.id, amount: 1 });
        if (res.status === 202) settledBy.set(tx.id, (settledBy.get(tx.id) ?? 0) + 1);
        else if (res.body.code !== 'CONFLICT') return res.body.code as string;
      }
      return 'still open';
    });
    await new Promise((r) => setTimeout(r, 150));
    expect((await t.call('PATCH', `/cards/${h.card.id}`, { body: { state: 'CLOSED' } })).status).toBe(200);
    expect(await Promise.all(streams)).toEqual(Array(10).fill('INVALID_STATE_TRANSITION'));
    for (const tx of txs) {
      const after = await untilCardTransaction(t, tx.id, (x) => x.status === 'SETTLED');
      expect(after).toMatchObject({ closedReason: 'AUTHORIZATION_EXPIRY', settledAmount: { amount: settledBy.get(tx.id) ?? 0 } });
    }
    await kit.expectBalances(h, 50_000 - [...settledBy.values()].reduce((a, b) => a + b, 0));
  });

  it('an advice down after a delayed pull failed gives back only what the network holds beyond the new amount', async () => {
    const h = await kit.holderWithCard(2_000);
    const tx = await cardTransactionOf(t, await kit.send(h.card.id, 'authorization', purchase(1_000, 'SLOW HOTEL 005')), (x) => x.pullSummary.pendingCount === 1);
    // Up: the first pull is made now, the 500 more waits (005).
    const up = await kit.message(tx, 'authorization_advice', { amount: 1_500 }, (x) => x.authorizedAmount.amount === 1_500);
    expect(up.pullSummary).toEqual({ count: 2, totalAmount: 1_000, pendingCount: 1 });
    await kit.expectBalances(h, 1_000);
    // The rest of the account is spent before that pull; the advice down makes it now, and it fails.
    await kit.authorize(h.card.id, 1_000);
    await kit.expectBalances(h, 0);
    const down = await kit.message(up, 'authorization_advice', { amount: 100 }, (x) => x.authorizedAmount.amount === 100);
    expect(down).toMatchObject({ status: 'EXCEPTION', pullSummary: { count: 2, totalAmount: 1_000, pendingCount: 0 } });
    // 1,000 was pulled for what is now 100: 900 goes back, not the 1,400 of the two authorized amounts.
    await kit.expectBalances(h, 900);
  });

  it('a delayed pull (005) survives a restart: after it the pull completes, and the ledgers are clean', async () => {
    const h = await kit.holderWithCard(4_000);
    const token = await kit.send(h.card.id, 'authorization', purchase(1_500, 'NIGHT MARKET 005'));
    const pending = await cardTransactionOf(t, token, (x) => x.pullSummary.pendingCount === 1);
    await kit.expectBalances(h, 2_500, 4_000);
    const [timer] = await t.platform.cards.host.dataSource.query(`SELECT fired_at FROM cards.timers WHERE name = 'cards.transaction.pull' AND stream_id = $1`, [pending.id]);
    expect(timer).toEqual({ fired_at: null });
    await t.restart();
    const pulled = await untilCardTransaction(t, pending.id, (x) => x.pullSummary.pendingCount === 0);
    expect(pulled).toMatchObject({ status: 'AUTHORIZED', pullSummary: { count: 1, totalAmount: 1_500, pendingCount: 0 } });
    await kit.expectBalances(h, 2_500);
    await expectCardLedgersClean(t);
    await kit.message(pulled, 'clearing', { amount: 1_500 }, (x) => x.status === 'SETTLED');
    await kit.expectBalances(h, 2_500);
  });

  it('one message per Idempotency-Key: the same key twice answers the same token and opens one transaction', async () => {
    const h = await kit.holderWithCard(3_000);
    const headers = { 'Idempotency-Key': `card-auth-${Date.now()}` };
    const first = await t.call('POST', `/sandbox/cards/${h.card.id}/simulate/authorization`, { body: purchase(1_000), headers });
    const second = await t.call('POST', `/sandbox/cards/${h.card.id}/simulate/authorization`, { body: purchase(1_000), headers });
    expect(first.status).toBe(202);
    expect(second.status).toBe(202);
    expect(second.body.issuerTransactionToken).toBe(first.body.issuerTransactionToken);
    // The key names that one request: another body under it is refused.
    const other = await t.call('POST', `/sandbox/cards/${h.card.id}/simulate/authorization`, { body: purchase(2_000), headers });
    expect(other.status).toBe(409);
    expect(other.body.code).toMatch(/^IDEMPOTENCY_KEY_(REUSED|IN_USE)$/);
    const tx = await cardTransactionOf(t, first.body.issuerTransactionToken, (x) => x.pullSummary.pendingCount === 0);
    // A clearing retried with its key settles once.
    const clearing = { 'Idempotency-Key': `card-clear-${Date.now()}` };
    const c1 = await t.call('POST', `/sandbox/cards/${h.card.id}/simulate/clearing`, { body: { cardTransactionId: tx.id, amount: 1_200 }, headers: clearing });
    const c2 = await t.call('POST', `/sandbox/cards/${h.card.id}/simulate/clearing`, { body: { cardTransactionId: tx.id, amount: 1_200 }, headers: clearing });
    expect([c1.status, c2.status]).toEqual([202, 202]);
    expect(c2.body).toEqual(c1.body);
    const settled = await untilCardTransaction(t, tx.id, (x) => x.status === 'SETTLED');
    expect(settled).toMatchObject({ settlementSummary: { count: 1, totalAmount: 1_200 }, pullSummary: { count: 2, totalAmount: 1_200 } });
    const listed = (await t.call('GET', `/transactions?type=CARD&customerId=${encodeURIComponent(h.customerId)}`)).body.data;
    expect(listed.map((x: any) => x.id)).toEqual([tx.id]);
    await kit.expectBalances(h, 1_800);
  });
});

describe('card transactions: CARD_TRANSACTION webhooks', () => {
  let t: TestPlatform;
  let tenant: TestTenant;
  const kit = cardKit(() => t);
  const receiver = new WebhookReceiver();
  beforeAll(async () => {
    await receiver.start();
    t = await startTestPlatform({ SANDBOX_TIME_SCALE: '0.01', WEBHOOK_BACKOFF_SCALE: '0.0002' });
    tenant = await t.createTenant('Card webhooks');
    expect((await t.call('PATCH', '/config', { auth: tenant.sandbox, body: { webhookEndpoint: receiver.url('/cards') } })).status).toBe(200);
    await eventually(() => Promise.resolve(receiver.at('/cards', 'TEST').length > 0), { what: 'TEST webhook' });
  });
  afterAll(async () => {
    await t?.stop();
    await receiver.stop();
  });
  afterEach(async () => {
    if (t) await expectCardLedgersClean(t);
  });

  /** The CARD_TRANSACTION.<status> webhook whose data is the transaction as GET answers it now. */
  async function expectWebhookOf(tx: Record<string, any>): Promise<void> {
    const now = (await t.call('GET', `/transactions/${tx.id}`, { auth: tenant.sandbox })).body;
    expect(now).toEqual(tx);
    const hook = await eventually(
      async () => receiver.at('/cards', `CARD_TRANSACTION.${tx.status}`).find((h) => h.json.data.id === tx.id && h.json.data.updatedAt === tx.updatedAt),
      { what: `CARD_TRANSACTION.${tx.status} of ${tx.id} at ${tx.updatedAt}` },
    );
    expect(hook.json).toEqual({ id: expect.stringMatching(/^Webhook:/), type: `CARD_TRANSACTION.${tx.status}`, timestamp: expect.any(String), data: now });
  }

  it('AUTHORIZED, SETTLED, REFUNDED and EXCEPTION arrive with data equal to GET /transactions/{id} at that moment; a decline sends none', async () => {
    const auth = tenant.sandbox;
    const h = await kit.holderWithCard(5_000, {}, auth);
    const tx = await kit.authorize(h.card.id, 1_000, undefined, auth);
    await expectWebhookOf(tx);
    const settled = await kit.message(tx, 'clearing', { amount: 1_000 }, (x) => x.status === 'SETTLED', auth);
    await expectWebhookOf(settled);
    const refunded = await kit.message(settled, 'return', { amount: 1_000 }, (x) => x.status === 'REFUNDED', auth);
    await expectWebhookOf(refunded);
    const exception = await kit.open(h.card.id, 'authorization', purchase(700, 'FLAKY PULL 006'), (x) => x.status === 'EXCEPTION', auth);
    await expectWebhookOf(exception);
    await kit.expectBalances(h, 5_000, 5_000, auth);

    const { token } = await kit.expectDeclined(h.card.id, purchase(100, 'NO MONEY 002'), 'INSUFFICIENT_FUNDS', 'authorization', auth);
    const later = await kit.authorize(h.card.id, 100, undefined, auth);
    await expectWebhookOf(later);
    expect(receiver.received.filter((r) => r.json.data?.issuerTransactionToken === token)).toEqual([]);
    await kit.expectBalances(h, 4_900, 4_900, auth);
  });
});
