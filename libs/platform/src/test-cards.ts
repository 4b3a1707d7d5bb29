import { randomUUID } from 'node:crypto';
import { checkCardLedger } from '@payments/cards';
import { eventually } from '@payments/testing';
import { expectLedgerClean } from './test-payments';
import { createCustomer, individualBody } from './test-kyc';
import { internalAccountOf } from './test-quotes';
import type { TestPlatform } from './test-platform';

/** The sandbox refuses to bind accounts whose id ends in 002 or 003: a test cardholder must not draw one by chance. */
const unluckySource = (accountId: string) => ['002', '003'].includes(accountId.slice(-3));

/** An individual whose KYC the sandbox approved (a complete verification of a name without a magic suffix). */
export async function approvedCustomer(t: TestPlatform, auth = t.tenant.sandbox, extra: Record<string, unknown> = {}): Promise<string> {
  const customerId = await createCustomer(t, individualBody('Card Holder', extra), auth);
  expect((await t.call('POST', '/verifications', { auth, body: { customerId } })).status).toBe(200);
  await eventually(async () => ((await t.call('GET', `/customers/${customerId}`, { auth })).body.kycStatus === 'APPROVED' ? true : undefined), { what: `KYC of ${customerId}` });
  return customerId;
}

/** An APPROVED individual with its USD account funded with `funding`. */
export async function cardholder(t: TestPlatform, funding: number, auth = t.tenant.sandbox): Promise<{ customerId: string; account: string }> {
  for (;;) {
    const customerId = await approvedCustomer(t, auth);
    const account = await internalAccountOf(t, auth, customerId, 'USD');
    if (unluckySource(account)) continue;
    if (funding > 0) expect((await t.call('POST', `/sandbox/internal-accounts/${account}/fund`, { auth, body: { amount: funding } })).status).toBe(200);
    return { customerId, account };
  }
}

/** Issues a card and waits until the sandbox issuer made it ACTIVE. */
export async function activeCard(t: TestPlatform, cardholderId: string, fundingSources: string[], extra: Record<string, unknown> = {}, auth = t.tenant.sandbox): Promise<Record<string, any>> {
  const created = await t.call('POST', '/cards', { auth, body: { cardholderId, form: 'VIRTUAL', fundingSources, platformCardId: `card-${Math.random().toString(36).slice(2, 10)}x`, ...extra } });
  if (created.status !== 201) throw new Error(`card: ${created.status} ${JSON.stringify(created.body)}`);
  return untilCard(t, created.body.id, (c) => c.state === 'ACTIVE', auth);
}

export function untilCard(t: TestPlatform, cardId: string, done: (card: Record<string, any>) => boolean, auth = t.tenant.sandbox, timeoutMs = 15_000): Promise<Record<string, any>> {
  return eventually(async () => {
    const res = await t.call('GET', `/cards/${cardId}`, { auth });
    return res.status === 200 && done(res.body) ? res.body : undefined;
  }, { what: `card ${cardId}`, timeoutMs });
}

/** POST /sandbox/cards/{id}/simulate/{kind}: the 202 answer. */
export async function simulate(t: TestPlatform, cardId: string, kind: string, body: Record<string, unknown>, auth = t.tenant.sandbox): Promise<{ status: number; body: any }> {
  return t.call('POST', `/sandbox/cards/${cardId}/simulate/${kind}`, { auth, body });
}

/** An authorization-family body. */
export const purchase = (amount: number, descriptor = 'BLUE BOTTLE COFFEE SF', currency = 'USD') => ({ amount, currency: { code: currency }, merchant: { descriptor, mcc: '5814', country: 'US' } });

/** The card transaction the simulated message with this issuer token opened, as GET /transactions shows it. */
export function cardTransactionOf(t: TestPlatform, issuerTransactionToken: string, done: (tx: Record<string, any>) => boolean = () => true, auth = t.tenant.sandbox): Promise<Record<string, any>> {
  return eventually(async () => {
    const res = await t.call('GET', `/transactions?type=CARD&limit=100`, { auth });
    const tx = (res.body.data as any[] | undefined)?.find((x) => x.issuerTransactionToken === issuerTransactionToken);
    return tx && done(tx) ? tx : undefined;
  }, { what: `card transaction of ${issuerTransactionToken}`, timeoutMs: 15_000 });
}

