import { randomBytes } from 'node:crypto';
import { Client } from 'pg';

/** A fresh, empty database on the test server (DATABASE_URL, or the embedded one global-setup started). */
export interface TestDatabase {
  url: string;
  name: string;
  drop(): Promise<void>;
}

export function testServerUrl(): string {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error('DATABASE_URL is not set: jest global-setup should have set it');
  return url;
}

export async function createTestDatabase(prefix = 'pp_test'): Promise<TestDatabase> {
  const serverUrl = testServerUrl();
  const name = `${prefix}_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const admin = new Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    drop: async () => {
      const c = new Client({ connectionString: serverUrl });
      await c.connect();
      try {
        // Every suite should have closed its connections by now; a leak is named here instead of surfacing
        // later as a "terminating connection" error inside some other suite.
        const deadline = Date.now() + 5_000;
        let open: { application_name: string; state: string }[] = [];
        do {
          ({ rows: open } = await c.query(`SELECT application_name, state FROM pg_stat_activity WHERE datname = $1`, [name]));
          if (open.length > 0) await new Promise((r) => setTimeout(r, 50));
        } while (open.length > 0 && Date.now() < deadline);
        if (open.length > 0) console.warn(`test database ${name} still has connections at drop: ${JSON.stringify(open)}`);
        await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await c.end();
      }
    },
  };
}
