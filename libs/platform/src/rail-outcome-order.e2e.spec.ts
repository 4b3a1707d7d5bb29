import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventually, freePort, HttpResult } from '@payments/testing';
import { nachaReturnFile } from '@payments/rails/testing';
import { systemAccountShardIds } from '@payments/accounts';
import { approvalReached, individualBody } from './test-kyc';
import { expectLedgerClean } from './test-payments';
import { internalAccountOf } from './test-quotes';
import { setProductionRates } from './test-rates';
import { startRailBridge, TestRailBridge } from './test-rail-bridge';
import { achConnector, DEBTOR_IBAN, ODFI, sepaConnector, wiresConnector } from './test-rails';
import { startTestPlatform, TestOperator, TestPlatform, TestTenant } from './test-platform';

const currency = (currencyCode: string) => ({ currencyCode, minAmount: 1, maxAmount: 1_000_000_000, requiredCounterpartyFields: [], enabledTransactionTypes: ['INCOMING', 'OUTGOING'] });
const beneficiary = (fullName: string) => ({ beneficiaryType: 'INDIVIDUAL', fullName, address: { line1: '1 Main St', city: 'Springfield', postalCode: '12345', country: 'US' } });
const decimal = (minor: number) => (minor / 100).toFixed(2);
const pick = (o: Record<string, unknown>, keys: string[]) => Object.fromEntries(keys.map((k) => [k, o[k]]));

/**
 * One bank notification saying a payout was booked (DBIT) and came back (a booked CRDT with RtrInf, AC04): both
 * entries of each payment in the order given. Written here from the camt.054.001.08 message definition.
 */
function camt054BookedAndReturned(payments: { endToEndId: string; amount: number; returnFirst: boolean }[]): string {
  const today = new Date().toISOString().slice(0, 10);
  let n = 0;
  const entry = (endToEndId: string, amount: number, side: 'DBIT' | 'CRDT') => {
    n += 1;
    const returned = side === 'CRDT' ? '<RtrInf><Rsn><Cd>AC04</Cd></Rsn></RtrInf>' : '';
    return `
      <Ntry>
        <NtryRef>${n}</NtryRef>
        <Amt Ccy="EUR">${decimal(amount)}</Amt>
        <CdtDbtInd>${side}</CdtDbtInd>
        <Sts><Cd>BOOK</Cd></Sts>
        <BookgDt><Dt>${today}</Dt></BookgDt>
        <ValDt><Dt>${today}</Dt></ValDt>
        <AcctSvcrRef>BANKREF-${Date.now()}-${n}</AcctSvcrRef>
        <NtryDtls><TxDtls>
          <Refs><EndToEndId>${endToEndId}</EndToEndId></Refs>
          <Amt Ccy="EUR">${decimal(amount)}</Amt>
          <CdtDbtInd>${side}</CdtDbtInd>${returned}
        </TxDtls></NtryDtls>
      </Ntry>`;
  };
  const entries = payments
    .map((p) => (p.returnFirst ? [entry(p.endToEndId, p.amount, 'CRDT'), entry(p.endToEndId, p.amount, 'DBIT')] : [entry(p.endToEndId, p.amount, 'DBIT'), entry(p.endToEndId, p.amount, 'CRDT')]).join(''))
    .join('');
  return `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.054.001.08">
  <BkToCstmrDbtCdtNtfctn>
    <GrpHdr><MsgId>CAMT54-${Date.now()}</MsgId><CreDtTm>${new Date().toISOString()}</CreDtTm></GrpHdr>
    <Ntfctn>
      <Id>NTF-${Date.now()}</Id>
      <CreDtTm>${new Date().toISOString()}</CreDtTm>
      <Acct><Id><IBAN>${DEBTOR_IBAN}</IBAN></Id><Ccy>EUR</Ccy></Acct>${entries}
    </Ntfctn>
  </BkToCstmrDbtCdtNtfctn>
</Document>
`;
}

/**
 * Issue #41, items 1 and 4, through HTTP: a payment's outcomes are applied one at a time, in the rail's order, however
 * they arrive (one file carrying both, a return racing the ACH calendar); a return after settlement reports
 * PAYOUT_RETURNED / COLLECTION_FAILED with the rail's code; a return the account can no longer cover still fails the
 * transaction, reverses the settlement and books the shortfall to the platform's RETURN_SHORTFALL account.
 */