/**
 * A card transaction of the card: an authorization of 1,000, then `steps` (simulations, each given the transaction's
 * id), each answered 202. The simulations that name a transaction need one in the state its steps leave.
 */
export async function cardTransactionAfter(t: TestPlatform, cardId: string, steps: [kind: string, body: Record<string, unknown>][], auth = t.tenant.sandbox): Promise<string> {
  const authorized = await simulate(t, cardId, 'authorization', purchase(1_000), auth);
  const tx = await cardTransactionOf(t, authorized.body.issuerTransactionToken, () => true, auth);
  for (const [kind, body] of steps) expect((await simulate(t, cardId, kind, { cardTransactionId: tx.id, ...body }, auth)).status).toBe(202);
  return tx.id as string;
}

/** The card transaction by id, once `done` holds for it. */
export function untilCardTransaction(t: TestPlatform, id: string, done: (tx: Record<string, any>) => boolean, auth = t.tenant.sandbox): Promise<Record<string, any>> {
  return eventually(async () => {
    const res = await t.call('GET', `/transactions/${id}`, { auth });
    return res.status === 200 && done(res.body) ? res.body : undefined;
  }, { what: `card transaction ${id}`, timeoutMs: 15_000 });
}

/** Available and total balance of an internal account of the customer. */
export async function accountBalances(t: TestPlatform, customerId: string, accountId: string, auth = t.tenant.sandbox): Promise<{ balance: number; totalBalance: number }> {
  const account = (await t.call('GET', `/customers/internal-accounts?customerId=${encodeURIComponent(customerId)}&limit=100`, { auth })).body.data.find((a: any) => a.id === accountId);
  return { balance: account.balance.amount, totalBalance: account.totalBalance.amount };
}

/**
 * After every card scenario: the ledger's own invariants (expectLedgerClean) and the card ledger check (every card
 * transaction's funding-account postings equal what it says the card network holds for it) are both clean.
 */
export async function expectCardLedgersClean(t: TestPlatform): Promise<void> {
  await expectLedgerClean(t);
  expect(await checkCardLedger(t.platform.cards.host.dataSource, t.platform.accounts.host.dataSource)).toEqual([]);
}

/** The CardAuthorizationDeclined.v1 events of the cards service for this issuer token (a decline opens no transaction). */
export async function declinesOf(t: TestPlatform, issuerTransactionToken: string): Promise<Record<string, any>[]> {
  const rows: { data: Record<string, any> }[] = await t.platform.cards.host.dataSource.query(
    `SELECT data FROM cards.events WHERE type = 'CardAuthorizationDeclined.v1' AND data->>'issuerTransactionToken' = $1`,
    [issuerTransactionToken],
  );
  return rows.map((r) => r.data);
}

/**
 * A further USD internal account of the cardholder, opened in the ledger directly: the API opens one account per
 * customer and currency, and a card's priority order needs two of its currency. Funded through the sandbox.
 */
export async function extraUsdAccount(t: TestPlatform, customerId: string, funding: number, auth = t.tenant.sandbox): Promise<string> {
  const primary = await internalAccountOf(t, auth, customerId, 'USD');
  const [{ platform_id: platformId }]: { platform_id: string }[] = await t.platform.accounts.host.dataSource.query(`SELECT platform_id FROM ledger_accounts WHERE account_id = $1`, [primary]);
  for (;;) {
    const accountId = `InternalAccount:${randomUUID()}`;
    if (unluckySource(accountId)) continue;
    await t.platform.accounts.host.dataSource.transaction((tx) =>
      t.platform.accounts.ledger.open(tx, { accountId, platformId, mode: 'SANDBOX', owner: 'CUSTOMER', customerId, currency: 'USD', purpose: 'CUSTOMER' }, new Date().toISOString()),
    );
    if (funding > 0) expect((await t.call('POST', `/sandbox/internal-accounts/${accountId}/fund`, { auth, body: { amount: funding } })).status).toBe(200);
    return accountId;
  }
}
