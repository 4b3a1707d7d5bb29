import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import type { RailConnectorConfig, TransactionStatus } from '@payments/contracts';
import { createEventBus, EventBus, serviceTopic } from '@payments/messaging';
import { createTestDatabase, TestDatabase } from '@payments/testing';
import { Payments } from '../payments';
import type { RailOrder, RailOutcome } from './rail-connector';
import { inRailOrder, transactionEffect } from './outcome-rules';
import { PaymentOutcomesBusy } from './rail-outcomes';
import { Rails } from './rails';
import { nachaRailKind } from './nacha/nacha-format';
import { FileRailConnector } from './files/file-rail-connector';

/**
 * The applier on real PostgreSQL, under concurrency: reports (one file, one callback: one database transaction each)
 * recorded at once, and several appliers (the outcomes' own timers, plus explicit drains standing for a second
 * replica) racing. Whatever the interleaving, a payment's outcomes reach the saga's side one at a time, each news
 * exactly once, a report's booking before its return, in the order the rows say (seq: the order recorded under the
 * payment row's lock).
 */
describe('RailOutcomes: one applier per payment (real PostgreSQL, concurrent reports and appliers)', () => {
  let database: TestDatabase;
  let bus: EventBus;
  let payments: Payments;
  let rails: Rails;
  let root: string;
  const applied = new Map<string, RailOutcome['kind'][]>();
  const status = new Map<string, TransactionStatus>();
  const running = new Set<string>();
  const overlaps: string[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    bus = createEventBus({ databaseUrl: database.url, clientId: 'rail-outcomes-test', kafkaBrokers: process.env.KAFKA_BROKERS, namespace: `${database.name}.` });
    const nowhere = { host: '127.0.0.1', port: 1 };
    payments = await Payments.open({ databaseUrl: database.url, bus, topic: serviceTopic('payments'), sandboxTimeScale: 1, accounts: nowhere, quoting: nowhere, rpcTimeoutMs: 1_000, secretHashKey: randomBytes(32) });
    root = mkdtempSync(join(tmpdir(), 'pp-rail-outcomes-'));
    const config: RailConnectorConfig = {
      id: 'ach',
      kind: 'NACHA',
      routes: [{ currency: 'USD', paymentRail: 'ACH', directions: ['PAYOUT', 'PULL'] }],
      outboxDirectory: join(root, 'out'),
      inboxDirectory: join(root, 'in'),
      batchIntervalSeconds: 60,
      nacha: { immediateDestination: '091000019', immediateDestinationName: 'BANK', immediateOrigin: '021000021', immediateOriginName: 'US', companyName: 'US', companyIdentification: '1234567890', originatingDfi: '02100002', settlementHourUtc: 22, prenoteWaitBankingDays: 3, debitHoldBankingDays: 2 },
    };
    const { dataSource } = payments.host;
    rails = new Rails(dataSource, payments.rails.payments, payments.rails.outcomes, payments.rails.exceptions, { connectors: [config] }, { NACHA: (context) => new FileRailConnector(context, nachaRailKind) }, { dataSource, schema: 'payments', timers: payments.host.timers, credits: payments.rails.credits, log: () => undefined });
    // The saga's side, modelled: what it would do (outcomeEffect on the transaction's status), slowly enough to overlap.
    payments.rails.outcomes.connect({
      applyToTransaction: async (payment, outcome) => {
        if (running.has(payment.payment_id)) overlaps.push(payment.payment_id);
        running.add(payment.payment_id);
        await new Promise((r) => setTimeout(r, 3));
        const before = status.get(payment.payment_id) ?? 'PROCESSING';
        const effect = transactionEffect(before, outcome.kind);
        if (effect === 'SETTLE') status.set(payment.payment_id, 'COMPLETED');
        if (effect === 'REVERSE_SETTLEMENT' || effect === 'FAIL_BEFORE_SETTLEMENT') status.set(payment.payment_id, 'FAILED');
        applied.set(payment.payment_id, [...(applied.get(payment.payment_id) ?? []), outcome.kind]);
        running.delete(payment.payment_id);
      },
      applyToPrenote: async () => undefined,
    });
  });
  afterAll(async () => {
    await payments?.host.stop();
    await bus?.close();
    await database?.drop();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  const order = (kind: 'CREDIT' | 'DEBIT'): RailOrder => ({
    paymentId: `Transaction:${randomUUID()}`,
    platformId: 'Platform:p',
    mode: 'PRODUCTION',
    kind,
    paymentRail: 'ACH',
    currency: 'USD',
    amount: 1_000,
    externalAccountId: `ExternalAccount:${randomUUID()}`,
    accountInfo: { accountType: 'USD_ACCOUNT', accountNumber: '123456789', routingNumber: '021000021', bankAccountType: 'CHECKING' },
    beneficiary: { name: 'Pat Payee', type: 'INDIVIDUAL' },
    reference: 'ABCDEF0123456789',
  });
  const query = (sql: string, params: unknown[] = []) => payments.host.dataSource.query(sql, params);
  /** An applier standing for another replica's: a taken lease is its timer's retry, here a short wait. */
  const drainSoon = async (paymentId: string): Promise<void> => {
    for (;;) {
      try {
        return await payments.rails.outcomes.drain(paymentId);
      } catch (error) {
        if (!(error instanceof PaymentOutcomesBusy)) throw error;
        await new Promise((r) => setTimeout(r, 5));
      }
    }
  };

  const kinds: RailOutcome['kind'][] = ['SETTLED', 'REJECTED', 'RETURNED'];
  const scenario = fc.record({
    kind: fc.constantFrom<'CREDIT' | 'DEBIT'>('CREDIT', 'DEBIT'),
    outcomes: fc.uniqueArray(fc.constantFrom(...kinds), { minLength: 2, maxLength: 3 }),
    reports: fc.array(fc.integer({ min: 0, max: 2 }), { minLength: 3, maxLength: 3 }),
    source: fc.constantFrom('file', 'callback'),
    appliers: fc.integer({ min: 1, max: 3 }),
  });

  it('applies each news once, one at a time, in the recorded order, a report booking before its return', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async (s) => {
        const o = order(s.kind);
        await rails.submit('ach', o);
        const byReport = new Map<number, RailOutcome['kind'][]>();
        s.outcomes.forEach((k, i) => byReport.set(s.reports[i], [...(byReport.get(s.reports[i]) ?? []), k]));
        const sourceOf = (report: number) => (s.source === 'file' ? `RailFile:${o.paymentId}/${report}` : `callback:${o.paymentId}/${report}`);
        // Every report in its own transaction, all at once, with appliers racing them.
        await Promise.all([
          ...[...byReport].map(([report, ks]) => payments.host.dataSource.transaction(async (tx) => {
            // As a connector imports a report: in the rail's order (inRailOrder), a booking before its return.
            for (const { entry: kind } of inRailOrder(ks, (k) => k)) await payments.rails.outcomes.record(tx, { paymentId: o.paymentId, kind, source: sourceOf(report), ...(kind === 'SETTLED' ? {} : { failureReason: 'PAYOUT_RETURNED', railCode: 'R01' }) });
          })),
          ...Array.from({ length: s.appliers }, () => drainSoon(o.paymentId)),
        ]);
        await drainSoon(o.paymentId);
        const rows: { kind: RailOutcome['kind']; source: string }[] = await query(`SELECT kind, source FROM payments.rail_outcomes WHERE payment_id = $1 ORDER BY seq`, [o.paymentId]);
        const news = (await query(`SELECT kind FROM payments.rail_outcomes o WHERE payment_id = $1 AND NOT EXISTS (SELECT 1 FROM payments.rail_exceptions e WHERE e.exception_id = 'RailException:' || o.outcome_id AND e.kind = 'CONTRADICTORY_OUTCOME') ORDER BY seq`, [o.paymentId])).map((r: { kind: RailOutcome['kind'] }) => r.kind);
        expect(rows).toHaveLength(s.outcomes.length);
        expect(await query(`SELECT count(*)::int AS n FROM payments.rail_outcomes WHERE payment_id = $1 AND applied_at IS NULL`, [o.paymentId])).toEqual([{ n: 0 }]);
        // Each news applied once, in the rows' order; none of them overlapping another of the payment.
        expect(applied.get(o.paymentId) ?? []).toEqual(news);
        for (const [report, ks] of byReport) {
          if (ks.includes('SETTLED') && ks.includes('RETURNED')) {
            const seen = applied.get(o.paymentId) ?? [];
            expect({ report, order: seen.filter((k) => k !== 'REJECTED') }).toEqual({ report, order: ['SETTLED', 'RETURNED'].filter((k) => seen.includes(k as RailOutcome['kind'])) });
          }
        }
        expect(overlaps).toEqual([]);
      }),
      { numRuns: 40 },
    );
  }, 120_000);
});
