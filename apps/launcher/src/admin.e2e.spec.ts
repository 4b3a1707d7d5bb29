import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { basicAuth, createTestDatabase, eventually, http, sampleOf, TestDatabase } from '@payments/testing';
import { nachaReturnFile } from '@payments/rails/testing';
import { PgLogEventBus, serviceTopic } from '@payments/messaging';

/** The originating DFI of the test connector: the first 8 digits of its trace numbers. */
const ODFI = '02100002';
const ADMIN = resolve(__dirname, '../../../dist/apps/launcher/src/admin.js');

/** The operator CLI as built: creates a platform in the database and prints usable credentials once. */
describe('npm run admin -- platform:create', () => {
  let database: TestDatabase;
  let dataDir: string;
  beforeAll(async () => {
    if (!existsSync(ADMIN)) throw new Error(`${ADMIN} is missing: run npm run build (npm test does it first)`);
    database = await createTestDatabase();
    dataDir = mkdtempSync(join(tmpdir(), 'pp-admin-'));
  });
  afterAll(async () => {
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const admin = (...args: string[]) =>
    spawnSync(process.execPath, [ADMIN, ...args], {
      env: { ...process.env, DATABASE_URL: database.url, DATA_DIR: dataDir, KAFKA_BROKERS: '', LOG_LEVEL: 'silent' },
      encoding: 'utf8',
      timeout: 60_000,
    });

  it('prints JSON with the platform id and working sandbox and production credentials', async () => {
    const run = admin('platform:create', '--name', 'Acme Payments');
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const created = JSON.parse(run.stdout);
    expect(created).toMatchObject({
      platformId: expect.stringMatching(/^Platform:/),
      name: 'Acme Payments',
      sandbox: { tokenId: expect.stringMatching(/^Token:/), clientId: expect.any(String), clientSecret: expect.any(String) },
      production: { tokenId: expect.stringMatching(/^Token:/), clientId: expect.any(String), clientSecret: expect.any(String) },
    });

    // The same credentials work against a platform started on that database.
    const { startTestPlatformOn } = await import('./test-start-on');
    const running = await startTestPlatformOn(database.url, dataDir);
    try {
      const auth = basicAuth(created.sandbox.clientId, created.sandbox.clientSecret);
      const res = await http('GET', `${running.url}/config`, { auth });
      expect(res.status).toBe(200);
      // The platform's accounts open from the events the CLI left in the outbox.
      await eventually(async () => (await http('GET', `${running.url}/platform/internal-accounts`, { auth })).body.data?.length > 0, { what: 'platform accounts' });
    } finally {
      await running.stop();
    }
  });

  it('operator:create prints working operator credentials once; operator:list shows no secret; operator:disable locks them out', async () => {
    const refused = admin('operator:create', '--name', 'Nobody', '--role', 'OWNER');
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain('--role ADMIN|REVIEWER|VIEWER');

    const run = admin('operator:create', '--name', 'Rita Reviewer', '--role', 'REVIEWER');
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const created = JSON.parse(run.stdout);
    expect(created).toEqual({ id: expect.stringMatching(/^Operator:/), name: 'Rita Reviewer', role: 'REVIEWER', clientId: expect.stringMatching(/^op_/), clientSecret: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) });
    const listed = admin('operator:list');
    expect(listed.status).toBe(0);
    expect(listed.stdout).not.toContain(created.clientSecret);
    expect(JSON.parse(listed.stdout)).toEqual([{ id: created.id, name: 'Rita Reviewer', role: 'REVIEWER', createdAt: expect.any(String) }]);

    const { startTestPlatformOn } = await import('./test-start-on');
    const running = await startTestPlatformOn(database.url, dataDir);
    try {
      const origin = new URL(running.url).origin;
      const auth = basicAuth(created.clientId, created.clientSecret);
      expect((await http('GET', `${origin}/operator/v1/me`, { auth })).body).toMatchObject({ id: created.id, role: 'REVIEWER' });
      // Disabled from the command line while the platform runs: the next request is refused.
      expect(admin('operator:disable', '--id', created.id).status).toBe(0);
      expect((await http('GET', `${origin}/operator/v1/me`, { auth })).status).toBe(401);
    } finally {
      await running.stop();
    }
  });

  it('ledger:check reports a clean ledger with exit 0 and a tampered one with exit 1', async () => {
    const clean = admin('ledger:check');
    expect(clean.status).toBe(0);
    expect(JSON.parse(clean.stdout)).toMatchObject({ violations: [] });
    const { Client } = await import('pg');
    const db = new Client({ connectionString: database.url });
    await db.connect();
    try {
      const [{ account_id }] = (await db.query(`SELECT account_id FROM accounts.ledger_accounts LIMIT 1`)).rows;
      await db.query(`UPDATE accounts.ledger_accounts SET total = total + 7, held = held WHERE account_id = $1`, [account_id]);
      const dirty = admin('ledger:check');
      expect(dirty.status).toBe(1);
      expect(JSON.parse(dirty.stdout).violations.map((v: { rule: string; subject: string }) => [v.rule, v.subject])).toEqual(
        expect.arrayContaining([['BALANCE_MISMATCH', account_id], ['FOLD_MISMATCH', account_id]]),
      );
      await db.query(`UPDATE accounts.ledger_accounts SET total = total - 7 WHERE account_id = $1`, [account_id]);
    } finally {
      await db.end();
    }
  });

  it("ledger:check leaves its outcome on the accounts service's /metrics: when it ran, pass or fail, how many violations", async () => {
    const { startTestPlatformOn } = await import('./test-start-on');
    const running = await startTestPlatformOn(database.url, dataDir);
    const { Client } = await import('pg');
    const db = new Client({ connectionString: database.url });
    await db.connect();
    try {
      const metrics = async () => {
        const text = (await http<string>('GET', `http://127.0.0.1:${running.ops.port}/metrics`)).body;
        const value = (name: string) => sampleOf(text, name, { app: 'accounts' });
        return { ok: value('payments_ledger_check_ok'), at: value('payments_ledger_check_last_run_timestamp_seconds')!, violations: value('payments_ledger_check_violations') };
      };
      const before = await metrics();
      expect(admin('ledger:check').status).toBe(0);
      const clean = await metrics();
      expect(clean).toMatchObject({ ok: 1, violations: 0 });
      expect(clean.at).toBeGreaterThan(before.at);
      expect(clean.at).toBeLessThanOrEqual(Date.now() / 1000);

      const [{ account_id }] = (await db.query(`SELECT account_id FROM accounts.ledger_accounts LIMIT 1`)).rows;
      await db.query(`UPDATE accounts.ledger_accounts SET total = total + 7 WHERE account_id = $1`, [account_id]);
      expect(admin('ledger:check').status).toBe(1);
      expect(await metrics()).toMatchObject({ ok: 0, violations: 2 }); // BALANCE_MISMATCH and FOLD_MISMATCH

      await db.query(`UPDATE accounts.ledger_accounts SET total = total - 7 WHERE account_id = $1`, [account_id]);
      expect(admin('ledger:check').status).toBe(0);
      expect(await metrics()).toMatchObject({ ok: 1, violations: 0 });
    } finally {
      await db.end();
      await running.stop();
    }
  });

  it('events:reconcile finds committed events that never reached the bus and publishes each once', async () => {
    const { Client } = await import('pg');
    const db = new Client({ connectionString: database.url });
    await db.connect();
    try {
      // What a position-only relay left behind: committed identity events with no message on the topic (the latest
      // three that had been published: internal ones, such as an operator's creation, never are).
      const lost = (
        await db.query(`DELETE FROM bus.messages WHERE event_id IN (SELECT e.event_id::text FROM identity.events e JOIN bus.messages m ON m.event_id = e.event_id::text ORDER BY e.global_position DESC LIMIT 3) RETURNING event_id`)
      ).rows.map((r) => r.event_id);
      expect(lost).toHaveLength(3);
      const identityOf = (run: ReturnType<typeof admin>) => JSON.parse(run.stdout).services.find((s: { service: string }) => s.service === 'identity');
      const dry = admin('events:reconcile', '--dry-run');
      expect(dry.status).toBe(0);
      expect(identityOf(dry)).toMatchObject({ missing: 3, republished: 0 });
      expect(identityOf(dry).sample.map((e: { eventId: string }) => e.eventId).sort()).toEqual([...lost].sort());

      const fixed = admin('events:reconcile');
      expect(identityOf(fixed)).toMatchObject({ missing: 3, republished: 3 });
      const onBus = (await db.query(`SELECT event_id FROM bus.messages WHERE event_id = ANY($1)`, [lost])).rows;
      expect(onBus).toHaveLength(3);
      expect(identityOf(admin('events:reconcile', '--dry-run'))).toMatchObject({ missing: 0 });
    } finally {
      await db.end();
    }
  });

  it('bus:dead-letters lists what a consumer parked; bus:replay-dead-letters delivers it again, to the group that parked it', async () => {
    const bus = new PgLogEventBus(database.url, { pollIntervalMs: 50 });
    const topic = serviceTopic('replay-test');
    const group = 'test.replay-dead-letters';
    const envelope = (n: number) => ({ eventId: randomUUID(), type: 'ReplayTested.v1', streamId: 'Replay:1', streamVersion: n, globalPosition: String(n), occurredAt: new Date().toISOString(), platformId: null, data: { n }, metadata: {} });
    try {
      await bus.publish(topic, [envelope(1), envelope(2)]);
      // A consumer with a bug about one event: the first it reads is parked after its one attempt.
      let poison: string | undefined;
      const seen: string[] = [];
      const buggy = await bus.subscribe({
        group, topics: [topic], maxAttempts: 1,
        handler: async (e) => {
          poison ??= e.eventId;
          if (e.eventId === poison) throw new TypeError(`cannot read ${e.type}`);
          seen.push(e.eventId);
        },
      });
      await eventually(async () => (await bus.deadLetters(topic)).some((d) => d.source.group === group), { what: 'the parked message' });
      await buggy.stop();

      const listed = admin('bus:dead-letters', '--topic', topic);
      expect(listed.status).toBe(0);
      const letter = JSON.parse(listed.stdout).find((d: { group: string }) => d.group === group);
      expect(letter).toMatchObject({ eventId: poison, topic, group, attempts: 1, error: expect.stringContaining('TypeError: cannot read') });

      const dry = admin('bus:replay-dead-letters', '--topic', topic, '--group', group, '--dry-run');
      expect(JSON.parse(dry.stdout)).toMatchObject({ dryRun: true, replayed: [{ eventId: poison, group }], unreplayable: [] });
      expect(admin('bus:replay-dead-letters', '--topic', topic, '--id', 'no-such-event').status).toBe(1); // an id that is not parked is the operator's error

      // The fix is deployed: the group resumes after the parked message, and gets it once it is replayed.
      const fixed: string[] = [];
      const running = await bus.subscribe({ group, topics: [topic], handler: async (e) => void fixed.push(e.eventId) });
      try {
        const replay = admin('bus:replay-dead-letters', '--topic', topic, '--group', group);
        expect(replay.status).toBe(0);
        expect(JSON.parse(replay.stdout).replayed.map((d: { eventId: string }) => d.eventId)).toEqual([poison]);
        await eventually(async () => fixed.includes(poison!), { what: 'the replayed message handled' });
        expect(seen).not.toContain(poison);
      } finally {
        await running.stop();
      }
    } finally {
      await bus.close();
    }
  });

  it('refuses a missing name or an unknown command with usage on stderr and exit code 2', () => {
    for (const args of [['platform:create'], ['platform:delete', '--name', 'x'], []]) {
      const run = admin(...args);
      expect(run.status).toBe(2);
      expect(run.stderr).toContain('usage: npm run admin');
    }
  });
});

/** rails:import as built: a file no configured connector reads is refused with the reason, exit 1, nothing recorded. */
describe('npm run admin -- rails:import', () => {
  let database: TestDatabase;
  let dataDir: string;
  beforeAll(async () => {
    if (!existsSync(ADMIN)) throw new Error(`${ADMIN} is missing: run npm run build (npm test does it first)`);
    database = await createTestDatabase();
    dataDir = mkdtempSync(join(tmpdir(), 'pp-admin-rails-'));
    writeFileSync(join(dataDir, 'notes.txt'), 'not a bank file\n');
  });
  afterAll(async () => {
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const admin = (env: Record<string, string>, ...args: string[]) =>
    spawnSync(process.execPath, [ADMIN, ...args], {
      env: { ...process.env, DATABASE_URL: database.url, DATA_DIR: dataDir, KAFKA_BROKERS: '', LOG_LEVEL: 'silent', RAILS_CONFIG: '', RAILS_CONFIG_FILE: '', ...env },
      encoding: 'utf8',
      timeout: 60_000,
    });
  const importedFiles = async () => {
    const { Client } = await import('pg');
    const client = new Client({ connectionString: database.url });
    await client.connect();
    try {
      return (await client.query(`SELECT count(*)::int AS n FROM payments.rail_files`)).rows[0].n as number;
    } finally {
      await client.end();
    }
  };

  it('needs FILE, and says so', () => {
    const run = admin({}, 'rails:import');
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('rails:import needs FILE');
  });

  /** One NACHA connector, as the platform would be given it in RAILS_CONFIG (or the file RAILS_CONFIG_FILE names). */
  const rails = () =>
    JSON.stringify({
      connectors: [
        {
          id: 'ach',
          kind: 'NACHA',
          routes: [{ currency: 'USD', paymentRail: 'ACH', directions: ['PAYOUT'] }],
          outboxDirectory: join(dataDir, 'ach-out'),
          inboxDirectory: join(dataDir, 'ach-in'),
          batchIntervalSeconds: 60,
          nacha: { immediateDestination: '091000019', immediateDestinationName: 'SPONSOR BANK', immediateOrigin: '021000021', immediateOriginName: 'PAYMENTS PLATFORM', companyName: 'PAYMENTS PLAT', companyIdentification: '1234567890', originatingDfi: ODFI },
        },
      ],
    });

  it('without a rails configuration says exactly what is missing (exit 1), whatever the file', () => {
    const file = join(dataDir, 'return.ach');
    writeFileSync(file, nachaReturnFile([{ originalTrace: `${ODFI}9999999`, code: 'R03', amount: 777, routingNumber: '021000021', accountNumber: '999', name: 'NOBODY' }], ODFI));
    const run = admin({}, 'rails:import', file);
    expect({ status: run.status, stdout: run.stdout }).toEqual({ status: 1, stdout: '' });
    expect(run.stderr).toContain('rails:import: no rail connectors are configured: set RAILS_CONFIG_FILE or RAILS_CONFIG as the platform has it');
  });

  it('with the platform’s rails configuration refuses a file no connector reads and a connector that is not configured, and imports a valid return once', async () => {
    const env = { RAILS_CONFIG: rails() };
    const notes = join(dataDir, 'notes.txt');
    const unread = admin(env, 'rails:import', notes);
    expect({ status: unread.status, stdout: unread.stdout }).toEqual({ status: 1, stdout: '' });
    expect(unread.stderr).toContain(`rails:import: ${notes} was not imported: file: not a NACHA return file, pain.002 or camt.054 that a configured connector reads`);
    const named = admin(env, 'rails:import', notes, '--connector', 'bank-ach');
    expect(named.status).toBe(1);
    expect(named.stderr).toContain('connectorId: no connector bank-ach is configured');
    const missing = admin(env, 'rails:import', join(dataDir, 'absent.ach'));
    expect(missing.status).toBe(1);
    expect(missing.stderr).toContain('cannot read');
    expect(await importedFiles()).toBe(0);

    // A return for a trace of no payment of ours: read, recorded, its entry an exception for an operator.
    const file = join(dataDir, 'return.ach');
    const configFile = join(dataDir, 'rails.json');
    writeFileSync(configFile, rails());
    const imported = admin({ RAILS_CONFIG_FILE: configFile }, 'rails:import', file);
    expect({ status: imported.status, stderr: imported.stderr }).toEqual({ status: 0, stderr: '' });
    expect(JSON.parse(imported.stdout)).toMatchObject({ duplicate: false, entries: 1, outcomes: 0, exceptions: 1 });
    const again = admin(env, 'rails:import', file);
    expect(again.status).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ duplicate: true });
    expect(await importedFiles()).toBe(1);
  });
});