describe('rail outcomes: one writer per payment, in the rail order; returns as the docs say', () => {
  let t: TestPlatform;
  let bridge: TestRailBridge;
  let root: string;
  let platform: TestTenant & { platformId: string };
  let admin: TestOperator;
  let reviewer: TestOperator;
  let customerId: string;
  let usdInternal: string;
  let usdExternal: string;
  let eurExternal: string;

  const prod = (method: string, path: string, body?: unknown) => t.call(method, path, { auth: platform.production, body });
  const op = (method: string, path: string, who: TestOperator, body?: unknown) => t.operatorCall(method, path, { auth: who.auth, body });
  const payments = async (sql: string, params: unknown[] = []): Promise<any[]> => t.platform.payments.host.dataSource.query(sql, params);
  const balance = async () => (await prod('GET', `/customers/internal-accounts?customerId=${encodeURIComponent(customerId)}&currency=USD`)).body.data[0].balance.amount as number;
  const transaction = (id: string, status: string) =>
    eventually(async () => {
      const res = await prod('GET', `/transactions/${id}`);
      return res.body.status === status ? res.body : undefined;
    }, { what: `${id} ${status}`, timeoutMs: 30_000 });
  const filed = (paymentId: string) =>
    eventually(async () => {
      const [row] = await payments(`SELECT p.rail_reference, p.file_id, f.status AS file_status FROM payments.rail_payments p JOIN payments.rail_files f ON f.file_id = p.file_id WHERE p.payment_id = $1`, [paymentId]);
      return row?.file_status === 'WRITTEN' ? (row as { rail_reference: string; file_id: string }) : undefined;
    }, { what: `${paymentId} in a written file` });
  const advanceCalendar = (fileId: string) => payments(`UPDATE payments.timers SET due_at = now() WHERE name = 'payments.rails.connector' AND payload->>'fileId' = $1 AND fired_at IS NULL`, [fileId]);
  const importFile = async (name: string, content: string) => {
    const form = new FormData();
    form.append('file', new Blob([content]), name);
    const res = await fetch(`${new URL(t.url).origin}/operator/v1/rails/imports`, { method: 'POST', headers: { authorization: admin.auth }, body: form });
    return { status: res.status, body: await res.json() } as HttpResult;
  };
  /** Every outcome of the payment applied (what the operator API's payment view shows as done). */
  const settledDown = (paymentId: string) =>
    eventually(async () => ((await payments(`SELECT count(*)::int AS n FROM payments.rail_outcomes WHERE payment_id = $1 AND applied_at IS NULL`, [paymentId]))[0].n === 0 ? true : undefined), { what: `${paymentId}'s outcomes applied` });
  const webhookStatuses = async (id: string): Promise<string[]> => {
    const rows: { data_json: string }[] = await t.platform.webhooks.host.dataSource.query(`SELECT data_json FROM webhooks.deliveries WHERE platform_id = $1 AND mode = 'PRODUCTION' ORDER BY created_at, webhook_id`, [platform.platformId]);
    return rows.map((r) => JSON.parse(r.data_json)).filter((d) => d.id === id).map((d) => d.status);
  };

  async function approvedExternalAccount(body: object): Promise<string> {
    const created = await prod('POST', '/customers/external-accounts', { customerId, ...body });
    expect(created.status).toBe(201);
    await eventually(async () => {
      const res = await op('POST', `/external-account-reviews/${created.body.id}/approve`, reviewer, { reason: 'statement matches' });
      return res.status === 404 ? undefined : res;
    }, { what: 'the account in the review queue' });
    return created.body.id;
  }

  /** Pulls `amount` into the USD account by ACH and lets its return window pass. */
  async function fund(amount: number): Promise<string> {
    const created = await prod('POST', '/transfer-in', { source: { accountId: usdExternal }, destination: { accountId: usdInternal }, amount });
    expect(created.status).toBe(201);
    await advanceCalendar((await filed(created.body.id)).file_id);
    await transaction(created.body.id, 'COMPLETED');
    return created.body.id;
  }

  beforeAll(async () => {
    // The bridge never settles on its own within the test: every outcome of its payments is the test's.
    bridge = await startRailBridge(600_000);
    process.env.ORDER_BRIDGE_API_KEY = bridge.apiKey;
    process.env.ORDER_BRIDGE_CALLBACK_SECRET = bridge.secret;
    root = mkdtempSync(join(tmpdir(), 'pp-rail-order-'));
    const rails = { connectors: [achConnector(root), sepaConnector(root), wiresConnector(bridge.url, 'ORDER_BRIDGE_API_KEY', 'ORDER_BRIDGE_CALLBACK_SECRET', 3600)] };
    const port = await freePort();
    t = await startTestPlatform({ SANDBOX_TIME_SCALE: '0.001', KYC_APPROVALS_REQUIRED: '1', PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}`, RAILS_CONFIG: JSON.stringify(rails) });
    [admin, reviewer] = [await t.createOperator('ADMIN', 'Ada Admin'), await t.createOperator('REVIEWER', 'Rita Reviewer')];
    platform = (await t.createTenant('Order Co')) as TestTenant & { platformId: string };
    expect((await prod('PATCH', '/config', { webhookEndpoint: 'https://hooks.order-co.example/payments', umaDomain: 'order-co.example', supportedCurrencies: ['USD', 'EUR'].map(currency) })).status).toBe(200);
    customerId = (await prod('POST', '/customers', individualBody('Otto Order'))).body.id;
    const verification = (await prod('POST', '/verifications', { customerId })).body;
    await eventually(async () => {
      const res = await op('POST', `/kyc-reviews/${verification.id}/approve`, reviewer, { reason: 'documents match' });
      return res.status === 404 ? undefined : res;
    }, { what: 'the KYC review in the queue' });
    await approvalReached(t, customerId); // production money moves once payments and quoting know of it
    usdInternal = await internalAccountOf(t, platform.production, customerId, 'USD');
    usdExternal = await approvedExternalAccount({ currency: 'USD', accountInfo: { accountType: 'USD_ACCOUNT', accountNumber: '4400123001', routingNumber: '021000021', bankAccountType: 'CHECKING', bankName: 'Test Bank', beneficiary: beneficiary('Pat Payee') } });
    eurExternal = await approvedExternalAccount({ currency: 'EUR', accountInfo: { accountType: 'EUR_ACCOUNT', iban: 'FR1420041010050500013M02606', swiftCode: 'BNPAFRPPXXX', beneficiary: beneficiary('Jean Dupont') } });
    await setProductionRates(t, [['USD', 'EUR', '0.9']]);
    await fund(500_000);
  }, 180_000);

  afterAll(async () => {
    await t?.stop();
    await bridge?.stop();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it('one camt.054 carrying the booking and the return of each payout: every payout FAILED PAYOUT_RETURNED, every cent back (8 payouts, both entry orders, 3 files)', async () => {
    const before = await balance();
    const pay = async (amount: number) => {
      const quote = await prod('POST', '/quotes', { source: { sourceType: 'ACCOUNT', accountId: usdInternal }, destination: { destinationType: 'ACCOUNT', accountId: eurExternal, paymentRail: 'SEPA' }, lockedCurrencySide: 'SENDING', lockedCurrencyAmount: amount, immediatelyExecute: true });
      expect({ status: quote.status, body: quote.status === 201 ? undefined : quote.body }).toEqual({ status: 201, body: undefined });
      return quote.body.transactionId as string;
    };
    const ids: string[] = [];
    for (let i = 0; i < 8; i++) ids.push(await pay(1_000 + i));
    const rows = await Promise.all(ids.map(filed));
    const received = await Promise.all(ids.map(async (id) => (await prod('GET', `/transactions/${id}`)).body.receivedAmount.amount as number));
    // Three notifications: the first two carry three payouts each, the last two; in each, some returns come first.
    const groups = [[0, 1, 2], [3, 4, 5], [6, 7]];
    await Promise.all(
      groups.map((group, g) =>
        importFile(`camt054-${g}.xml`, camt054BookedAndReturned(group.map((i) => ({ endToEndId: rows[i].rail_reference, amount: received[i], returnFirst: i % 2 === 1 })))),
      ),
    );
    for (const id of ids) {
      await settledDown(id);
      expect(await transaction(id, 'FAILED')).toMatchObject({ failureReason: 'PAYOUT_RETURNED', failureDetail: 'AC04' });
    }
    expect(await balance()).toBe(before);
    // Each payout's own postings net to nothing on the customer's account: sent, then reversed.
    for (const id of ids) {
      const postings = (await prod('GET', `/transactions/${id}/ledger-postings`)).body.data as { entryId: string; accountId: string; amount: { amount: number } }[];
      const mine = postings.filter((p) => p.accountId === usdInternal);
      expect({ id, entries: mine.map((p) => p.entryId.slice(id.length + 1)).sort(), net: mine.reduce((sum, p) => sum + p.amount.amount, 0) }).toEqual({ id, entries: ['send', 'send/reversal'], net: 0 });
    }
    expect((await op('GET', '/rails/exceptions?kind=CONTRADICTORY_OUTCOME', reviewer)).body.data).toEqual([]);
    await expectLedgerClean(t);
  }, 120_000);

  it('an ACH return (R03) of a COMPLETED payout: FAILED PAYOUT_RETURNED with the code (not ACCOUNT_INVALID), the funds back, the FAILED webhook', async () => {
    const before = await balance();
    const created = await prod('POST', '/transfer-out', { source: { accountId: usdInternal }, destination: { accountId: usdExternal }, amount: 20_000 });
    expect(created.status).toBe(201);
    const id = created.body.id;
    const row = await filed(id);
    await advanceCalendar(row.file_id);
    await transaction(id, 'COMPLETED');
    const returnFile = nachaReturnFile([{ originalTrace: row.rail_reference, code: 'R03', amount: 20_000, routingNumber: '021000021', accountNumber: '4400123001', name: 'PAT PAYEE' }], ODFI);
    expect((await importFile('return-r03.ach', returnFile)).body).toMatchObject({ outcomes: 1, exceptions: 0 });
    expect(await transaction(id, 'FAILED')).toMatchObject({ failureReason: 'PAYOUT_RETURNED', failureDetail: 'R03' });
    expect(await balance()).toBe(before);
    await eventually(async () => ((await webhookStatuses(id)).at(-1) === 'FAILED' ? true : undefined), { what: 'the FAILED webhook' });
    expect(await webhookStatuses(id)).toEqual(['PENDING', 'PROCESSING', 'COMPLETED', 'FAILED']);
  }, 60_000);

  it('ACH returns racing the settlement calendar (5 payouts): each FAILED once, in one consistent story, every cent back', async () => {
    const before = await balance();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const created = await prod('POST', '/transfer-out', { source: { accountId: usdInternal }, destination: { accountId: usdExternal }, amount: 1_000 + i });
      expect(created.status).toBe(201);
      ids.push(created.body.id);
    }
    const rows = await Promise.all(ids.map(filed));
    const returns = nachaReturnFile(rows.map((row, i) => ({ originalTrace: row.rail_reference, code: 'R03', amount: 1_000 + i, routingNumber: '021000021', accountNumber: '4400123001', name: 'PAT PAYEE' })), ODFI);
    await Promise.all<unknown>([...[...new Set(rows.map((r) => r.file_id))].map(advanceCalendar), importFile('return-race.ach', returns)]);
    for (const id of ids) {
      await settledDown(id);
      const failed = await transaction(id, 'FAILED');
      // The return came before or after the calendar's settlement: a returned payout, or one the bank never paid.
      const postings = (await prod('GET', `/transactions/${id}/ledger-postings`)).body.data as { entryId: string; accountId: string; amount: { amount: number } }[];
      const story = failed.failureReason === 'PAYOUT_RETURNED' ? ['payout', 'payout/reversal'] : [];
      expect({ reason: failed.failureReason, entries: [...new Set(postings.map((p) => p.entryId.slice(id.length + 1)))].sort() }).toEqual({ reason: expect.stringMatching(/^(PAYOUT_RETURNED|ACCOUNT_INVALID)$/), entries: story });
      expect(failed.failureDetail).toBe('R03');
    }
    expect(await balance()).toBe(before);
    await expectLedgerClean(t);
  }, 90_000);

  it('a return of a credited pull the account can no longer cover (R10): FAILED COLLECTION_FAILED, settlement reversed, the shortfall on RETURN_SHORTFALL, an exception', async () => {
    const start = await balance();
    // Pull 30,000 in, then pay everything out: the pulled money is gone when its return arrives.
    const pulled = await fund(30_000);
    const out = await prod('POST', '/transfer-out', { source: { accountId: usdInternal }, destination: { accountId: usdExternal }, amount: start + 30_000 });
    expect(out.status).toBe(201);
    await advanceCalendar((await filed(out.body.id)).file_id);
    await transaction(out.body.id, 'COMPLETED');
    expect(await balance()).toBe(0);

    const pullRow = (await payments(`SELECT rail_reference FROM payments.rail_payments WHERE payment_id = $1`, [pulled]))[0];
    const returnFile = nachaReturnFile([{ originalTrace: pullRow.rail_reference, code: 'R10', amount: 30_000, debit: true, routingNumber: '021000021', accountNumber: '4400123001', name: 'PAT PAYEE' }], ODFI);
    writeFileSync(join(root, 'ach-in', 'return-r10.ach'), returnFile); // achConnector's inbox
    const failed = await transaction(pulled, 'FAILED');
    expect(failed).toMatchObject({ failureReason: 'COLLECTION_FAILED', failureDetail: 'R10' });
    expect(await balance()).toBe(0); // nothing left to take back: the platform's receivable carries it
    await eventually(async () => ((await webhookStatuses(pulled)).includes('FAILED') ? true : undefined), { what: 'the FAILED webhook of the pull' });
    const exceptions = (await op('GET', '/rails/exceptions?kind=RETURN_NOT_REVERSIBLE', reviewer)).body.data;
    expect(exceptions).toEqual([expect.objectContaining({ paymentId: pulled, status: 'OPEN' })]);
    const postings: { account_id: string; amount: number }[] = await t.platform.accounts.host.dataSource.query(`SELECT account_id, amount::int AS amount FROM journal_postings WHERE entry_id = $1`, [`${pulled}/credit/reversal`]);
    const shortfallAccounts = systemAccountShardIds(platform.platformId, 'PRODUCTION', 'RETURN_SHORTFALL', 'USD');
    // The bank took 30,000 back from clearing; the customer had nothing left, so the platform's receivable carries it all.
    expect(postings.filter((p) => shortfallAccounts.includes(p.account_id)).map((p) => p.amount)).toEqual([-30_000]);
    expect(postings.filter((p) => p.account_id === usdInternal)).toEqual([]);
    expect(postings.reduce((s, p) => s + p.amount, 0)).toBe(0);
    await expectLedgerClean(t);
  }, 90_000);

  /**
   * Every order of two and three outcomes (settled, rejected, returned) of a payment, for ACH payouts, ACH pulls and
   * HTTP-bridge payouts, recorded one after the other without waiting for their application, or all at once: the
   * final state is the one the rail's rule gives for the order they were recorded in (the first final word stands;
   * only a settlement can be followed, by a return), and money follows it exactly.
   */
  it('every interleaving of two and three outcomes, payouts and pulls, file and HTTP rails: the recorded order decides, money follows', async () => {
    const kinds = ['SETTLED', 'REJECTED', 'RETURNED'] as const;
    type Kind = (typeof kinds)[number];
    const orders: Kind[][] = [];
    for (const a of kinds) for (const b of kinds) if (a !== b) {
      orders.push([a, b]);
      for (const c of kinds) if (c !== a && c !== b) orders.push([a, b, c]);
    }
    expect(orders).toHaveLength(12);
    type Rail = 'ACH_PAYOUT' | 'ACH_PULL' | 'WIRE_PAYOUT';
    const cases = (['ACH_PAYOUT', 'ACH_PULL', 'WIRE_PAYOUT'] as Rail[]).flatMap((rail) => orders.flatMap((order) => (['one-by-one', 'together'] as const).map((arrival) => ({ rail, order, arrival }))));
    await fund(10_000); // the test before it spent everything
    const start = await balance();
    const amount = 100;
    const created = [];
    for (const c of cases) {
      const res =
        c.rail === 'ACH_PULL'
          ? await prod('POST', '/transfer-in', { source: { accountId: usdExternal }, destination: { accountId: usdInternal }, amount })
          : await prod('POST', '/transfer-out', { source: { accountId: usdInternal }, destination: { accountId: usdExternal, ...(c.rail === 'WIRE_PAYOUT' ? { paymentRail: 'WIRE' } : {}) }, amount });
      expect({ status: res.status, body: res.status === 201 ? undefined : res.body }).toEqual({ status: 201, body: undefined });
      created.push({ ...c, id: res.body.id as string });
    }
    // Every payment with its connector (in a file, or accepted by the bridge) before any news arrives.
    for (const c of created) {
      await eventually(async () => {
        const [row] = await payments(`SELECT status FROM payments.rail_payments WHERE payment_id = $1`, [c.id]);
        return row && (row.status === 'FILED' || row.status === 'SENT') ? true : undefined;
      }, { what: `${c.rail} ${c.id} with its rail`, timeoutMs: 60_000 });
    }
    const outcomes = t.platform.payments.rails.outcomes;
    const db = t.platform.payments.host.dataSource;
    const record = (id: string, kind: Kind, i: number) =>
      db.transaction((tx) => outcomes.record(tx, { paymentId: id, kind, ...(kind === 'SETTLED' ? {} : { failureReason: 'ACCOUNT_INVALID' as const, railCode: 'R03' }), source: `test:${i}` }));
    await Promise.all(
      created.map(async (c) => {
        if (c.arrival === 'together') await Promise.all(c.order.map((kind, i) => record(c.id, kind, i)));
        else for (const [i, kind] of c.order.entries()) await record(c.id, kind, i);
      }),
    );
    let expectedBalance = start;
    for (const c of created) {
      await settledDown(c.id);
      const recorded: Kind[] = (await payments(`SELECT kind FROM payments.rail_outcomes WHERE payment_id = $1 ORDER BY seq`, [c.id])).map((r) => r.kind);
      expect([...recorded].sort()).toEqual([...c.order].sort());
      if (c.arrival === 'one-by-one') expect(recorded).toEqual(c.order);
      // The rail's rule, stated independently: a settlement may be followed by a return; any other word is final.
      let story: 'open' | 'settled' | 'failed' | 'returned' = 'open';
      for (const kind of recorded) {
        if (story === 'open') story = kind === 'SETTLED' ? 'settled' : 'failed';
        else if (story === 'settled' && kind === 'RETURNED') story = 'returned';
      }
      const pull = c.rail === 'ACH_PULL';
      const expected =
        story === 'settled'
          ? { status: 'COMPLETED' }
          : story === 'returned'
            ? { status: 'FAILED', failureReason: pull ? 'COLLECTION_FAILED' : 'PAYOUT_RETURNED', failureDetail: 'R03' }
            : { status: 'FAILED', failureReason: pull ? 'COLLECTION_FAILED' : 'ACCOUNT_INVALID', failureDetail: 'R03' };
      const body = (await prod('GET', `/transactions/${c.id}`)).body;
      expect({ case: `${c.rail} ${c.arrival} ${recorded.join('>')}`, ...pick(body, Object.keys(expected)) }).toEqual({ case: `${c.rail} ${c.arrival} ${recorded.join('>')}`, ...expected });
      const contradictions = recorded.length - (story === 'returned' ? 2 : 1);
      const exceptions = (await payments(`SELECT count(*)::int AS n FROM payments.rail_exceptions WHERE payment_id = $1 AND kind = 'CONTRADICTORY_OUTCOME'`, [c.id]))[0].n;
      expect({ id: c.id, exceptions }).toEqual({ id: c.id, exceptions: contradictions });
      if (story === 'settled') expectedBalance += pull ? amount : -amount;
    }
    expect(await balance()).toBe(expectedBalance);
    await expectLedgerClean(t);
  }, 240_000);
});
