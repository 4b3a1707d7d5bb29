import { createServer, IncomingMessage, ServerResponse } from 'node:http';
import { Pool } from 'pg';
import { REFERENCE_ACCOUNTS, REFERENCE_CUSTOMERS } from './reference-data';

/**
 * The reference service, in its own process (`node reference.js <databaseUrl>`): what a minimal service on the same
 * PostgreSQL does for the same logical operations, with plain `pg` and node:http. Its rows are the yardsticks the
 * platform's rows are divided by. Prints `ready <port>` once listening.
 *   GET  /fixed              fixed JSON, no database
 *   GET  /customers/{id}     one indexed SELECT
 *   POST /transfer-out       one transaction: lock the account, insert the event, update the balance
 *   POST /insert             one-row INSERT, committed (the durable-commit limit over HTTP)
 */
const SCHEMA = 'bench_ref';

async function prepare(pool: Pool): Promise<void> {
  await pool.query(`DROP SCHEMA IF EXISTS ${SCHEMA} CASCADE`);
  await pool.query(`CREATE SCHEMA ${SCHEMA}`);
  await pool.query(`CREATE TABLE ${SCHEMA}.customers (id text PRIMARY KEY, body jsonb NOT NULL)`);
  await pool.query(`CREATE TABLE ${SCHEMA}.accounts (id text PRIMARY KEY, balance bigint NOT NULL)`);
  await pool.query(`CREATE TABLE ${SCHEMA}.events (id bigserial PRIMARY KEY, account_id text NOT NULL, amount bigint NOT NULL, at timestamptz NOT NULL DEFAULT now())`);
  await pool.query(`CREATE TABLE ${SCHEMA}.rows (id bigserial PRIMARY KEY, at timestamptz NOT NULL DEFAULT now())`);
  await pool.query(
    `INSERT INTO ${SCHEMA}.customers SELECT 'c' || i, jsonb_build_object('id', 'c' || i, 'fullName', 'Customer ' || i, 'customerType', 'INDIVIDUAL') FROM generate_series(1, ${REFERENCE_CUSTOMERS}) i`,
  );
  await pool.query(`INSERT INTO ${SCHEMA}.accounts SELECT 'a' || i, 1000000000000 FROM generate_series(1, ${REFERENCE_ACCOUNTS}) i`);
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
}

async function transferOut(pool: Pool, accountId: string, amount: number): Promise<Record<string, unknown> | undefined> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const { rows } = await client.query<{ balance: string }>(`SELECT balance FROM ${SCHEMA}.accounts WHERE id = $1 FOR UPDATE`, [accountId]);
    if (!rows[0] || Number(rows[0].balance) < amount) {
      await client.query('ROLLBACK');
      return undefined;
    }
    const event = await client.query<{ id: string }>(`INSERT INTO ${SCHEMA}.events (account_id, amount) VALUES ($1, $2) RETURNING id`, [accountId, amount]);
    await client.query(`UPDATE ${SCHEMA}.accounts SET balance = balance - $2 WHERE id = $1`, [accountId, amount]);
    await client.query('COMMIT');
    return { id: event.rows[0].id, accountId, amount, status: 'PENDING' };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

async function main(): Promise<void> {
  const pool = new Pool({ connectionString: process.argv[2], max: 16 });
  await prepare(pool);
  const fixed = JSON.stringify({ id: 'PlatformConfig:reference', supportedCurrencies: [] });
  const server = createServer((req, res) => {
    void (async () => {
      const url = req.url ?? '/';
      if (req.method === 'GET' && url === '/fixed') return void res.writeHead(200, { 'content-type': 'application/json' }).end(fixed);
      if (req.method === 'GET' && url.startsWith('/customers/')) {
        const { rows } = await pool.query<{ body: unknown }>(`SELECT body FROM ${SCHEMA}.customers WHERE id = $1`, [decodeURIComponent(url.slice('/customers/'.length))]);
        return rows[0] ? send(res, 200, rows[0].body) : send(res, 404, { status: 404, code: 'NOT_FOUND' });
      }
      if (req.method === 'POST' && url === '/transfer-out') {
        const body = await readJson(req);
        const done = await transferOut(pool, String(body.accountId), Number(body.amount));
        return done ? send(res, 201, done) : send(res, 400, { status: 400, code: 'INSUFFICIENT_FUNDS' });
      }
      if (req.method === 'POST' && url === '/insert') {
        const { rows } = await pool.query<{ id: string }>(`INSERT INTO ${SCHEMA}.rows DEFAULT VALUES RETURNING id`);
        return send(res, 201, rows[0]);
      }
      send(res, 404, { status: 404, code: 'NOT_FOUND' });
    })().catch((error: unknown) => send(res, 500, { status: 500, code: 'INTERNAL', message: String(error) }));
  });
  server.listen(0, '127.0.0.1', () => process.stdout.write(`ready ${(server.address() as { port: number }).port}\n`));
  const stop = () => server.close(() => void pool.query(`DROP SCHEMA IF EXISTS ${SCHEMA} CASCADE`).finally(() => pool.end().then(() => process.exit(0))));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

main().catch((error) => {
  process.stderr.write(`reference service failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
