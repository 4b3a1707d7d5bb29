import type { DataSource } from 'typeorm';
import { capabilitiesOf, RailConnectorConfig } from '@payments/contracts';
import { asTransactional, runMigrations } from '@payments/eventsourcing';
import { createAppRegistry, openServiceDatabase } from '@payments/runtime';
import { createTestDatabase, sampleOf, TestDatabase } from '@payments/testing';
import { railsMigrations } from '../rails.migrations';
import { registerRailMetrics } from './rail-metrics';
import { RailsQueries } from './rails-queries';

const NACHA: RailConnectorConfig = { id: 'bank-ach', kind: 'NACHA', routes: [{ currency: 'USD', paymentRail: 'ACH', directions: ['PAYOUT', 'PULL'] }] };
const SEPA: RailConnectorConfig = { id: 'bank-sepa', kind: 'ISO20022', routes: [{ currency: 'EUR', paymentRail: 'SEPA', directions: ['PAYOUT'] }] };
/** What Rails.describe() answers for these two connectors (the port's own describe is what the operator API lists). */
const describe2 = { describe: () => [NACHA, SEPA].map((c) => ({ id: c.id, kind: c.kind, routes: c.routes, capabilities: capabilitiesOf(c) })) };

/** The rails' operator reads and gauges over the real tables, filled as connectors fill them. */
describe('rails operations: queries and metrics (real PostgreSQL)', () => {
  let database: TestDatabase;
  let db: DataSource;
  let queries: RailsQueries;
  beforeAll(async () => {
    database = await createTestDatabase();
    db = await openServiceDatabase({ url: database.url, schema: 'payments' });
    await runMigrations(asTransactional(db), 'payments', [railsMigrations]);
    queries = new RailsQueries(db, 'payments');
  });
  afterAll(async () => {
    await db?.destroy();
    await database?.drop();
  });

  let seq = 0;
  const payment = (paymentId: string, connectorId: string, status: string, extra: { fileId?: string; submittedAgoSeconds?: number } = {}) =>
    db.query(
      `INSERT INTO payments.rail_payments (payment_id, connector_id, platform_id, mode, kind, payment_rail, currency, amount, external_account_id, sequence, rail_reference, rail_order, status, file_id, submitted_at)
       VALUES ($1, $2, 'Platform:p', 'PRODUCTION', 'CREDIT', 'ACH', 'USD', 1250, 'ExternalAccount:e', $3, $4, '{}'::jsonb, $5, $6, now() - make_interval(secs => $7))`,
      [paymentId, connectorId, ++seq, `09100001${String(seq).padStart(7, '0')}`, status, extra.fileId ?? null, extra.submittedAgoSeconds ?? 0],
    );
  const file = (fileId: string, connectorId: string, direction: string, status: string, createdAt: string) =>
    db.query(
      `INSERT INTO payments.rail_files (file_id, connector_id, direction, format, name, status, sha256, size_bytes, entry_count, total_amount, meta, imported_by, created_at, written_at)
       VALUES ($1, $2, $3, $4, $1 || '.ach', $5, CASE WHEN $5 = 'WRITING' THEN NULL ELSE 'ab12' END, CASE WHEN $5 = 'WRITING' THEN NULL ELSE 940 END, 2, 2500, '{"effectiveDate":"2025-06-03"}'::jsonb,
               CASE WHEN $3 = 'INBOUND' THEN 'admin-cli' END, $6, CASE WHEN $5 = 'WRITING' THEN NULL ELSE $6::timestamptz END)`,
      [fileId, connectorId, direction, direction === 'OUTBOUND' ? 'NACHA' : 'NACHA_RETURNS', status, createdAt],
    );

  it('lists files newest first by cursor, with an outbound file\'s payments and an inbound file\'s outcomes and exceptions', async () => {
    await file('RailFile:out-1', 'bank-ach', 'OUTBOUND', 'WRITTEN', '2025-06-02T10:00:00Z');
    await file('RailFile:in-1', 'bank-ach', 'INBOUND', 'IMPORTED', '2025-06-03T10:00:00Z');
    await file('RailFile:out-2', 'bank-ach', 'OUTBOUND', 'WRITING', '2025-06-04T10:00:00Z');
    await payment('Transaction:a', 'bank-ach', 'RETURNED', { fileId: 'RailFile:out-1' });
    await payment('Transaction:b', 'bank-ach', 'FILED', { fileId: 'RailFile:out-1' });
    await db.query(`INSERT INTO payments.rail_outcomes (outcome_id, payment_id, kind, failure_reason, rail_code, source, applied_at) VALUES ('Transaction:a/RETURNED', 'Transaction:a', 'RETURNED', 'PAYOUT_RETURNED', 'R01', 'RailFile:in-1', now())`);
    await db.query(`INSERT INTO payments.rail_exceptions (exception_id, connector_id, file_id, kind, message) VALUES ('RailException:in-1/3', 'bank-ach', 'RailFile:in-1', 'UNMATCHED_ENTRY', 'trace 091000019999999 matches no payment')`);

    const first = await queries.listFiles({ limit: 2 });
    expect(first.data.map((f) => f.id)).toEqual(['RailFile:out-2', 'RailFile:in-1']);
    expect(first).toMatchObject({ hasMore: true, totalCount: 3 });
    expect((await queries.listFiles({ limit: 2, cursor: first.nextCursor })).data.map((f) => f.id)).toEqual(['RailFile:out-1']);
    expect((await queries.listFiles({ direction: 'OUTBOUND', status: 'WRITTEN' })).data.map((f) => f.id)).toEqual(['RailFile:out-1']);
    expect(first.data[0]).not.toHaveProperty('sha256');

    const outbound = await queries.file('RailFile:out-1');
    expect(outbound).toMatchObject({ direction: 'OUTBOUND', format: 'NACHA', sha256: 'ab12', sizeBytes: 940, entryCount: 2, totalAmount: 2500, meta: { effectiveDate: '2025-06-03' }, writtenAt: '2025-06-02T10:00:00.000Z' });
    expect(outbound.payments!.map((p) => [p.paymentId, p.status, p.railReference, p.amount])).toEqual([
      ['Transaction:a', 'RETURNED', expect.stringMatching(/^09100001\d{7}$/), 1250],
      ['Transaction:b', 'FILED', expect.stringMatching(/^09100001\d{7}$/), 1250],
    ]);
    const inbound = await queries.file('RailFile:in-1');
    expect(inbound).toMatchObject({ importedBy: 'admin-cli', outcomes: [{ paymentId: 'Transaction:a', kind: 'RETURNED', failureReason: 'PAYOUT_RETURNED', railCode: 'R01' }], exceptions: [{ id: 'RailException:in-1/3', status: 'OPEN' }] });
    expect(inbound).not.toHaveProperty('payments');

    const detail = await queries.payment('Transaction:a');
    expect(detail).toMatchObject({ paymentId: 'Transaction:a', fileId: 'RailFile:out-1', file: { id: 'RailFile:out-1' }, outcomes: [{ kind: 'RETURNED', source: 'RailFile:in-1' }] });
    await expect(queries.payment('Transaction:none')).rejects.toMatchObject({ code: 'REFERENCE_NOT_FOUND' });
    await expect(queries.file('RailFile:none')).rejects.toMatchObject({ code: 'REFERENCE_NOT_FOUND' });
  });

  it('counts per configured connector: submitted, awaiting the rail, open exceptions, last outbound file; and the same as gauges', async () => {
    await payment('Transaction:c', 'bank-ach', 'SUBMITTED', { submittedAgoSeconds: 30 });
    await payment('Transaction:d', 'bank-ach', 'SUBMITTED', { submittedAgoSeconds: 600 });
    await payment('Transaction:e', 'gone-bank', 'SENT', { submittedAgoSeconds: 90 });
    const connectors = await queries.connectors(describe2);
    expect(connectors).toEqual([
      { ...describe2.describe()[0], paymentsSubmitted: 2, paymentsAwaitingRail: 1, exceptionsOpen: 1, lastOutboundFileAt: '2025-06-02T10:00:00.000Z' },
      { ...describe2.describe()[1], paymentsSubmitted: 0, paymentsAwaitingRail: 0, exceptionsOpen: 0 },
    ]);
    expect(connectors[0].capabilities).toEqual({ payout: true, pull: true, returns: true, accountValidation: true, statuses: false });

    const registry = createAppRegistry('rails-metrics-test');
    registerRailMetrics(registry, db, 'payments', () => ['bank-ach', 'bank-sepa']);
    const text = await registry.metrics();
    const at = (name: string, connector: string) => sampleOf(text, `payments_rail_${name}`, { connector });
    expect([at('payments_pending', 'bank-ach'), at('payments_pending', 'bank-sepa'), at('payments_pending', 'gone-bank')]).toEqual([2, 0, undefined]);
    expect([at('files_pending', 'bank-ach'), at('files_pending', 'bank-sepa')]).toEqual([1, 0]);
    expect([at('exceptions_open', 'bank-ach'), at('exceptions_open', 'bank-sepa')]).toEqual([1, 0]);
    // The oldest not final: Transaction:d (SUBMITTED 600 s ago) on bank-ach, the SENT one on a connector no longer configured.
    expect(at('oldest_submitted_age_seconds', 'bank-ach')).toBeGreaterThanOrEqual(600);
    expect(at('oldest_submitted_age_seconds', 'bank-ach')).toBeLessThan(660);
    expect(at('oldest_submitted_age_seconds', 'gone-bank')).toBeGreaterThanOrEqual(90);
    expect(at('oldest_submitted_age_seconds', 'bank-sepa')).toBe(0);

    await db.query(`UPDATE payments.rail_exceptions SET status = 'RESOLVED'`);
    await db.query(`UPDATE payments.rail_payments SET status = 'SETTLED' WHERE payment_id = 'Transaction:d'`);
    const after = await registry.metrics();
    expect(sampleOf(after, 'payments_rail_exceptions_open', { connector: 'bank-ach' })).toBe(0);
    expect(sampleOf(after, 'payments_rail_payments_pending', { connector: 'bank-ach' })).toBe(1);
    expect(sampleOf(after, 'payments_rail_oldest_submitted_age_seconds', { connector: 'bank-ach' })).toBeLessThan(600);
  });
});
