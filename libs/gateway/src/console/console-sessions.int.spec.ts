import type { DataSource } from 'typeorm';
import { openServiceDatabase } from '@payments/runtime';
import { createTestDatabase, TestDatabase } from '@payments/testing';
import { GATEWAY_SCHEMA, migrateGatewaySchema } from '../gateway.server';
import { ConsoleSessions } from './console-sessions';

/** Console sessions on a real PostgreSQL: both expiries, renewal by use, sign-out, purging, and a rotated key. */
describe('ConsoleSessions', () => {
  let database: TestDatabase;
  let db: DataSource;
  const key = Buffer.alloc(32, 1);
  const principal = { audience: 'platform' as const, platformId: 'Platform:p', mode: 'SANDBOX' as const, clientId: 'client-1' };
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

  beforeAll(async () => {
    database = await createTestDatabase('pp_console_sessions');
    db = await openServiceDatabase({ url: database.url, schema: GATEWAY_SCHEMA, poolSizeMax: 2 });
    await migrateGatewaySchema(db);
  });
  afterAll(async () => {
    await db?.destroy();
    await database?.drop();
  });

  it('finds a live session with its secret; an unused one ends after the idle limit, a used one lives on', async () => {
    const sessions = new ConsoleSessions(db, key, { idleMs: 600, absoluteMs: 60_000 });
    const idle = await sessions.create(principal, 's3cret');
    const used = await sessions.create(principal, 's3cret');
    expect(await sessions.find(idle.id)).toMatchObject({ principal, clientId: 'client-1', secret: 's3cret', csrfToken: idle.session.csrfToken });
    for (let i = 0; i < 4; i++) {
      await sleep(250);
      expect(await sessions.find(used.id)).toBeDefined(); // each use renews it
    }
    expect(await sessions.find(idle.id)).toBeUndefined(); // 1 s unused
    expect(await sessions.find(used.id)).toBeDefined();
  });

  it('ends a session at its absolute limit however much it is used', async () => {
    const sessions = new ConsoleSessions(db, key, { idleMs: 60_000, absoluteMs: 700 });
    const { id } = await sessions.create(principal, 's3cret');
    await sleep(400);
    expect(await sessions.find(id)).toBeDefined();
    await sleep(400);
    expect(await sessions.find(id)).toBeUndefined();
  });

  it('signs out, ignores ids that are no session, and purges what can no longer be used', async () => {
    const sessions = new ConsoleSessions(db, key, { idleMs: 200, absoluteMs: 60_000 });
    const { id } = await sessions.create(principal, 's3cret');
    await sessions.end(id);
    expect(await sessions.find(id)).toBeUndefined();
    for (const nobody of [undefined, '', 'x', 'y'.repeat(65)]) expect(await sessions.find(nobody)).toBeUndefined();
    await sessions.create(principal, 's3cret');
    await sleep(300);
    await sessions.purgeExpired();
    const [{ live }] = await db.query(`SELECT count(*)::int AS live FROM console_sessions WHERE last_seen_at > now() - interval '200 ms'`);
    const [{ all }] = await db.query(`SELECT count(*)::int AS "all" FROM console_sessions`);
    expect(all).toBe(live);
  });

  it('a session sealed under another server key is no session (the key was rotated): sign in again, no error', async () => {
    const before = new ConsoleSessions(db, key);
    const { id } = await before.create(principal, 's3cret');
    const after = new ConsoleSessions(db, Buffer.alloc(32, 2));
    expect(await after.find(id)).toBeUndefined();
    expect(await before.find(id)).toBeUndefined(); // and it was dropped
  });
});
