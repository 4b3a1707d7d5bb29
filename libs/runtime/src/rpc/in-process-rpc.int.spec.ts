import 'reflect-metadata';
import type { Server } from 'node:net';
import { Controller, INestMicroservice, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { MicroserviceOptions } from '@nestjs/microservices';
import { ApiError, rawRpc } from '@payments/contracts';
import { Handles } from './handles';
import { InProcessCapableTcpServer } from './in-process-rpc';
import { randomBytes } from 'node:crypto';
import { authenticateRpcWith } from './rpc-auth';
import { RpcErrorFilter } from './rpc-error.filter';
import { ServiceClient } from './service-client';

interface Echo {
  at: Date;
  list: number[];
  missing?: string;
}
const echo = rawRpc<Echo, Echo & { mutatedByHandler: boolean }>('test.echo');
const fail = rawRpc<{ code: string }, never>('test.fail');
const crash = rawRpc<Record<string, never>, never>('test.crash');
const unhandled = rawRpc<Record<string, never>, unknown>('test.unhandled');
const hang = rawRpc<Record<string, never>, never>('test.hang');

@Controller()
class TestController {
  @Handles(echo)
  echo(payload: Echo) {
    payload.list.push(99); // must not reach the caller's object
    return { ...payload, mutatedByHandler: true, missing: undefined };
  }

  @Handles(fail)
  fail(payload: { code: string }): never {
    throw new ApiError('REFERENCE_NOT_FOUND', `no ${payload.code}`, { errors: [{ field: 'code', message: 'unknown' }] });
  }

  @Handles(crash)
  crash(): never {
    throw new Error('secret internals');
  }

  @Handles(hang)
  hang(): Promise<never> {
    return new Promise(() => undefined); // never answers
  }
}

@Module({ controllers: [TestController] })
class TestModule {}

describe('RPC to a service in the same process (in-process-rpc.ts)', () => {
  let app: INestMicroservice;
  let server: InProcessCapableTcpServer;
  let port: number;
  const clients: ServiceClient[] = [];
  const client = (name: string) => {
    const c = new ServiceClient({ name, host: '127.0.0.1', port }, 2_000);
    clients.push(c);
    return c;
  };
  const connections = () => new Promise<number>((resolve, reject) => server.unwrap<Server>().getConnections((e, n) => (e ? reject(e) : resolve(n))));

  beforeAll(async () => {
    authenticateRpcWith(randomBytes(32)); // the TCP clients and the server of this process share the RPC key
    server = new InProcessCapableTcpServer('svc', { host: '127.0.0.1', port: 0 });
    app = await NestFactory.createMicroservice<MicroserviceOptions>(TestModule, { strategy: server, logger: false });
    app.useGlobalFilters(new RpcErrorFilter());
    await app.listen();
    port = (server.unwrap<Server>().address() as { port: number }).port;
  });

  afterAll(async () => {
    for (const c of clients) await c.close();
    await app.close();
  });

  it('answers a client of the same service without opening a connection, as the wire would (JSON copies)', async () => {
    const payload: Echo = { at: new Date(0), list: [1] };
    const answer = await client('svc').call(echo, payload);
    expect(answer).toEqual({ at: '1970-01-01T00:00:00.000Z', list: [1, 99], mutatedByHandler: true });
    expect('missing' in answer).toBe(false);
    expect(payload.list).toEqual([1]); // the handler worked on a copy
    expect(await connections()).toBe(0);
  });

  it('gives the same answers over TCP to a client of another name on that port (a cluster pod of another service)', async () => {
    const viaTcp = client('other');
    const answer = await viaTcp.call(echo, { at: new Date(0), list: [1] });
    expect(answer).toEqual({ at: '1970-01-01T00:00:00.000Z', list: [1, 99], mutatedByHandler: true });
    expect(await connections()).toBe(1);
  });

  it.each(['svc', 'other'])('brings a service error back as the same ApiError (%s)', async (name) => {
    const error = await client(name).call(fail, { code: 'x' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).toEnvelope()).toEqual({ status: 404, code: 'REFERENCE_NOT_FOUND', message: 'no x', details: { errors: [{ field: 'code', message: 'unknown' }] } });
  });

  it.each(['svc', 'other'])('answers an unexpected failure as INTERNAL_ERROR without internals (%s)', async (name) => {
    const error = (await client(name).call(crash, {}).catch((e: unknown) => e)) as ApiError;
    expect(error.toEnvelope()).toEqual({ status: 500, code: 'INTERNAL_ERROR', message: 'an unexpected error occurred' });
  });

  it.each(['svc', 'other'])('is SERVICE_UNAVAILABLE for a pattern the service does not handle (%s)', async (name) => {
    const error = (await client(name).call(unhandled, {}).catch((e: unknown) => e)) as ApiError;
    expect(error.code).toBe('SERVICE_UNAVAILABLE');
  });

  it.each(['svc', 'other'])('is SERVICE_UNAVAILABLE, recorded as a timeout, when the service does not answer within the deadline (%s)', async (name) => {
    const outcomes: string[] = [];
    const impatient = new ServiceClient({ name, host: '127.0.0.1', port }, 200, (sample) => outcomes.push(sample.outcome));
    clients.push(impatient);
    const started = Date.now();
    const error = (await impatient.call(hang, {}).catch((e: unknown) => e)) as ApiError;
    expect({ code: error.code, message: error.message, outcomes }).toEqual({ code: 'SERVICE_UNAVAILABLE', message: `the ${name} service did not answer within 200 ms`, outcomes: ['timeout'] });
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('stops answering in-process once the server is closed', async () => {
    const svc = client('svc');
    await app.close();
    const error = (await svc.call(echo, { at: new Date(0), list: [] }).catch((e: unknown) => e)) as ApiError;
    expect(error.code).toBe('SERVICE_UNAVAILABLE');
  });
});
