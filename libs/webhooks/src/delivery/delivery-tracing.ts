import { Attributes, inSpan, SpanKind, SpanStatusCode, traceCarrier, TraceCarrier } from '@payments/observability';
import type { AttemptResult } from './http-sender';

/**
 * One attempt as an HTTP CLIENT span (`POST webhook`), child of the active context: the worker runs each queued
 * delivery in the context stored with it (the consumer that queued it), the sandbox TEST in its RPC's. The request
 * carries the span as `traceparent`, so a platform that traces sees our trace. Only the endpoint's scheme, host and
 * port are recorded: webhook URLs often hold a secret in their path or query.
 */
export function inDeliverySpan(endpoint: string, webhook: { webhook_id: string; type: string }, post: (trace: TraceCarrier) => Promise<AttemptResult>): Promise<AttemptResult> {
  return inSpan('POST webhook', { kind: SpanKind.CLIENT, attributes: { ...endpointAttributes(endpoint), 'payments.webhook.id': webhook.webhook_id, 'payments.webhook.type': webhook.type } }, async (span) => {
    const result = await post(traceCarrier());
    if (result.status !== undefined) span.setAttribute('http.response.status_code', result.status);
    if (result.status === undefined || result.status >= 400) {
      span.setAttribute('error.type', result.status === undefined ? 'no_response' : String(result.status));
      span.setStatus({ code: SpanStatusCode.ERROR, message: result.error ?? `HTTP ${result.status}` });
    }
    return result;
  });
}

function endpointAttributes(endpoint: string): Attributes {
  const attributes: Attributes = { 'http.request.method': 'POST' };
  try {
    const url = new URL(endpoint);
    attributes['url.scheme'] = url.protocol.replace(/:$/, '');
    attributes['server.address'] = url.hostname;
    attributes['server.port'] = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  } catch {
    // an endpoint that does not parse fails in fetch and is recorded there
  }
  return attributes;
}
