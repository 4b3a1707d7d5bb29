import type { DataSource, EntityManager } from 'typeorm';
import type { CommandExecutor } from '@payments/eventsourcing';
import { CUSTOMER_IMPORT_WORKER_DEFAULTS, CustomerImportWorker } from './customer-import.worker';

/** A data source whose job claims find nothing, each taking `claimMs`; records when each claim started. */
function fakeDataSource(claimMs: number): { dataSource: DataSource; claims: number[] } {
  const claims: number[] = [];
  const dataSource = {
    query: async (sql: string) => {
      if (sql.includes('WITH claimed')) {
        claims.push(Date.now());
        await new Promise((r) => setTimeout(r, claimMs));
      }
      return [];
    },
  } as unknown as DataSource;
  return { dataSource, claims };
}

describe('CustomerImportWorker poll loop', () => {
  it('claims again at once after a wake-up (a retry falling due, an upload) that came while it was claiming', async () => {
    const { dataSource, claims } = fakeDataSource(50);
    const worker = new CustomerImportWorker(dataSource, {} as CommandExecutor<EntityManager>, {} as never, { ...CUSTOMER_IMPORT_WORKER_DEFAULTS, pollIntervalMs: 1_000 });
    worker.start();
    try {
      await new Promise((r) => setTimeout(r, 20)); // inside the first claim
      worker.nudge();
      await new Promise((r) => setTimeout(r, 300));
      // The wake came after the first claim read: only a second claim can see what it was for.
      expect(claims.length).toBeGreaterThanOrEqual(2);
      expect(claims[1] - claims[0]).toBeLessThan(250);
    } finally {
      await worker.stop();
    }
  });
});
