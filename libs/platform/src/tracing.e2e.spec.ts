import { SpanKind } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace';
import { startTracing, Tracing } from '@payments/observability';
import { eventually, instrumentUnderJest, SpanRecorder } from '@payments/testing';
import { payer } from './test-payments';
import { startTestPlatform, TestPlatform } from './test-platform';
import { WebhookReceiver } from './test-webhook-receiver';

type Span = ReadableSpan;

/**
 * One transfer-out traced from the HTTP request to the webhook that reports it, through every hop the context has
 * to cross by hand: RPC (in-process here, as `npm start` runs it), the event store, the relay and the bus (whichever
 * the environment selects: Kafka under CI, else the PostgreSQL log), the dispatcher's queue, and durable timers.
 * Spans go to an in-memory recorder through the platform's own SDK bootstrap (startTracing).
 */
describe('tracing: one trace from the HTTP request to the webhook delivery', () => {
  const recorder = new SpanRecorder();
  const receiver = new WebhookReceiver();
  let tracer: Tracing;
  let t: TestPlatform;

  beforeAll(async () => {
    tracer = startTracing({ spanProcessors: [recorder] })!;
    instrumentUnderJest(tracer.instrumentations);
    await receiver.start();
    t = await startTestPlatform({ SANDBOX_TIME_SCALE: '0.001' });
  }, 60_000);
  afterAll(async () => {
    await t?.stop();
    await receiver.stop();
    await tracer?.shutdown();
  });

  const spans = () => recorder.getFinishedSpans();
  const byId = () => new Map(spans().map((s) => [s.spanContext().spanId, s]));
  /** The span's ancestors, nearest first, as far as they have ended (a parent ends after its children). */
  function ancestors(span: Span): Span[] {
    const index = byId();
    const chain: Span[] = [];
    for (let parent = index.get(span.parentSpanContext?.spanId ?? ''); parent; parent = index.get(parent.parentSpanContext?.spanId ?? '')) chain.push(parent);
    return chain;
  }
  const describeSpan = (s: Span) => `${SpanKind[s.kind]} ${s.name}`;

  it('links the gateway request, the RPCs, the ledger append, the publish, the consume and the webhook delivery', async () => {
    const call = (method: string, path: string, body?: unknown) => t.call(method, path, { body });
    expect((await call('PATCH', '/config', { webhookEndpoint: receiver.url('/traced') })).status).toBe(200);
    await eventually(() => Promise.resolve(receiver.at('/traced', 'TEST').length > 0), { what: 'TEST webhook' });
    const p = await payer(t, '789', 10_000);

    const res = await call('POST', '/transfer-out', { source: { accountId: p.internal }, destination: { accountId: p.external }, amount: 2_500 });
    expect(res.status).toBe(201);
    const hooks = () => receiver.at('/traced').filter((h) => h.json.type.startsWith('OUTGOING_PAYMENT.') && h.json.data?.id === res.body.id);
    const completed = await eventually(() => Promise.resolve(hooks().find((h) => h.json.type === 'OUTGOING_PAYMENT.COMPLETED')), { what: 'OUTGOING_PAYMENT.COMPLETED', timeoutMs: 30_000 });
    const [first] = hooks();
    // A delivery span ends once the worker has read the answer, a moment after the receiver recorded the request.
    const spanIdOf = (hook: typeof first) => hook.headers.traceparent?.split('-')[2];
    await eventually(() => Promise.resolve([first, completed].every((h) => byId().has(spanIdOf(h)))), { what: 'the delivery spans' });

    // The root: the gateway's HTTP server span for POST /transfer-out (instrumentation-http, named by the gateway after
    // the route template the router matched).
    const http = spans().find((s) => s.kind === SpanKind.SERVER && s.instrumentationScope.name === '@opentelemetry/instrumentation-http' && String(s.attributes['http.target'] ?? s.attributes['url.path']).endsWith('/transfer-out'));
    expect(http).toBeDefined();
    expect({ name: http!.name, route: http!.attributes['http.route'] }).toEqual({ name: 'POST /2025-10-13/transfer-out', route: '/2025-10-13/transfer-out' });
    const traceId = http!.spanContext().traceId;
    expect(http!.parentSpanContext).toBeUndefined();
    const inTrace = spans().filter((s) => s.spanContext().traceId === traceId);
    if (process.env.DUMP_TRACE) {
      const depth = (s: Span) => ancestors(s).length;
      process.stdout.write(inTrace.sort((a, b) => a.startTime[0] - b.startTime[0] || a.startTime[1] - b.startTime[1]).map((s) => `${'  '.repeat(depth(s))}${describeSpan(s)} ${JSON.stringify(s.attributes).slice(0, 150)}`).join('\n') + '\n');
    }

    // Every webhook of this transfer arrived with a traceparent of the request's trace, naming its delivery span.
    for (const hook of [first, completed]) {
      const [, hookTrace, hookSpan] = hook.headers.traceparent.split('-');
      expect(hookTrace).toBe(traceId);
      const delivery = inTrace.find((s) => s.spanContext().spanId === hookSpan)!;
      expect(hookSpan).toBe(spanIdOf(hook));
      expect(describeSpan(delivery)).toBe('CLIENT POST webhook');
      expect(delivery.attributes).toMatchObject({ 'payments.webhook.type': hook.json.type, 'payments.webhook.id': hook.json.id, 'http.response.status_code': 200 });
      // From the delivery back to the request, each hop a child of the one before.
      const chain = ancestors(delivery).map(describeSpan);
      const expected = [
        /^CONSUMER process .*payments\.payments\.events\.v1$/,
        /^PRODUCER publish .*payments\.payments\.events\.v1$/,
        /^INTERNAL append Transaction$/,
        /^SERVER payments\/.+/,
        /^CLIENT payments\/.+/,
      ];
      let at = 0;
      for (const pattern of expected) {
        const found = chain.findIndex((name, i) => i >= at && pattern.test(name));
        expect({ chain, missing: found < 0 ? pattern.source : undefined }).toEqual({ chain, missing: undefined });
        at = found + 1;
      }
      expect(chain.at(-1)).toBe(describeSpan(http!));
    }
    const consumer = ancestors(byId().get(spanIdOf(first))!)[0];
    expect(consumer.attributes).toMatchObject({ 'messaging.consumer.group.name': expect.stringMatching(/webhook-dispatcher\.deliveries$/), 'messaging.operation.type': 'process' });

    // payments → accounts: the hold on the ledger, its RPC client and server spans and the ledger append under them.
    const ledgerServer = inTrace.find((s) => s.kind === SpanKind.SERVER && s.name === 'accounts/accounts.ledger.hold.place' && ancestors(s).some((a) => a.kind === SpanKind.SERVER && a.name.startsWith('payments/')));
    expect(ledgerServer).toBeDefined();
    expect(describeSpan(ancestors(ledgerServer!)[0])).toBe(`CLIENT ${ledgerServer!.name}`);
    const ledgerAppend = inTrace.find((s) => s.name.startsWith('append ') && s.attributes['db.namespace'] === 'accounts' && ancestors(s).includes(ledgerServer!));
    expect(ledgerAppend).toBeDefined();
    // … and the SQL it ran (instrumentation-pg), under it.
    expect(inTrace.some((s) => s.attributes['db.system.name'] === 'postgresql' && s.name.startsWith('pg.query:INSERT') && ancestors(s).includes(ledgerAppend!))).toBe(true);

    // The later steps ran on durable timers, which kept the trace: the COMPLETED webhook's chain has a timer span.
    const completedDelivery = byId().get(spanIdOf(completed))!;
    expect(ancestors(completedDelivery).some((s) => s.name.startsWith('timer '))).toBe(true);
  }, 60_000);
});
