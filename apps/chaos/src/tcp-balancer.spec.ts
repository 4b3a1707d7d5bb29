import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { AddressInfo, connect, createServer, Server, Socket } from 'node:net';
import { Controller, INestMicroservice, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { MicroserviceOptions, ServerTCP } from '@nestjs/microservices';
import { rawRpc } from '@payments/contracts';
import { authenticateRpcWith, Handles, ServiceClient } from '@payments/runtime';
import { TcpBalancer } from './tcp-balancer';

/** A TCP server that writes its name to every connection (which backend did the balancer pick?). */
async function namedServer(name: string): Promise<{ server: Server; port: number; sockets: Set<Socket> }> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.write(name);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return { server, port: (server.address() as AddressInfo).port, sockets };
}

/** The first bytes the balancer's connection delivers, or 'closed' when it ends without any. */
function greeting(port: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('data', (d) => (resolve(d.toString()), socket.destroy()));
    socket.once('close', () => resolve('closed'));
    socket.once('error', () => undefined);
  });
}

describe('TcpBalancer (a Service in front of replicas)', () => {
  const closing: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const c of closing.splice(0).reverse()) await c();
  });

  it('hands new connections to the replicas in turn, skips one marked down or refusing, and drops the connections of one marked down', async () => {
    const a = await namedServer('a');
    const b = await namedServer('b');
    closing.push(() => new Promise((r) => a.server.close(r)), () => new Promise((r) => b.server.close(r)));
    const balancer = await TcpBalancer.start([{ host: '127.0.0.1', port: a.port }, { host: '127.0.0.1', port: b.port }]);
    closing.push(() => balancer.close());
    expect([await greeting(balancer.port), await greeting(balancer.port), await greeting(balancer.port), await greeting(balancer.port)]).toEqual(['a', 'b', 'a', 'b']);

    const held = connect({ host: '127.0.0.1', port: balancer.port });
    const closed = new Promise<void>((r) => held.once('close', () => r()));
    held.on('error', () => undefined);
    await new Promise((r) => held.once('data', r));
    balancer.markDown(0);
    balancer.markDown(1);
    await closed; // it was on one of them; both are down now
    expect(await greeting(balancer.port)).toBe('closed'); // nothing up: refused, as a Service without endpoints
    balancer.markUp(1);
    expect([await greeting(balancer.port), await greeting(balancer.port)]).toEqual(['b', 'b']);

    balancer.markUp(0);
    await new Promise((r) => a.server.close(r)); // a replica that died before anyone marked it down
    for (const s of a.sockets) s.destroy();
    expect([await greeting(balancer.port), await greeting(balancer.port), await greeting(balancer.port)]).toEqual(['b', 'b', 'b']);
  });
});

const whoAmI = rawRpc<Record<string, never>, { replica: string }>('test.who-am-i');

/** One replica of a tiny RPC service (Nest TCP, as the apps' servers): it answers with its name. */
async function replica(name: string): Promise<{ app: INestMicroservice; port: number }> {
  @Controller()
  class WhoController {
    @Handles(whoAmI)
    who() {
      return { replica: name };
    }
  }
  @Module({ controllers: [WhoController] })
  class WhoModule {}
  const server = new ServerTCP({ host: '127.0.0.1', port: 0 });
  const app = await NestFactory.createMicroservice<MicroserviceOptions>(WhoModule, { strategy: server, logger: false });
  await app.listen();
  return { app, port: (server.unwrap<Server>().address() as AddressInfo).port };
}

describe('ServiceClient through a balancer, when the replica behind its connection dies', () => {
  it('answers from the other replica at the next call instead of failing on the dead connection', async () => {
    authenticateRpcWith(randomBytes(32)); // the client signs every packet; these servers do not check
    const one = await replica('one');
    const two = await replica('two');
    const balancer = await TcpBalancer.start([{ host: '127.0.0.1', port: one.port }, { host: '127.0.0.1', port: two.port }]);
    const client = new ServiceClient({ name: 'who', host: '127.0.0.1', port: balancer.port }, 2_000);
    try {
      const first = (await client.call(whoAmI, {})).replica;
      expect((await client.call(whoAmI, {})).replica).toBe(first); // one connection, kept
      const [dead, live] = first === 'one' ? [one, two] : [two, one];
      await dead.app.close(); // its process gone: the server and its connections closed
      balancer.markDown(first === 'one' ? 0 : 1);
      const liveName = first === 'one' ? 'two' : 'one';
      const answers: string[] = [];
      for (let i = 0; i < 3; i++) answers.push(await client.call(whoAmI, {}).then((a) => a.replica, (e: Error) => `failed: ${e.message}`));
      // A call sent before the dropped connection's close reached the client fails as one in flight would (503: the
      // caller retries); every call after it reconnects, through the balancer, to the live replica.
      expect(answers.slice(1)).toEqual([liveName, liveName]);
      expect([liveName, 'failed: the who service is unavailable']).toContain(answers[0]);
      await new Promise((r) => setTimeout(r, 100));
      expect((await client.call(whoAmI, {})).replica).toBe(liveName);
      await live.app.close();
    } finally {
      await client.close();
      await balancer.close();
      await one.app.close().catch(() => undefined);
      await two.app.close().catch(() => undefined);
    }
  });
});
