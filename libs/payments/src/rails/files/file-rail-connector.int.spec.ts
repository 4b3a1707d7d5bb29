import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RailConnectorConfig } from '@payments/contracts';
import { createEventBus, EventBus, serviceTopic } from '@payments/messaging';
import { createTestDatabase, TestDatabase } from '@payments/testing';
import { Payments } from '../../payments';
import type { RailOrder } from '../rail-connector';
import { Rails } from '../rails';
import { nachaRailKind } from '../nacha/nacha-format';
import { FileRailConnector } from './file-rail-connector';

/**
 * The file connector's bookkeeping on real PostgreSQL and a real directory, beyond what the done-when e2e shows: a
 * format's limit of files per day (NACHA's file id modifier: 36) holds the day's later payments for the next day
 * rather than claiming a file that can never be written.
 */
describe('FileRailConnector (real PostgreSQL, a real outbox)', () => {
  let database: TestDatabase;
  let bus: EventBus;
  let payments: Payments;
  let rails: Rails;
  let connector: FileRailConnector;
  let root: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    bus = createEventBus({ databaseUrl: database.url, clientId: 'file-connector-test', kafkaBrokers: process.env.KAFKA_BROKERS, namespace: `${database.name}.` });
    const nowhere = { host: '127.0.0.1', port: 1 };
    payments = await Payments.open({ databaseUrl: database.url, bus, topic: serviceTopic('payments'), sandboxTimeScale: 1, accounts: nowhere, quoting: nowhere, rpcTimeoutMs: 1_000, secretHashKey: randomBytes(32) });
    root = mkdtempSync(join(tmpdir(), 'pp-file-connector-'));
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
    connector = rails.connector('ach') as FileRailConnector;
  });
  afterAll(async () => {
    await payments?.host.stop();
    await bus?.close();
    await database?.drop();
    rmSync(root, { recursive: true, force: true });
  });

  const order = (): RailOrder => ({
    paymentId: `Transaction:${randomUUID()}`,
    platformId: 'Platform:p',
    mode: 'PRODUCTION',
    kind: 'CREDIT',
    paymentRail: 'ACH',
    currency: 'USD',
    amount: 1_000,
    externalAccountId: `ExternalAccount:${randomUUID()}`,
    accountInfo: { accountType: 'USD_ACCOUNT', accountNumber: '123456789', routingNumber: '021000021', bankAccountType: 'CHECKING' },
    beneficiary: { name: 'Pat Payee', type: 'INDIVIDUAL' },
    reference: 'ABCDEF0123456789',
  });
  const query = (sql: string, params: unknown[] = []) => payments.host.dataSource.query(sql, params);

  it('writes one file for what is pending, then none while nothing is', async () => {
    const first = order();
    await rails.submit('ach', first);
    await connector.round();
    await connector.round();
    const files = await query(`SELECT name, status, entry_count FROM payments.rail_files WHERE direction = 'OUTBOUND'`);
    expect(files).toEqual([expect.objectContaining({ status: 'WRITTEN', entry_count: 1 })]);
    expect(readdirSync(join(root, 'out')).sort()).toEqual([files[0].name]); // the bank's file, nothing else
  });

  it("past the format's 36 files of a UTC day, payments wait for the next day: no file is claimed that could never be written", async () => {
    // 35 more files written today (rows as the connector records them), 36 in all.
    const today = new Date().toISOString();
    for (let n = 2; n <= 36; n++) {
      await query(`INSERT INTO payments.rail_files (file_id, connector_id, direction, format, name, status, meta) VALUES ($1, 'ach', 'OUTBOUND', 'NACHA', $2, 'WRITTEN', $3::jsonb)`, [
        `RailFile:${randomUUID()}`,
        `ach-earlier-${n}.ach`,
        JSON.stringify({ createdAt: today, sequenceOfDay: n }),
      ]);
    }
    const waiting = order();
    await rails.submit('ach', waiting);
    await connector.round();
    expect(await query(`SELECT status, file_id FROM payments.rail_payments WHERE payment_id = $1`, [waiting.paymentId])).toEqual([{ status: 'SUBMITTED', file_id: null }]);
    expect(await query(`SELECT count(*)::int AS n FROM payments.rail_files WHERE status = 'WRITING'`)).toEqual([{ n: 0 }]);
    expect(await query(`SELECT count(*)::int AS n FROM payments.rail_exceptions`)).toEqual([{ n: 0 }]);
  });
});
