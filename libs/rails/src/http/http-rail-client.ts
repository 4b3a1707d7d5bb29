import { RailPaymentOrder, RailPaymentStatus, RailProtocolError, readRailErrorBody, readRailPaymentOrder, readRailPaymentStatus } from './protocol';

/**
 * The HTTP call the client makes, shaped like the global `fetch` so either it (tests, tools) or the platform's
 * egress-checked one (`egressFetch` in @payments/runtime: private networks refused unless allowed) can be passed.
 */
export type RailFetch = (url: string, init: { method: 'GET' | 'POST'; headers: Record<string, string>; body?: string; signal: AbortSignal }) => Promise<Response>;

export interface HttpRailClientOptions {
  /** The bridge's base URL, e.g. https://bridge.example/v1 (paths are appended to it). */
  baseUrl: string;
  apiKey: string;
  /** Covers connecting, the answer and reading its body. */
  timeoutMs: number;
  fetch: RailFetch;
}

export type SubmitResult =
  /** The bridge holds the payment; `status` is applied like a callback (it may already be terminal, even REJECTED). */
  | { kind: 'accepted'; status: RailPaymentStatus }
  /** 400/422: the bridge refused the order itself and holds no payment; fail the payment with this reason. */
  | { kind: 'rejected'; reasonCode: string; reasonMessage: string }
  /**
   * 409: the bridge holds another order under this id. Never fail the payment on it (the bridge may execute the
   * order it holds; callbacks and `status(id)` report on that one): alert, someone has to look.
   */
  | { kind: 'conflict'; reason: string }
  /** No decision: timeouts, 5xx, 429, 401/403, anything unexpected. Retry with backoff, the same order and key. */
  | { kind: 'retry'; reason: string };

export type StatusResult = { kind: 'found'; status: RailPaymentStatus } | { kind: 'unknown' } | { kind: 'retry'; reason: string };

/** The reason code a 400/422 without a protocol error body is reported with. */
export const RAIL_REJECTED_WITHOUT_REASON = 'BRIDGE_REJECTED';
const MAX_BODY_CHARS = 64 * 1024;

type Answer = { ok: true; status: number; json: unknown; text: string } | { ok: false; reason: string };

/**
 * A client of the generic HTTP rail connector (docs/rails/http-connector.openapi.yaml). Never throws for anything the
 * bridge or the network does: every outcome is a result the caller's retry loop can act on. Answers are read
 * strictly; a malformed one is a `retry` naming the problem (a bridge mid-deploy must not fail a payment).
 * Throws only for our own mistakes: an order that does not follow the protocol (RailProtocolError).
 */
export class HttpRailClient {
  private readonly baseUrl: string;

  constructor(private readonly options: HttpRailClientOptions) {
    const url = new URL(options.baseUrl);
    if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error(`rail bridge URL must be http(s), not ${url.protocol}`);
    if (!options.apiKey) throw new Error('rail bridge apiKey is empty');
    if (!(options.timeoutMs > 0)) throw new Error('rail bridge timeoutMs must be positive');
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
  }

  /** POST /payments with `Idempotency-Key: order.id`; safe to repeat with the same order. */
  async submit(order: RailPaymentOrder): Promise<SubmitResult> {
    const checked = readRailPaymentOrder(order);
    const answer = await this.call('POST', '/payments', { 'content-type': 'application/json', 'idempotency-key': checked.id }, JSON.stringify(checked));
    if (!answer.ok) return { kind: 'retry', reason: answer.reason };
    const { status } = answer;
    if (status === 200 || status === 201 || status === 202) {
      const read = this.readStatus(answer.json, checked.id);
      return 'reason' in read ? { kind: 'retry', reason: `submit answered ${status}: ${read.reason}` } : { kind: 'accepted', status: read.status };
    }
    if (status === 400 || status === 422) {
      const error = readRailErrorBody(answer.json);
      return {
        kind: 'rejected',
        reasonCode: error?.reasonCode ?? RAIL_REJECTED_WITHOUT_REASON,
        reasonMessage: error?.reasonMessage ?? `the bridge answered ${status} without a reason: ${answer.text.slice(0, 200)}`,
      };
    }
    if (status === 409) {
      const error = readRailErrorBody(answer.json);
      return { kind: 'conflict', reason: `the bridge holds another order under id ${checked.id}${error ? `: ${error.reasonMessage}` : ''}` };
    }
    return { kind: 'retry', reason: this.retryReason('submit', status) };
  }

  /** GET /payments/{id}: the polling fallback when callbacks do not come. */
  async status(id: string): Promise<StatusResult> {
    const answer = await this.call('GET', `/payments/${encodeURIComponent(id)}`, {});
    if (!answer.ok) return { kind: 'retry', reason: answer.reason };
    if (answer.status === 200) {
      const read = this.readStatus(answer.json, id);
      return 'reason' in read ? { kind: 'retry', reason: `status answered 200: ${read.reason}` } : { kind: 'found', status: read.status };
    }
    if (answer.status === 404) return { kind: 'unknown' };
    return { kind: 'retry', reason: this.retryReason('status', answer.status) };
  }

  private readStatus(json: unknown, id: string): { status: RailPaymentStatus } | { reason: string } {
    if (json === undefined) return { reason: 'answer body is not JSON' };
    try {
      const status = readRailPaymentStatus(json);
      if (status.id !== id) return { reason: `answer is about payment ${status.id}, not ${id}` };
      return { status };
    } catch (error) {
      if (error instanceof RailProtocolError) return { reason: `malformed PaymentStatus: ${error.message}` };
      throw error;
    }
  }

  private retryReason(call: string, status: number): string {
    if (status === 401 || status === 403) return 'bridge refused our credentials';
    if (status === 429) return `${call} answered 429: the bridge asks us to slow down`;
    if (status >= 500) return `${call} answered ${status}: bridge-side failure`;
    return `${call} answered unexpected ${status}`;
  }

  private async call(method: 'GET' | 'POST', path: string, headers: Record<string, string>, body?: string): Promise<Answer> {
    const controller = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    // The timer also settles the race when a fetch ignores its signal (the egress client keeps its own timeout).
    const timedOut = new Promise<Answer>((resolve) => {
      timer = setTimeout(() => {
        controller.abort();
        resolve({ ok: false, reason: `no answer within ${this.options.timeoutMs} ms` });
      }, this.options.timeoutMs);
    });
    const exchange = (async (): Promise<Answer> => {
      const response = await this.options.fetch(`${this.baseUrl}${path}`, {
        method,
        headers: { ...headers, accept: 'application/json', authorization: `Bearer ${this.options.apiKey}` },
        body,
        signal: controller.signal,
      });
      const text = await response.text();
      if (text.length > MAX_BODY_CHARS) return { ok: false, reason: `answer body larger than ${MAX_BODY_CHARS} characters` };
      let json: unknown;
      try {
        json = text === '' ? undefined : JSON.parse(text);
      } catch {
        // A 2xx that is not JSON is caught by readStatus; an error page is fine to carry as text.
        json = undefined;
      }
      return { ok: true, status: response.status, json, text };
    })().catch((error: unknown): Answer => ({ ok: false, reason: `request failed: ${error instanceof Error ? error.message : String(error)}` }));
    try {
      return await Promise.race([exchange, timedOut]);
    } finally {
      clearTimeout(timer);
    }
  }
}
