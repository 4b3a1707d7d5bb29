import type { DataSource } from 'typeorm';
import { asTransactional, eventsourcingMigrations, runMigrations } from '@payments/eventsourcing';
import { openServiceDatabase } from '@payments/runtime';
import { createTestDatabase, TestDatabase } from '@payments/testing';
import { quotingMigrations } from '../../quoting.migrations';
import { ecbRateStore } from '../ecb/ecb-rates';
import { quotingRatesMigrations } from '../rates.migrations';
import { operatorRateTable } from './operator-rate-table';
import { OperatorTableEntry } from './production-rate-book';
import { DatabaseProductionRates } from './production-rates';

const HOUR = 3_600_000;
const T0 = Date.parse('2026-03-02T10:00:00.000Z');
const at = (hours: number) => new Date(T0 + hours * HOUR).toISOString();
let n = 0;
const entry = (s: string, d: string, midRate: string, fromHours: number, untilHours: number): Omit<OperatorTableEntry, 'seq'> => ({
  entryId: `RateEntry:${String(++n).padStart(4, '0')}`,
  sourceCurrency: s,
  destinationCurrency: d,
  kind: 'SET',
  midRate,
  validFrom: at(fromHours),
  validUntil: at(untilHours),
  reason: null,
  operatorId: 'Operator:1',
  operatorName: 'Ada',
  recordedAt: at(0),
});

describe('production rates in the database (real PostgreSQL)', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  beforeAll(async () => {
    database = await createTestDatabase();
    dataSource = await openServiceDatabase({ url: database.url, schema: 'quoting' });
    await runMigrations(asTransactional(dataSource), 'quoting', [eventsourcingMigrations, quotingMigrations, quotingRatesMigrations]);
  });
  afterAll(async () => {
    await dataSource.destroy();
    await database.drop();
  });

  it('keeps the operator table append-only: an entry is never updated or deleted', async () => {
    const stored = await operatorRateTable.append(dataSource, entry('USD', 'GBP', '0.79', 0, 5));
    expect(stored).toMatchObject({ entryId: stored.entryId, seq: expect.any(Number), midRate: '0.79', validFrom: at(0), validUntil: at(5) });
    await expect(dataSource.query(`UPDATE operator_rate_entries SET mid_rate = '0.8'`)).rejects.toThrow(/append-only/);
    await expect(dataSource.query(`DELETE FROM operator_rate_entries`)).rejects.toThrow(/append-only/);
    await expect(operatorRateTable.append(dataSource, { ...entry('USD', 'GBP', '0.79', 5, 4) })).rejects.toThrow(/check constraint/);
  });

  it('a rate set through another replica prices at the next request; a scheduled one applies when its window begins', async () => {
    const replicaA = new DatabaseProductionRates(dataSource, { operatorMaxAgeMs: 72 * HOUR });
    const replicaB = new DatabaseProductionRates(dataSource, { operatorMaxAgeMs: 72 * HOUR });
    expect((await replicaA.book(at(0))).lookup('USD', 'MXN')).toMatchObject({ ok: false, error: { code: 'RATE_SOURCE_NOT_CONFIGURED' } });
    await operatorRateTable.append(dataSource, entry('USD', 'MXN', '17.1', 0, 10));
    await operatorRateTable.append(dataSource, entry('USD', 'MXN', '17.3', 2, 10));
    expect((await replicaB.book(at(0))).lookup('USD', 'MXN')).toMatchObject({ ok: true, rate: { midRate: '17.1' } });
    const a = await replicaA.book(at(0));
    expect(a.lookup('USD', 'MXN')).toMatchObject({ ok: true, rate: { midRate: '17.1' } });
    // No new entry since: the same snapshot serves a later instant, and the scheduled entry has begun by then.
    expect((await replicaA.book(at(3))).lookup('USD', 'MXN')).toMatchObject({ ok: true, rate: { midRate: '17.3' } });
    expect((await replicaA.book(at(11))).lookup('USD', 'MXN')).toMatchObject({ ok: false, error: { code: 'RATE_STALE' } });
    const history = await operatorRateTable.history(dataSource, { sourceCurrency: 'USD', destinationCurrency: 'MXN', limit: 1 });
    expect(history).toMatchObject({ data: [{ midRate: '17.3' }], hasMore: true, totalCount: 2 });
  });

  it('keeps one ECB document per reference date, and the newest prices after a restart', async () => {
    const rates = { referenceDate: '2022-07-08', publishedAt: '2022-07-08T14:00:00.000Z', perEur: { USD: '1.0163', MXN: '20.8477' } };
    await ecbRateStore.save(dataSource, { ...rates, referenceDate: '2022-07-07', publishedAt: '2022-07-07T14:00:00.000Z', perEur: { USD: '1.0180' } }, '2022-07-07T15:00:00.000Z', 'https://ecb.example/d.xml');
    await ecbRateStore.save(dataSource, rates, '2022-07-08T15:00:00.000Z', 'https://ecb.example/d.xml');
    await ecbRateStore.save(dataSource, { ...rates, perEur: { USD: '9' } }, '2022-07-08T16:00:00.000Z', 'https://ecb.example/d.xml');
    expect(await ecbRateStore.latest(dataSource)).toEqual({ ...rates, fetchedAt: '2022-07-08T15:00:00.000Z' });
    const restarted = new DatabaseProductionRates(dataSource, { operatorMaxAgeMs: HOUR }, { url: 'https://ecb.example/d.xml', maxAgeMs: 10 * 365 * 24 * HOUR, refreshMs: HOUR, status: {} });
    expect((await restarted.book('2026-01-01T00:00:00.000Z')).lookup('USD', 'MXN')).toMatchObject({ ok: true, rate: { midRate: '20.513332677359', pricing: { source: 'ECB', referenceDate: '2022-07-08' } } });
  });
});
