import 'reflect-metadata';
import { Controller, Module } from '@nestjs/common';
import { ApiError, rawRpc } from '@payments/contracts';
import { createEventBus, EventBus } from '@payments/messaging';
import { createTestDatabase, freePort, http, sampleOf, TestDatabase } from '@payments/testing';
import { randomBytes } from 'node:crypto';
import { Handles } from '../rpc/handles';
import { authenticateRpcWith } from '../rpc/rpc-auth';
import { ServiceClient } from '../rpc/service-client';
import { ServiceHost } from '../service-host';
import { ServiceServer, startServiceServer } from '../service-server';

const ok = rawRpc<Record<string, never>, { fine: boolean }>('rpcprobe.ok');
const refuse = rawRpc<Record<string, never>, never>('rpcprobe.refuse');
const crash = rawRpc<Record<string, never>, never>('rpcprobe.crash');

@Controller()
class ProbeController {
  @Handles(ok)
  ok() {
    return { fine: true };
  }

  @Handles(refuse)
  refuse(): never {
    throw new ApiError('REFERENCE_NOT_FOUND', 'no such thing');
  }

  @Handles(crash)
  crash(): never {
    throw new Error('internals');
  }
}

@Module({ controllers: [ProbeController] })
class ProbeModule {}

/** RED metrics of a service's RPC handlers as its /metrics shows them, for calls over TCP and in-process alike. */
describe('RPC server metrics (real TCP, real PostgreSQL)', () => {
  let database: TestDatabase;
  let bus: EventBus;
  let server: ServiceServer;
  let port: number;
  const clients: ServiceClient[] = [];

  beforeAll(async () => {
    authenticateRpcWith(randomBytes(32)); // the TCP clients and the server of this process share the RPC key
    database = await createTestDatabase();
    bus = createEventBus({ databaseUrl: database.url, clientId: 'rpc-metrics-test' });
    const host = await ServiceHost.open({ name: 'rpcprobe', databaseUrl: database.url, bus, topic: 'payments.rpcprobe.events.v1', migrations: [], entities: [], sandboxTimeScale: 1 });
    port = await freePort();
    server = await startServiceServer({ name: 'rpcprobe', module: { module: ProbeModule }, host, rpc: { host: '127.0.0.1', port }, ops: { host: '127.0.0.1', port: 0, bus } });
  });
  afterAll(async () => {
    for (const c of clients) await c.close();
    await server?.stop();
    await bus?.close();
    await database?.drop();
  });

  // A client named after the service finds it in this process; any other name goes over TCP.
  const client = (name: string) => {
    const c = new ServiceClient({ name, host: '127.0.0.1', port }, 2_000);
    clients.push(c);
    return c;
  };
  const scrape = async () => (await http<string>('GET', `http://127.0.0.1:${server.ops!.port}/metrics`)).body;
  const count = (text: string, pattern: string, statusClass: string) =>
    sampleOf(text, 'payments_rpc_server_duration_seconds_count', { service: 'rpcprobe', pattern, status_class: statusClass, app: 'rpcprobe' });

  it('counts calls per pattern by status class: success 2xx, a rule refusal 4xx, a crash 5xx', async () => {
    for (const c of [client('rpcprobe'), client('rpcprobe-over-tcp')]) {
      await expect(c.call(ok, {})).resolves.toEqual({ fine: true });
      await expect(c.call(refuse, {})).rejects.toMatchObject({ code: 'REFERENCE_NOT_FOUND' });
      await expect(c.call(crash, {})).rejects.toMatchObject({ code: 'INTERNAL_ERROR' });
    }
    const text = await scrape();
    expect(count(text, 'rpcprobe.ok', '2xx')).toBe(2);
    expect(count(text, 'rpcprobe.refuse', '4xx')).toBe(2);
    expect(count(text, 'rpcprobe.crash', '5xx')).toBe(2);
    expect(count(text, 'rpcprobe.ok', '5xx')).toBeUndefined();
    expect(sampleOf(text, 'payments_rpc_server_duration_seconds_bucket', { pattern: 'rpcprobe.ok', status_class: '2xx', le: '+Inf' })).toBe(2);
    expect(sampleOf(text, 'payments_rpc_server_duration_seconds_sum', { pattern: 'rpcprobe.ok', status_class: '2xx' })).toBeGreaterThan(0);
  });
});
