import type { ReadableSpan } from '@opentelemetry/sdk-trace';
import { startTracing, Tracing } from '@payments/observability';
import { instrumentUnderJest, SpanRecorder } from '@payments/testing';
import { startTestPlatform, TestPlatform } from './test-platform';

/**
 * Paths that carry a credential (a card reveal link, a hosted KYC link, an agent device code) are traced like any
 * request, but no span keeps the credential: not its name, not http.target / url.path / http.url / url.full /
 * http.route, not an event. Spans go to an in-memory exporter through the platform's own SDK bootstrap.
 */
describe('tracing: token path segments never reach a span', () => {
  const recorder = new SpanRecorder();
  let tracer: Tracing;
  let t: TestPlatform;

  beforeAll(async () => {
    tracer = startTracing({ spanProcessors: [recorder] })!;
    instrumentUnderJest(tracer.instrumentations);
    t = await startTestPlatform();
  }, 60_000);
  afterAll(async () => {
    await t?.stop();
    await tracer?.shutdown();
  });

  const root = () => new URL(t.url).origin;
  const everything = (span: ReadableSpan) => JSON.stringify({ name: span.name, attributes: span.attributes, events: span.events.map((e) => ({ name: e.name, attributes: e.attributes })) });

  it.each([
    ['a card reveal link', '/card-reveal/RevealT0kenBody.RevealT0kenMac', ['RevealT0kenBody', 'RevealT0kenMac']],
    ['a card reveal link, spelled otherwise', '/CARD-REVEAL//Reveal2Token?x=1', ['Reveal2Token']],
    ['a hosted KYC link', '/kyc/KycLinkT0ken123', ['KycLinkT0ken123']],
    ['an agent device code (status)', '/2025-10-13/agents/device-codes/DEV1CECODE42/status', ['DEV1CECODE42']],
    ['an agent device code (redeem)', '/2025-10-13/agents/device-codes/DEV1CECODE43/redeem', ['DEV1CECODE43']],
  ])('%s', async (_what, path, secrets) => {
    recorder.reset();
    const method = path.endsWith('/redeem') ? 'POST' : 'GET';
    const res = await fetch(`${root()}${path}`, { method, ...(method === 'POST' ? { headers: { 'content-type': 'application/json' }, body: '{}' } : {}) });
    await res.text();
    const spans = recorder.getFinishedSpans();
    const server = spans.find((s) => s.instrumentationScope.name === '@opentelemetry/instrumentation-http' && s.kind === 1);
    expect(server).toBeDefined(); // the request was traced…
    expect(spans.map(everything).filter((text) => secrets.some((secret) => text.includes(secret)))).toEqual([]);
    // …and still says which kind of path it was.
    expect(JSON.stringify(server!.attributes)).toMatch(/(card-reveal|kyc|device-codes)\/+(\[redacted\]|:)/i);
  });
});
