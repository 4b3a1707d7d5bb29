import { createServer, Server } from 'node:http';
import { Writable } from 'node:stream';
import { SpanKind } from '@opentelemetry/api';
import { startTracing, Tracing } from '@payments/observability';
import { instrumentUnderJest, SpanRecorder } from '@payments/testing';
import { createLogger } from './logger';

/** pino's JSON lines, as an operator's log shipper would read them. */
function capture(): { stream: Writable; lines: () => Record<string, unknown>[] } {
  const chunks: string[] = [];
  const stream = new Writable({ write: (chunk, _encoding, done) => (chunks.push(String(chunk)), done()) });
  return { stream, lines: () => chunks.join('').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>) };
}

describe('log lines carry the trace of the request they were written in (createLogger mixin)', () => {
  const recorder = new SpanRecorder();
  const logs = capture();
  const logger = createLogger('trace-test', 'info', logs.stream);
  let tracing: Tracing;
  let server: Server;
  let url: string;

  beforeAll(async () => {
    tracing = startTracing({ spanProcessors: [recorder] })!;
    instrumentUnderJest(tracing.instrumentations); // the SDK's http instrumentation makes the request's SERVER span
    server = createServer((request, response) => {
      logger.info({ path: request.url }, 'handling a request');
      response.end('ok');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await tracing.shutdown();
  });

  it('has the trace_id and span_id of the HTTP server span, which continues the caller’s traceparent', async () => {
    const callerTrace = '4bf92f3577b34da6a3ce929d0e0e4736';
    await (await fetch(`${url}/pay`, { headers: { traceparent: `00-${callerTrace}-00f067aa0ba902b7-01` } })).text();
    const line = logs.lines().find((l) => l.path === '/pay')!;
    const serverSpan = recorder.getFinishedSpans().find((s) => s.kind === SpanKind.SERVER)!;
    expect(serverSpan.spanContext().traceId).toBe(callerTrace);
    expect(line).toMatchObject({ msg: 'handling a request', trace_id: callerTrace, span_id: serverSpan.spanContext().spanId, trace_flags: '01' });
  });

  it('has no trace fields outside a request', () => {
    logger.info('idle');
    const line = logs.lines().find((l) => l.msg === 'idle')!;
    expect(line).not.toHaveProperty('trace_id');
    expect(line).not.toHaveProperty('span_id');
  });
});
