import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { readNachaFile } from '@payments/rails';
import { eventually, freePort, HttpResult } from '@payments/testing';
import { approvalReached, individualBody } from './test-kyc';
import { expectLedgerClean } from './test-payments';
import { internalAccountOf } from './test-quotes';
import { setProductionRates } from './test-rates';
import { startRailBridge, TestRailBridge } from './test-rail-bridge';
import { camt054Debits, nachaReturnFile, pain002Rejection } from '@payments/rails/testing';
import { achConnector, DEBTOR_IBAN, ODFI, sepaConnector, wiresConnector } from './test-rails';
import { startTestPlatform, TestOperator, TestPlatform, TestTenant } from './test-platform';

const currency = (currencyCode: string) => ({ currencyCode, minAmount: 1, maxAmount: 1_000_000_000, requiredCounterpartyFields: [], enabledTransactionTypes: ['INCOMING', 'OUTGOING'] });
const usdAccount = (accountNumber: string, fullName = 'Pat Payee') => ({
  currency: 'USD',
  accountInfo: { accountType: 'USD_ACCOUNT', accountNumber, routingNumber: '021000021', bankAccountType: 'CHECKING', bankName: 'Test Bank', beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName, address: { line1: '1 Main St', city: 'Springfield', postalCode: '12345', country: 'US' } } },
});
const eurAccount = (iban: string) => ({
  currency: 'EUR',
  accountInfo: { accountType: 'EUR_ACCOUNT', iban, swiftCode: 'BNPAFRPPXXX', beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Jean Dupont', address: { line1: '1 Rue de Rivoli', city: 'Paris', postalCode: '75001', country: 'FR' } } },
});

/**
 * Issue #29's "done when", through HTTP (the platform API, the operator API, a bridge's callbacks) and the rails'
 * directories: production moves money. A transfer-in is pulled by an ACH debit in a NACHA file and credited once its
 * return window passes; a payout settles by the ACH calendar, another comes back with an R01 return file (imported
 * twice: one effect); an account is verified by a prenote; a EUR payout goes out in a pain.001 and is rejected by a
 * pain.002, another is confirmed by a camt.054; a USD wire goes through the reference bridge, a separate process that
 * calls back twice. The calendar is advanced by moving the settlement timers' due time: the only shortcut taken.
 */
describe('rails: production payouts and collections through bank files and the generic HTTP connector', () => {
  let t: TestPlatform;
  let bridge: TestRailBridge;
  let dirs: Record<'achOut' | 'achIn' | 'sepaOut' | 'sepaIn', string>;
  let platform: TestTenant & { platformId: string };
  let admin: TestOperator;
  let reviewer: TestOperator;
  let customerId: string;
  let usdInternal: string;
  let usdExternal: string;
  let eurExternal: string;

  beforeAll(async () => {
    bridge = await startRailBridge(200);
    const root = mkdtempSync(join(tmpdir(), 'pp-rails-'));
    dirs = { achOut: join(root, 'ach-out'), achIn: join(root, 'ach-in'), sepaOut: join(root, 'sepa-out'), sepaIn: join(root, 'sepa-in') };
    process.env.TEST_BRIDGE_API_KEY = bridge.apiKey;
    process.env.TEST_BRIDGE_CALLBACK_SECRET = bridge.secret;
    const port = await freePort();
    const rails = { connectors: [achConnector(root), sepaConnector(root), wiresConnector(bridge.url, 'TEST_BRIDGE_API_KEY', 'TEST_BRIDGE_CALLBACK_SECRET')] };
    t = await startTestPlatform({ SANDBOX_TIME_SCALE: '0.001', KYC_APPROVALS_REQUIRED: '1', PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}`, RAILS_CONFIG: JSON.stringify(rails) });
    [admin, reviewer] = [await t.createOperator('ADMIN', 'Ada Admin'), await t.createOperator('REVIEWER', 'Rita Reviewer')];
    platform = (await t.createTenant('Rails Co')) as TestTenant & { platformId: string };
    expect((await prod('PATCH', '/config', { webhookEndpoint: 'https://hooks.rails-co.example/payments', umaDomain: 'rails-co.example', supportedCurrencies: ['USD', 'EUR'].map(currency) })).status).toBe(200);
    const customer = await prod('POST', '/customers', individualBody('Rae Rails'));
    expect({ status: customer.status, body: customer.status === 201 ? undefined : customer.body }).toEqual({ status: 201, body: undefined });
    customerId = customer.body.id;
    const verification = (await prod('POST', '/verifications', { customerId })).body;
    expect(verification).toMatchObject({ verificationStatus: 'PENDING_MANUAL_REVIEW' });
    // The review queue is fed from identity's events: the approval waits for the review to be there.
    const approved = await eventually(async () => {
      const res = await op('POST', `/kyc-reviews/${verification.id}/approve`, reviewer, { reason: 'documents match' });
      return res.status === 404 ? undefined : res;
    }, { what: 'the KYC review in the queue' });
    expect(approved.body).toMatchObject({ reviewStatus: 'APPROVED' });
    await approvalReached(t, customerId); // production money moves once payments and quoting know of it
    usdInternal = await internalAccountOf(t, platform.production, customerId, 'USD');
    usdExternal = await approvedExternalAccount(usdAccount('4400123001'));
    eurExternal = await approvedExternalAccount(eurAccount('FR1420041010050500013M02606'));
  }, 120_000);

  afterAll(async () => {
    await t?.stop();
    await bridge?.stop();
    if (dirs) rmSync(join(dirs.achOut, '..'), { recursive: true, force: true });
  });

  const prod = (method: string, path: string, body?: unknown) => t.call(method, path, { auth: platform.production, body });
  const op = (method: string, path: string, who: TestOperator, body?: unknown) => t.operatorCall(method, path, { auth: who.auth, body });
  /** The payments schema read directly: where files and rail references are (the operator API shows the same). */
  const payments = async (sql: string, params: unknown[] = []): Promise<any[]> => t.platform.payments.host.dataSource.query(sql, params);

  async function approvedExternalAccount(body: object): Promise<string> {
    const created = await prod('POST', '/customers/external-accounts', { customerId, ...body });
    expect(created.status).toBe(201);
    const approved = await eventually(async () => {
      const res = await op('POST', `/external-account-reviews/${created.body.id}/approve`, reviewer, { reason: 'statement matches' });
      return res.status === 404 ? undefined : res;
    }, { what: 'the account in the review queue' });
    expect(approved.status).toBe(200);
    return created.body.id;
  }

  const balance = async () => (await prod('GET', `/customers/internal-accounts?customerId=${encodeURIComponent(customerId)}&currency=USD`)).body.data[0].balance.amount as number;
  const transaction = (id: string, status: string, timeoutMs = 20_000) =>
    eventually(async () => {
      const res = await prod('GET', `/transactions/${id}`);
      return res.body.status === status ? res.body : undefined;
    }, { what: `${id} ${status}`, timeoutMs });
  /** The payment's row once its file is written: its file and rail reference (trace number, end-to-end id). */
  const filed = (paymentId: string) =>
    eventually(async () => {
      const [row] = await payments(`SELECT p.rail_reference, p.file_id, f.name, f.status AS file_status FROM payments.rail_payments p JOIN payments.rail_files f ON f.file_id = p.file_id WHERE p.payment_id = $1`, [paymentId]);
      return row?.file_status === 'WRITTEN' ? (row as { rail_reference: string; file_id: string; name: string }) : undefined;
    }, { what: `${paymentId} in a written file` });
  /** The ACH calendar reaches the file's settlement moments (the timers' due time moved to now: nothing else changes). */
  const advanceCalendar = (fileId: string) => payments(`UPDATE payments.timers SET due_at = now() WHERE name = 'payments.rails.connector' AND payload->>'fileId' = $1 AND fired_at IS NULL`, [fileId]);
  /** The platform's production webhooks about `id`, in the order the dispatcher queued them: [type, status]. */
  const webhooksAbout = async (id: string): Promise<string[][]> => {
    const rows: { type: string; data_json: string }[] = await t.platform.webhooks.host.dataSource.query(
      `SELECT type, data_json FROM webhooks.deliveries WHERE platform_id = $1 AND mode = 'PRODUCTION' ORDER BY created_at, webhook_id`,
      [platform.platformId],
    );
    return rows.map((r) => ({ type: r.type, data: JSON.parse(r.data_json) })).filter((w) => w.data.id === id).map((w) => [w.type, w.data.status]);
  };
  /** The webhooks about `id` once `count` of them are queued (they are relayed after the change commits). */
  const webhooksOnce = async (id: string, count: number) => {
    await eventually(async () => ((await webhooksAbout(id)).length >= count ? true : undefined), { what: `${count} webhooks about ${id}` });
    return webhooksAbout(id);
  };
  const importFile = async (name: string, content: string) => {
    const form = new FormData();
    form.append('file', new Blob([content]), name);
    const res = await fetch(`${new URL(t.url).origin}/operator/v1/rails/imports`, { method: 'POST', headers: { authorization: admin.auth }, body: form });
    return { status: res.status, body: await res.json() } as HttpResult;
  };

  let pulledIn: string;
  it('a transfer-in is pulled by an ACH debit in a NACHA file and credited once its return window passes', async () => {
    const created = await prod('POST', '/transfer-in', { source: { accountId: usdExternal }, destination: { accountId: usdInternal }, amount: 100_000 });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ status: 'PENDING', type: 'INCOMING' });
    pulledIn = created.body.id;
    const row = await filed(pulledIn);
    // The file as the bank reads it: one debit of $1,000.00 to the account, its trace number the one kept on the payment.
    const file = readNachaFile(readFileSync(join(dirs.achOut, row.name), 'utf8'));
    const entries = file.batches.flatMap((b) => b.entries);
    expect(entries).toEqual([expect.objectContaining({ amount: 100_000, traceNumber: row.rail_reference, accountNumber: '4400123001' })]);
    expect(file.control.totalDebit).toBe(100_000);
    const [recorded] = await payments(`SELECT entry_count, total_amount FROM payments.rail_files WHERE file_id = $1`, [row.file_id]);
    expect(recorded).toEqual({ entry_count: 1, total_amount: '100000' });
    expect(await balance()).toBe(0);

    await advanceCalendar(row.file_id);
    await transaction(pulledIn, 'COMPLETED');
    expect(await balance()).toBe(100_000);
    expect(await webhooksOnce(pulledIn, 2)).toEqual([
      ['INCOMING_PAYMENT.PENDING', 'PENDING'],
      ['INCOMING_PAYMENT.COMPLETED', 'COMPLETED'],
    ]);
  });

  it('a payout goes out in a NACHA file and settles when no return came by its effective date, with its webhooks', async () => {
    const created = await prod('POST', '/transfer-out', { source: { accountId: usdInternal }, destination: { accountId: usdExternal }, amount: 30_000 });
    expect(created.status).toBe(201);
    const row = await filed(created.body.id);
    expect(await balance()).toBe(70_000); // held
    expect((await prod('GET', `/transactions/${created.body.id}`)).body.status).toBe('PROCESSING');
    await advanceCalendar(row.file_id);
    const done = await transaction(created.body.id, 'COMPLETED');
    expect(done).toMatchObject({ sentAmount: { amount: 30_000 }, paymentRail: 'ACH' });
    expect(await balance()).toBe(70_000);
    expect((await webhooksOnce(created.body.id, 3)).map(([, status]) => status)).toEqual(['PENDING', 'PROCESSING', 'COMPLETED']);
  });

  let returnFile: string;
  let returned: string;
  it('a returned payout (R01) turns FAILED with its reason and the code, the funds back; the same file again changes nothing', async () => {
    const created = await prod('POST', '/transfer-out', { source: { accountId: usdInternal }, destination: { accountId: usdExternal }, amount: 20_000 });
    returned = created.body.id;
    const row = await filed(returned);
    await advanceCalendar(row.file_id);
    await transaction(returned, 'COMPLETED');
    expect(await balance()).toBe(50_000);

    // The bank's return file lands in the inbox: imported by the connector's own round.
    returnFile = nachaReturnFile([{ originalTrace: row.rail_reference, code: 'R01', amount: 20_000, routingNumber: '021000021', accountNumber: '4400123001', name: 'PAT PAYEE' }], ODFI);
    writeFileSync(join(dirs.achIn, 'return-20261127.ach'), returnFile);
    const failed = await transaction(returned, 'FAILED');
    expect(failed).toMatchObject({ failureReason: 'PAYOUT_RETURNED', failureDetail: 'R01' });
    expect(await balance()).toBe(70_000);
    expect((await webhooksOnce(returned, 4)).map(([, status]) => status)).toEqual(['PENDING', 'PROCESSING', 'COMPLETED', 'FAILED']);

    // The same bytes again, through the operator API: answered as the first import, nothing changes.
    const again = await importFile('return-again.ach', returnFile);
    expect(again.status).toBeLessThan(300);
    expect(again.body).toMatchObject({ duplicate: true, connectorId: 'ach', entries: 1 });
    await new Promise((r) => setTimeout(r, 1500));
    expect(await balance()).toBe(70_000);
    expect((await webhooksAbout(returned)).map(([, status]) => status)).toEqual(['PENDING', 'PROCESSING', 'COMPLETED', 'FAILED']);
    expect(await payments(`SELECT count(*)::int AS n FROM payments.rail_outcomes WHERE payment_id = $1 AND kind = 'RETURNED'`, [returned])).toEqual([{ n: 1 }]);
  });

  it('a malformed or foreign file is refused whole and records nothing', async () => {
    const files = async () => (await payments(`SELECT count(*)::int AS n FROM payments.rail_files WHERE direction = 'INBOUND'`))[0].n;
    const before = await files();
    const broken = returnFile.replace(/^8(.{10})\d{10}/m, (_, head: string) => `8${head}9999999999`); // a wrong entry hash in the batch control
    const refused = await importFile('broken.ach', broken);
    expect(refused.status).toBe(400);
    expect(refused.body.message).toMatch(/entry hash/i);
    expect((await importFile('notes.txt', 'hello, this is not a bank file\n')).status).toBe(400);
    expect(await files()).toBe(before);
  });

  it('an external account is verified by an ACH prenote: ACTIVE when no return came in the waiting window', async () => {
    expect((await op('PUT', '/account-verification-methods/USD', admin, { method: 'PAYOUT_RAIL' })).status).toBe(200);
    const created = await prod('POST', '/customers/external-accounts', { customerId, ...usdAccount('5500123002', 'Val Verified') });
    expect(created.body.status).toBe('PENDING');
    const row = await filed(`Prenote:${created.body.id}`);
    const entries = readNachaFile(readFileSync(join(dirs.achOut, row.name), 'utf8')).batches.flatMap((b) => b.entries);
    expect(entries).toEqual([expect.objectContaining({ amount: 0, traceNumber: row.rail_reference, accountNumber: '5500123002' })]);
    await advanceCalendar(row.file_id);
    await eventually(async () => ((await prod('GET', `/customers/external-accounts/${created.body.id}`)).body.status === 'ACTIVE' ? true : undefined), { what: 'the prenoted account ACTIVE' });

    // Another account's prenote comes back R03 (no account, unable to locate): it becomes UNVERIFIED, with its webhook.
    const wrong = await prod('POST', '/customers/external-accounts', { customerId, ...usdAccount('5500123003', 'Nora Nobody') });
    const wrongRow = await filed(`Prenote:${wrong.body.id}`);
    const imported = await importFile('prenote-return.ach', nachaReturnFile([{ originalTrace: wrongRow.rail_reference, code: 'R03', amount: 0, routingNumber: '021000021', accountNumber: '5500123003', name: 'NORA NOBODY' }], ODFI));
    expect(imported.body).toMatchObject({ outcomes: 1, exceptions: 0 });
    await eventually(async () => ((await prod('GET', `/customers/external-accounts/${wrong.body.id}`)).body.status === 'UNVERIFIED' ? true : undefined), { what: 'the returned prenote UNVERIFIED' });
    expect((await op('PUT', '/account-verification-methods/USD', admin, { method: 'OPERATOR_APPROVAL' })).status).toBe(200);
  });

  let eurPaidOut: string;
  let eurRejected: string;
  it('EUR payouts go out in pain.001 files: a pain.002 rejects one (FAILED, funds back), a camt.054 confirms the other (COMPLETED)', async () => {
    await setProductionRates(t, [['USD', 'EUR', '0.9']]);
    const pay = async (amount: number) => {
      const quote = await prod('POST', '/quotes', { source: { sourceType: 'ACCOUNT', accountId: usdInternal }, destination: { destinationType: 'ACCOUNT', accountId: eurExternal, paymentRail: 'SEPA' }, lockedCurrencySide: 'SENDING', lockedCurrencyAmount: amount, immediatelyExecute: true });
      expect({ status: quote.status, body: quote.status === 201 ? undefined : quote.body }).toEqual({ status: 201, body: undefined });
      return quote.body.transactionId as string;
    };
    [eurRejected, eurPaidOut] = [await pay(10_000), await pay(5_000)];
    const [rejectedRow, paidRow] = [await filed(eurRejected), await filed(eurPaidOut)];
    expect(await balance()).toBe(70_000 - 15_000);

    // Each file read back with an independent XML parser: its count, control sum and each transfer's end-to-end id and amount.
    const initiations = [...new Set([rejectedRow.name, paidRow.name])].map((name) => new XMLParser({ ignoreAttributes: false, parseTagValue: false }).parse(readFileSync(join(dirs.sepaOut, name), 'utf8')).Document.CstmrCdtTrfInitn);
    const transfers = initiations.flatMap((i: any) => [i.PmtInf].flat().flatMap((p: any) => [p.CdtTrfTxInf].flat()));
    expect(initiations.reduce((n: number, i: any) => n + Number(i.GrpHdr.NbOfTxs), 0)).toBe(2);
    expect(initiations.reduce((n: number, i: any) => n + Number(i.GrpHdr.CtrlSum), 0)).toBeCloseTo(135, 2);
    expect(transfers.map((i: any) => [i.PmtId.EndToEndId, i.Amt.InstdAmt['#text']]).sort()).toEqual([[rejectedRow.rail_reference, '90.00'], [paidRow.rail_reference, '45.00']].sort());

    const rejectedMessage = new XMLParser({ parseTagValue: false }).parse(readFileSync(join(dirs.sepaOut, rejectedRow.name), 'utf8')).Document.CstmrCdtTrfInitn.GrpHdr.MsgId;
    const rejection = pain002Rejection(String(rejectedMessage), [{ endToEndId: rejectedRow.rail_reference, code: 'AC04', amount: 9_000, currency: 'EUR' }]);
    expect(await importFile('pain002.xml', rejection)).toMatchObject({ status: expect.any(Number), body: { duplicate: false, outcomes: 1, exceptions: 0 } });
    expect(await transaction(eurRejected, 'FAILED')).toMatchObject({ failureDetail: 'AC04' });
    expect(await balance()).toBe(70_000 - 5_000);

    // A booking of another amount is not taken as the payment's settlement: an exception, the payment still waits.
    const wrong = await importFile('camt054-wrong.xml', camt054Debits(DEBTOR_IBAN, [{ endToEndId: paidRow.rail_reference, amount: 4_400, currency: 'EUR' }]));
    expect(wrong.body).toMatchObject({ outcomes: 0, exceptions: 1 });
    expect((await op('GET', `/rails/exceptions?kind=AMOUNT_MISMATCH`, reviewer)).body.data).toEqual([expect.objectContaining({ paymentId: eurPaidOut, fileId: wrong.body.fileId })]);
    expect((await prod('GET', `/transactions/${eurPaidOut}`)).body.status).toBe('PROCESSING');
    writeFileSync(join(dirs.sepaIn, 'camt054.xml'), camt054Debits(DEBTOR_IBAN, [{ endToEndId: paidRow.rail_reference, amount: 4_500, currency: 'EUR' }]));
    await transaction(eurPaidOut, 'COMPLETED');
    expect(await balance()).toBe(65_000);
  });

  it('a wire goes through the reference bridge (a separate process): its 500 retried, its duplicate callbacks applied once, its return reverses it', async () => {
    expect((await bridge.control('POST', '/_control/faults', { failSubmits: { status: 500, count: 1, afterAccept: true }, duplicateCallbacks: true, callbackBeforeAnswer: true })).status).toBe(200);
    const created = await prod('POST', '/transfer-out', { source: { accountId: usdInternal }, destination: { accountId: usdExternal, paymentRail: 'WIRE' }, amount: 15_000 });
    expect(created.status).toBe(201);
    const id = created.body.id;
    const done = await transaction(id, 'COMPLETED');
    expect(done.paymentRail).toBe('WIRE');
    const received = (await bridge.control('GET', '/_control/received')).body;
    expect(received.payments.filter((p: any) => p.order.id === id)).toHaveLength(1); // the retry after the 500 was the same payment
    // The first answer was a 500 after the bridge took the order; its callback (sent before that answer) settled it, or the retry found it.
    expect(received.submits.filter((s: any) => s.idempotencyKey === id).map((s: any) => s.answeredStatus)[0]).toBe(500);
    const settled = received.callbacks.filter((c: any) => c.paymentId === id && c.status === 'SETTLED');
    expect(settled.length).toBeGreaterThanOrEqual(2); // every callback sent twice…
    expect(settled.every((c: any) => c.answer === 204)).toBe(true); // …each accepted, the second changing nothing
    expect(await balance()).toBe(50_000);

    expect((await bridge.control('POST', `/_control/payments/${encodeURIComponent(id)}/return`, { reasonCode: 'AC04' })).status).toBeLessThan(300);
    expect(await transaction(id, 'FAILED')).toMatchObject({ failureReason: 'PAYOUT_RETURNED', failureDetail: 'AC04' });
    expect(await balance()).toBe(65_000);
    expect((await webhooksOnce(id, 4)).map(([, status]) => status)).toEqual(['PENDING', 'PROCESSING', 'COMPLETED', 'FAILED']);
  });

  it('a bridge that times out, then sends its news out of order, still has the wire paid once', async () => {
    expect((await bridge.control('POST', '/_control/reset')).status).toBe(204);
    expect((await bridge.control('POST', '/_control/faults', { hangSubmits: { count: 1, ms: 4_000, afterAccept: true }, staleCallbacks: true })).status).toBe(200);
    const before = await balance();
    const created = await prod('POST', '/transfer-out', { source: { accountId: usdInternal }, destination: { accountId: usdExternal, paymentRail: 'WIRE' }, amount: 1_000 });
    const id = created.body.id;
    await transaction(id, 'COMPLETED');
    const received = (await bridge.control('GET', '/_control/received')).body;
    expect(received.payments.filter((p: any) => p.order.id === id)).toHaveLength(1);
    // Each SETTLED callback was followed by a stale PENDING one: the payment stays COMPLETED, debited once.
    expect(received.callbacks.some((c: any) => c.paymentId === id && c.status === 'PENDING')).toBe(true);
    await new Promise((r) => setTimeout(r, 1_000));
    expect((await prod('GET', `/transactions/${id}`)).body.status).toBe('COMPLETED');
    expect(await balance()).toBe(before - 1_000);
    expect((await webhooksOnce(id, 3)).map(([, status]) => status)).toEqual(['PENDING', 'PROCESSING', 'COMPLETED']);
  });

  it('a forged callback is refused and changes nothing', async () => {
    const res = await fetch(`${new URL(t.url).origin}/rails/v1/callbacks/wires`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'webhook-id': 'msg_forged', 'webhook-timestamp': String(Math.floor(Date.now() / 1000)), 'webhook-signature': 'v1,AAAA' },
      body: JSON.stringify({ type: 'payment.updated', data: { id: pulledIn, status: 'RETURNED', updatedAt: new Date().toISOString(), sequence: 99 } }),
    });
    expect(res.status).toBe(400);
    expect((await fetch(`${new URL(t.url).origin}/rails/v1/callbacks/nope`, { method: 'POST', body: '{}' })).status).toBe(404);
    expect((await prod('GET', `/transactions/${pulledIn}`)).body.status).toBe('COMPLETED');
  });

  it('shows operators the connectors, the files with their payments, and each payment with its outcomes', async () => {
    const connectors = (await op('GET', '/rails/connectors', reviewer)).body.data;
    expect(connectors.map((c: any) => [c.id, c.kind, c.capabilities])).toEqual([
      ['ach', 'NACHA', { payout: true, pull: true, returns: true, accountValidation: true, statuses: false }],
      ['sepa', 'ISO20022', { payout: true, pull: false, returns: true, accountValidation: false, statuses: true }],
      ['wires', 'HTTP', { payout: true, pull: false, returns: true, accountValidation: false, statuses: true }],
    ]);
    const outbound = (await op('GET', '/rails/files?connectorId=ach&direction=OUTBOUND', reviewer)).body;
    expect(outbound.totalCount).toBeGreaterThanOrEqual(4);
    const [row] = await payments(`SELECT file_id FROM payments.rail_payments WHERE payment_id = $1`, [returned]);
    const file = (await op('GET', `/rails/files/${row.file_id}`, reviewer)).body;
    expect(file).toMatchObject({ direction: 'OUTBOUND', format: 'NACHA', status: 'WRITTEN' });
    const content = await t.operatorCall('GET', `/rails/files/${row.file_id}/content`, { auth: reviewer.auth });
    expect(content.status).toBe(200);
    expect(String(content.body)).toContain(file.payments?.[0]?.railReference ?? (await payments(`SELECT rail_reference FROM payments.rail_payments WHERE payment_id = $1`, [returned]))[0].rail_reference);
    const payment = (await op('GET', `/rails/payments/${encodeURIComponent(returned)}`, reviewer)).body;
    expect(payment).toMatchObject({ status: 'RETURNED' });
    expect(JSON.stringify(payment)).toContain('R01');
  });

  it('entries matching no payment, and notifications of change, become exceptions an operator resolves', async () => {
    // A NOC and a return for trace numbers of no payment of ours (the NOC fixture of libs/rails, written by hand).
    const noc = readFileSync(join(__dirname, '../../rails/src/nacha/fixtures/noc-c01.ach'), 'utf8');
    const imported = await importFile('noc.ach', noc);
    expect(imported.body).toMatchObject({ duplicate: false, entries: 1, outcomes: 0, exceptions: 1 });
    const stray = await importFile('stray-return.ach', nachaReturnFile([{ originalTrace: `${ODFI}9999999`, code: 'R03', amount: 777, routingNumber: '021000021', accountNumber: '999', name: 'NOBODY' }], ODFI));
    expect(stray.body).toMatchObject({ outcomes: 0, exceptions: 1 });
    const open = (await op('GET', `/rails/exceptions?status=OPEN&connectorId=ach`, reviewer)).body.data;
    const ours = open.filter((e: any) => e.fileId === imported.body.fileId || e.fileId === stray.body.fileId);
    expect(ours.map((e: any) => e.kind).sort()).toEqual(['UNMATCHED_ENTRY', 'UNMATCHED_ENTRY']);
    const resolved = await op('POST', `/rails/exceptions/${encodeURIComponent(ours[0].id)}/resolve`, reviewer, { resolution: 'not ours: the bank confirmed a misrouted file' });
    expect(resolved.body).toMatchObject({ status: 'RESOLVED' });
    expect(await balance()).toBe(64_000); // nothing moved
  });

  it('leaves the ledger balanced', async () => {
    await expectLedgerClean(t);
  });
});
