import { mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readNachaFile } from '@payments/rails';
import { eventually, freePort } from '@payments/testing';
import { approvalReached, individualBody } from './test-kyc';
import { internalAccountOf } from './test-quotes';
import { achConnector } from './test-rails';
import { startTestPlatform, TestOperator, TestPlatform, TestTenant } from './test-platform';

const INBOX_MAX_BYTES = 4096;

/**
 * Issue #41 (items 5, 7, 8): what the bank and the payee see of a payout file, and what the inbox reads. Through the
 * platform's HTTP API and the connector's directories: a transfer-out's remittanceInformation reaches the payee in a
 * NACHA 05 addenda (read back by the strict reader), the outbox holds the bank's files and nothing else, an inbox
 * file over the configured limit is not imported and is an exception the operator sees, and a file is read once.
 */
describe('rails: bank files carry what the payee should see, and nothing the bank should not', () => {
  let t: TestPlatform;
  let dirs: { root: string; out: string; in: string };
  let platform: TestTenant;
  let admin: TestOperator;
  let reviewer: TestOperator;
  let customerId: string;
  let usdInternal: string;
  let usdExternal: string;

  beforeAll(async () => {
    const root = mkdtempSync(join(tmpdir(), 'pp-bank-files-'));
    dirs = { root, out: join(root, 'out'), in: join(root, 'in') };
    const rails = { connectors: [achConnector(root, { outboxDirectory: dirs.out, inboxDirectory: dirs.in, inboxMaxBytes: INBOX_MAX_BYTES })] };
    t = await startTestPlatform({ SANDBOX_TIME_SCALE: '0.001', KYC_APPROVALS_REQUIRED: '1', PORT: String(await freePort()), RAILS_CONFIG: JSON.stringify(rails) });
    [admin, reviewer] = [await t.createOperator('ADMIN', 'Ada Admin'), await t.createOperator('REVIEWER', 'Rita Reviewer')];
    platform = await t.createTenant('Bank Files Co');
    const usd = { currencyCode: 'USD', minAmount: 1, maxAmount: 1_000_000_000, requiredCounterpartyFields: [], enabledTransactionTypes: ['INCOMING', 'OUTGOING'] };
    expect((await prod('PATCH', '/config', { webhookEndpoint: 'https://hooks.bank-files.example/payments', umaDomain: 'bank-files.example', supportedCurrencies: [usd] })).status).toBe(200);
    customerId = (await prod('POST', '/customers', individualBody('Zoë Payer'))).body.id;
    const verification = (await prod('POST', '/verifications', { customerId })).body;
    await eventually(async () => {
      const res = await op('POST', `/kyc-reviews/${verification.id}/approve`, reviewer, { reason: 'documents match' });
      return res.status === 404 ? undefined : res;
    }, { what: 'the KYC review in the queue' });
    await approvalReached(t, customerId); // production money moves once payments and quoting know of it
    usdInternal = await internalAccountOf(t, platform.production, customerId, 'USD');
    const created = await prod('POST', '/customers/external-accounts', {
      customerId,
      currency: 'USD',
      accountInfo: { accountType: 'USD_ACCOUNT', accountNumber: '4400123001', routingNumber: '021000021', bankAccountType: 'CHECKING', bankName: 'Test Bank', beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Pat Payee', address: { line1: '1 Main St', city: 'Springfield', postalCode: '12345', country: 'US' } } },
    });
    expect(created.status).toBe(201);
    await eventually(async () => {
      const res = await op('POST', `/external-account-reviews/${created.body.id}/approve`, reviewer, { reason: 'statement matches' });
      return res.status === 404 ? undefined : res;
    }, { what: 'the account in the review queue' });
    usdExternal = created.body.id;
  }, 120_000);

  afterAll(async () => {
    await t?.stop();
    if (dirs) rmSync(dirs.root, { recursive: true, force: true });
  });

  const prod = (method: string, path: string, body?: unknown) => t.call(method, path, { auth: platform.production, body });
  const op = (method: string, path: string, who: TestOperator, body?: unknown) => t.operatorCall(method, path, { auth: who.auth, body });
  const payments = async (sql: string, params: unknown[] = []): Promise<any[]> => t.platform.payments.host.dataSource.query(sql, params);
  const filed = (paymentId: string) =>
    eventually(async () => {
      const [row] = await payments(`SELECT p.rail_reference, p.file_id, f.name, f.status AS file_status FROM payments.rail_payments p JOIN payments.rail_files f ON f.file_id = p.file_id WHERE p.payment_id = $1`, [paymentId]);
      return row?.file_status === 'WRITTEN' ? (row as { rail_reference: string; file_id: string; name: string }) : undefined;
    }, { what: `${paymentId} in a written file` });
  const exceptions = async () => (await op('GET', '/rails/exceptions?status=OPEN&kind=REFUSED_FILE', admin)).body.data as { kind: string; message: string; detail: Record<string, unknown> }[];
  const inboundFiles = async () => (await op('GET', '/rails/files?direction=INBOUND', admin)).body.data as { name: string }[];

  it("puts the transfer's remittanceInformation in a 05 addenda of its entry, the trace number unchanged", async () => {
    // A pull funds the account; its file goes out the same way (no remittance: no addenda).
    const pull = await prod('POST', '/transfer-in', { source: { accountId: usdExternal }, destination: { accountId: usdInternal }, amount: 50_000 });
    expect(pull.status).toBe(201);
    const pulled = await filed(pull.body.id);
    expect(readNachaFile(readFileSync(join(dirs.out, pulled.name), 'utf8')).batches[0].entries[0].addenda).toEqual([]);
    await payments(`UPDATE payments.timers SET due_at = now() WHERE name = 'payments.rails.connector' AND payload->>'fileId' = $1 AND fired_at IS NULL`, [pulled.file_id]);
    await eventually(async () => ((await prod('GET', `/transactions/${pull.body.id}`)).body.status === 'COMPLETED' ? true : undefined), { what: 'the pull COMPLETED' });

    const payout = await prod('POST', '/transfer-out', { source: { accountId: usdInternal }, destination: { accountId: usdExternal }, amount: 12_345, remittanceInformation: 'Invoice 42 – Zoë' });
    expect(payout.status).toBe(201);
    const row = await filed(payout.body.id);
    const file = readNachaFile(readFileSync(join(dirs.out, row.name), 'utf8'));
    const [entry] = file.batches.flatMap((b) => b.entries);
    expect(entry).toMatchObject({ amount: 12_345, traceNumber: row.rail_reference });
    expect(entry.addenda).toEqual([{ line: 4, type: '05', paymentRelatedInformation: 'Invoice 42 - Zoe', addendaSequence: 1, entryDetailSequence: row.rail_reference.slice(8) }]);
    expect(file.control.entryAddendaCount).toBe(2);
  });

  it('leaves nothing in the outbox but the bank files', async () => {
    const [{ names }] = await payments(`SELECT array_agg(name ORDER BY name) AS names FROM payments.rail_files WHERE direction = 'OUTBOUND'`);
    expect(names.length).toBeGreaterThanOrEqual(2);
    expect(readdirSync(dirs.out).sort()).toEqual(names);
  });

  it('does not import an inbox file over the size limit, and shows it to the operator', async () => {
    writeFileSync(join(dirs.in, 'huge-return.ach'), '1'.repeat(INBOX_MAX_BYTES + 1));
    const [refused] = await eventually(async () => {
      const open = (await exceptions()).filter((e) => e.detail.name === 'huge-return.ach');
      return open.length > 0 ? open : undefined;
    }, { what: 'the oversized file raised' });
    expect(refused).toMatchObject({ kind: 'REFUSED_FILE', detail: { name: 'huge-return.ach', bytes: INBOX_MAX_BYTES + 1, maxBytes: INBOX_MAX_BYTES } });
    expect(refused.message).toContain('over the 4096 bytes');
    expect((await inboundFiles()).map((f) => f.name)).not.toContain('huge-return.ach');
  });

  it('reads an inbox file once: other bytes slipped in under the same name, size and time are never seen', async () => {
    const path = join(dirs.in, 'notes.txt');
    // Written under a hidden name (never listed) with a whole-second time, then moved in: one version from the start.
    const at = new Date(Math.floor(Date.now() / 1000) * 1000);
    const put = (content: string) => {
      writeFileSync(join(dirs.in, '.notes.tmp'), content);
      utimesSync(join(dirs.in, '.notes.tmp'), at, at);
      renameSync(join(dirs.in, '.notes.tmp'), path);
    };
    put('not a bank file, first version');
    await eventually(async () => ((await exceptions()).some((e) => e.detail.name === 'notes.txt') ? true : undefined), { what: 'notes.txt refused once' });
    // Same size and modification time, other bytes: were the file read again, these would be refused as another file.
    writeFileSync(path, 'NOT A BANK FILE, FIRST VERSION');
    utimesSync(path, at, at);
    const roundsLater = Date.now() + 3_500; // three batch rounds of one second
    await eventually(async () => (Date.now() > roundsLater ? true : undefined), { what: 'three rounds' });
    expect((await exceptions()).filter((e) => e.detail.name === 'notes.txt')).toHaveLength(1);
  });
});
