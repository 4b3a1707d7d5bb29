import 'reflect-metadata';
import type { Server } from 'node:net';
import { Controller, INestMicroservice, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { MicroserviceOptions } from '@nestjs/microservices';
import { SpanKind, trace } from '@opentelemetry/api';
import { SpanRecorder } from '@payments/testing';
import { ApiError, rawRpc } from '@payments/contracts';
import { startTracing, Tracing } from '@payments/observability';
import { Handles } from './handles';
import { InProcessCapableTcpServer } from './in-process-rpc';
import { randomBytes } from 'node:crypto';
import { authenticateRpcWith } from './rpc-auth';
import { RpcErrorFilter } from './rpc-error.filter';
import { ServiceClient } from './service-client';

const whoAmI = rawRpc<Record<string, never>, { traceId?: string; spanId?: string }>('test.trace.who');
const refuse = rawRpc<Record<string, never>, never>('test.trace.refuse');
const crash = rawRpc<Record<string, never>, never>('test.trace.crash');

@Controller()
class TraceController {
  /** Answers the span its handler runs in, as the service sees it. */
  @Handles(whoAmI)
  who() {
    const ids = trace.getActiveSpan()?.spanContext();
    return { traceId: ids?.traceId, spanId: ids?.spanId };
  }

  @Handles(refuse)
  refuse(): never {
    throw new ApiError('REFERENCE_NOT_FOUND', 'no such thing');
  }

  @Handles(crash)
  crash(): never {
    throw new Error('boom');
  }
}

@Module({ controllers: [TraceController] })
class TraceModule {}

describe('RPC tracing: client and server spans, the caller context over TCP and in-process (rpc-tracing.ts)', () => {
  const recorder = new SpanRecorder();
  let tracing: Tracing;
  let app: INestMicroservice;
  let port: number;
  const clients: ServiceClient[] = [];
  const client = (name: string) => {
    const c = new ServiceClient({ name, host: '127.0.0.1', port }, 2_000);
    clients.push(c);
    return c;
  };

  beforeAll(async () => {
    authenticateRpcWith(randomBytes(32)); // the TCP clients and the server of this process share the RPC key
    tracing = startTracing({ spanProcessors: [recorder] })!;
    const server = new InProcessCapableTcpServer('svc', { host: '127.0.0.1', port: 0 });
    app = await NestFactory.createMicroservice<MicroserviceOptions>(TraceModule, { strategy: server, logger: false });
    app.useGlobalFilters(new RpcErrorFilter());
    await app.listen();
    port = (server.unwrap<Server>().address() as { port: number }).port;
  });
  afterAll(async () => {
    for (const c of clients) await c.close();
    await app.close();
    await tracing.shutdown();
  });
  beforeEach(() => recorder.reset());

  /** Calls inside a parent span, as a request handler would. */
  const inParent = <T>(work: () => Promise<T>) => trace.getTracer('test').startActiveSpan('caller', async (span) => Promise.resolve(work()).finally(() => span.end()));
  const finished = (kind: SpanKind, name: string) => recorder.getFinishedSpans().find((s) => s.kind === kind && s.name === name);

  // 'svc' answers in-process (same name and port in this process); 'other' is a client of another service name: TCP.
  it.each([
    ['svc', 'inproc'],
    ['other', 'tcp'],
  ])('%s: the handler runs in a SERVER span, child of the CLIENT span, child of the caller (%s)', async (name, transport) => {
    const answer = await inParent(() => client(name).call(whoAmI, {}));
    const caller = recorder.getFinishedSpans().find((s) => s.name === 'caller')!;
    const clientSpan = finished(SpanKind.CLIENT, `${name}/test.trace.who`)!;
    const serverSpan = finished(SpanKind.SERVER, `svc/test.trace.who`)!;
    expect(clientSpan.parentSpanContext?.spanId).toBe(caller.spanContext().spanId);
    expect(serverSpan.parentSpanContext?.spanId).toBe(clientSpan.spanContext().spanId);
    expect(answer).toEqual({ traceId: caller.spanContext().traceId, spanId: serverSpan.spanContext().spanId });
    expect(clientSpan.attributes).toMatchObject({ 'rpc.method': 'test.trace.who', 'network.transport': transport });
  });

  it.each(['svc', 'other'])('%s: a refusal is named on both spans but is not a failure; a crash is', async (name) => {
    await inParent(() => client(name).call(refuse, {}).catch(() => undefined));
    for (const kind of [SpanKind.CLIENT, SpanKind.SERVER]) {
      const span = recorder.getFinishedSpans().find((s) => s.kind === kind && s.name.endsWith('/test.trace.refuse'))!;
      expect({ kind, status: span.status.code, type: span.attributes['error.type'] }).toEqual({ kind, status: 0, type: 'REFERENCE_NOT_FOUND' });
    }
    await inParent(() => client(name).call(crash, {}).catch(() => undefined));
    for (const kind of [SpanKind.CLIENT, SpanKind.SERVER]) {
      const span = recorder.getFinishedSpans().find((s) => s.kind === kind && s.name.endsWith('/test.trace.crash'))!;
      expect({ kind, status: span.status.code, type: span.attributes['error.type'] }).toEqual({ kind, status: 2, type: 'INTERNAL_ERROR' });
    }
  });
});
