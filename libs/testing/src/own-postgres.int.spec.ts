import { Client } from 'pg';
import { OwnPostgres } from './own-postgres';

describe("OwnPostgres (a server of a test's or run's own, to crash)", () => {
  it('keeps what was committed through an immediate stop, comes back on the same port, and refuses connections while down', async () => {
    const pg = await OwnPostgres.start({ maxConnections: 50 });
    try {
      const query = async (sql: string) => {
        const c = new Client({ connectionString: pg.url() });
        await c.connect();
        try {
          return (await c.query(sql)).rows;
        } finally {
          await c.end();
        }
      };
      expect(await query('SHOW max_connections')).toEqual([{ max_connections: '50' }]);
      await query('CREATE TABLE kept (n int); INSERT INTO kept VALUES (1)');
      pg.stopImmediately();
      await expect(query('SELECT 1')).rejects.toThrow(/ECONNREFUSED/);
      await pg.startServer();
      expect(await query('SELECT n FROM kept')).toEqual([{ n: 1 }]);
      await pg.restart({ downMs: 100 });
      expect(await query('SELECT n FROM kept')).toEqual([{ n: 1 }]);
    } finally {
      pg.destroy();
    }
  }, 60_000);
});
