import { randomBytes } from 'node:crypto';
import { connect, Socket } from 'node:net';
import { bootAccounts } from '@payments/accounts';
import { AccountsRpc, CallerContext } from '@payments/contracts';
import { createEventBus, EventBus } from '@payments/messaging';
import { authenticateRpcWith, loadConfig, rpcAuthOf, ServiceServer } from '@payments/runtime';
import { createTestDatabase, freePort, TestDatabase } from '@payments/testing';

/** One Nest TCP request/response exchange spoken by hand: `<length>#<json>` frames (JsonSocket), as any pod could. */
function rawRpc(port: number, packet: Record<string, unknown>): Promise<{ err?: { status: number; code: string }; response?: unknown }> {
  return new Promise((resolve, reject) => {
    const socket: Socket = connect(port, '127.0.0.1');
    let buffer = '';
    socket.setEncoding('utf8');
    socket.once('error', reject);
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      const hash = buffer.indexOf('#');
      if (hash < 0) return;
      const length = Number(buffer.slice(0, hash));
      if (buffer.length - hash - 1 < length) return;
      socket.destroy();
      resolve(JSON.parse(buffer.slice(hash + 1, hash + 1 + length)));
    });
    const json = JSON.stringify(packet);
    socket.write(`${json.length}#${json}`);
  });
}

/**
 * The accounts service as a cluster pod runs it (its own process, RPC over TCP), reached by a raw TCP client that
 * speaks the framing but does not hold SECRET_HASH_KEY: it cannot name a platform or a mode the service believes.
 */
describe('RPC caller authentication (a service RPC port reached by a pod without the key)', () => {
  const secretHashKey = randomBytes(32);
  let database: TestDatabase;
  let bus: EventBus;
  let server: ServiceServer;
  let port: number;
  const logged: string[] = [];
  const forged: CallerContext = { platformId: 'Platform:019a0000-0000-7000-8000-000000000000', mode: 'PRODUCTION', clientId: 'forged', permissions: ['VIEW', 'TRANSACT', 'MANAGE'] };
  const listing = { caller: forged, body: {} };
  let n = 0;
  const packet = (pattern: string, data: unknown) => ({ pattern, data, id: `test-${++n}` });

  beforeAll(async () => {
    database = await createTestDatabase();
    bus = createEventBus({ databaseUrl: database.url, clientId: 'rpc-auth-test', namespace: `${database.name}.` });
    port = await freePort();
    authenticateRpcWith(secretHashKey);
    const config = loadConfig({ DATABASE_URL: database.url, ACCOUNTS_RPC_PORT: String(port), ACCOUNTS_OPS_PORT: '0', LOG_LEVEL: 'silent' });
    server = (await bootAccounts(config, { databaseUrl: database.url, bus, log: (message) => logged.push(message), secretHashKey })).server;
  });
  afterAll(async () => {
    await server?.stop();
    await bus?.close();
    await database?.drop();
  });

  it('refuses a packet without a MAC before any handler runs, and logs it', async () => {
    const answer = await rawRpc(port, packet(AccountsRpc.listPlatformInternalAccounts.pattern, listing));
    expect(answer.response).toBeUndefined();
    expect(answer.err).toMatchObject({ status: 503, code: 'SERVICE_UNAVAILABLE' });
    expect(logged.join('\n')).toMatch(/accounts: refused an RPC .*accounts\.platform-internal-accounts\.list.*no MAC/);
  });

  it('refuses a MAC made under another key, for another pattern, for another payload, or too old', async () => {
    const good = packet(AccountsRpc.listPlatformInternalAccounts.pattern, listing);
    const now = Date.now();
    const otherKey = { ...good, auth: rpcAuthOf(randomBytes(32)).sign(good.pattern, good.data, now) };
    const otherPattern = { ...good, auth: rpcAuthOf(secretHashKey).sign(AccountsRpc.ping.pattern, good.data, now) };
    const otherPayload = { ...good, auth: rpcAuthOf(secretHashKey).sign(good.pattern, { caller: { ...forged, mode: 'SANDBOX' }, body: {} }, now) };
    const stale = { ...good, auth: rpcAuthOf(secretHashKey).sign(good.pattern, good.data, now - 10 * 60_000) };
    const garbage = { ...good, auth: { t: 'x', mac: 42 } };
    for (const attempt of [otherKey, otherPattern, otherPayload, stale, garbage]) {
      expect(await rawRpc(port, attempt)).toMatchObject({ err: { status: 503, code: 'SERVICE_UNAVAILABLE' } });
    }
  });

  it('answers the same packet with a valid MAC under the key derived from SECRET_HASH_KEY', async () => {
    const good = packet(AccountsRpc.listPlatformInternalAccounts.pattern, listing);
    const answer = await rawRpc(port, { ...good, auth: rpcAuthOf(secretHashKey).sign(good.pattern, good.data, Date.now()) });
    expect(answer.err).toBeUndefined();
    expect(answer.response).toBeDefined();
  });

  it('refuses an unauthenticated event packet (no id) as well: it never reaches an event handler', async () => {
    const before = logged.length;
    await new Promise<void>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => {
        const json = JSON.stringify({ pattern: AccountsRpc.ping.pattern, data: {} });
        socket.end(`${json.length}#${json}`, () => setTimeout(resolve, 200));
      });
    });
    expect(logged.slice(before).join('\n')).toMatch(/refused an RPC/);
  });
});
