import { randomUUID } from 'node:crypto';
import { sleep } from './platform-process';

export const API_BASE_PATH = '/2025-10-13';

export interface Answer {
  status: number;
  body: any;
  replayed: boolean;
  /** Retry-After in milliseconds (seconds or an HTTP date, RFC 9110), when the answer carries one. */
  retryAfterMs?: number;
}

/** One HTTP attempt as the client saw it: an answer, or no answer at all (refused, reset, timed out). */
export interface Attempt {
  status?: number;
  code?: string;
  error?: string;
  replayed?: boolean;
}

export interface CallResult {
  /** acked: 2xx; rejected: a final non-2xx; gave-up: the retry budget ran out without a final answer. */
  outcome: 'acked' | 'rejected' | 'gave-up';
  answer?: Answer;
  attempts: Attempt[];
}

export interface CallOptions {
  /** More request headers (Service-Wallet-Signature): sent on every attempt, as a client repeats its request. */
  headers?: Record<string, string>;
  /** Error codes the API documents as "retry shortly" for this operation (the card simulators' 409 CONFLICT). */
  retryCodes?: readonly string[];
  onRetry?: () => void;
}

export interface RetryPolicy {
  /** Total time one operation may spend retrying: longer than a restart (about 30 s on Kafka) plus a key still held
   * for a killed request (the gateway's lease was 30 s before keys of dead gateway processes were freed at once). */
  budgetMs: number;
  attemptTimeoutMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { budgetMs: 150_000, attemptTimeoutMs: 30_000 };

/**
 * What a careful client retries with the same Idempotency-Key and body: no answer (the server may or may not have
 * acted), 409 IDEMPOTENCY_KEY_IN_USE (the first attempt still holds the key: try later), 429 and 5xx (the gateway
 * keeps nothing for them, so a retry runs again), and the codes the operation documents as transient. Everything
 * else is final.
 */
export function retryable(attempt: Attempt, retryCodes: readonly string[] = []): boolean {
  if (attempt.status === undefined) return true;
  if (attempt.code !== undefined && retryCodes.includes(attempt.code)) return true;
  if (attempt.status === 409) return attempt.code === 'IDEMPOTENCY_KEY_IN_USE';
  return attempt.status === 429 || attempt.status >= 500;
}

/** Longest Retry-After honoured: a longer one (a misconfigured server) would spend the budget on one wait. */
const MAX_RETRY_AFTER_MS = 30_000;

/** Retry-After as RFC 9110 allows it: delay-seconds or an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (header === null || header.trim() === '') return undefined;
  const value = header.trim();
  const ms = /^\d+$/.test(value) ? Number(value) * 1_000 : Date.parse(value) - now;
  return Number.isFinite(ms) ? Math.min(MAX_RETRY_AFTER_MS, Math.max(0, ms)) : undefined;
}

/** The wait before attempt n+1: what the server asked for (429/503 Retry-After), else a capped exponential backoff. */
export function backoffMs(n: number, answer?: Answer): number {
  const asked = answer && (answer.status === 429 || answer.status === 503) ? answer.retryAfterMs : undefined;
  return asked ?? Math.min(1_000, 50 * 2 ** n);
}

export class ApiClient {
  /** Requests on the wire right now (not those sleeping between retries). */
  onWire = 0;
  private answerWaiters: (() => void)[] = [];

  constructor(
    private readonly origin: string,
    private readonly authorization: string,
    private readonly policy: RetryPolicy = DEFAULT_RETRY,
    /** The platform API's version prefix; `/operator/v1` for the operator API. */
    private readonly basePath = API_BASE_PATH,
  ) {}

  /** One attempt. Throws on a transport failure: the caller cannot know whether the server acted. */
  async send(method: string, path: string, body?: unknown, idempotencyKey?: string, extraHeaders: Record<string, string> = {}): Promise<Answer> {
    // An empty authorization sends none (the agents' device-code redemption: the code is the credential).
    const headers: Record<string, string> = { ...extraHeaders, ...(this.authorization ? { authorization: this.authorization } : {}) };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (idempotencyKey) headers['idempotency-key'] = idempotencyKey;
    this.onWire++;
    try {
      const response = await fetch(`${this.origin}${this.basePath}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(this.policy.attemptTimeoutMs),
      });
      // The status line arrived: the server finished some request just now (the body may still be on its way).
      for (const wake of this.answerWaiters.splice(0)) wake();
      const text = await response.text();
      let parsed: unknown = text;
      try {
        parsed = text ? JSON.parse(text) : undefined;
      } catch {
        // not JSON: kept as text for the report
      }
      return { status: response.status, body: parsed, replayed: response.headers.get('idempotent-replayed') === 'true', retryAfterMs: retryAfterMs(response.headers.get('retry-after')) };
    } finally {
      this.onWire--;
    }
  }

  /** Resolves when the next answer starts arriving (any request), or after `timeoutMs`. */
  nextAnswer(timeoutMs: number): Promise<void> {
    return new Promise((done) => {
      const timer = setTimeout(done, timeoutMs);
      this.answerWaiters.push(() => (clearTimeout(timer), done()));
    });
  }

  /**
   * Same request, same key, until a final answer or the budget is spent. Waits what a 429 or 503 asks (Retry-After),
   * else a fixed backoff (no jitter: timing only).
   */
  async call(method: string, path: string, body: unknown, idempotencyKey: string | undefined, options: CallOptions = {}): Promise<CallResult> {
    const attempts: Attempt[] = [];
    const deadline = Date.now() + this.policy.budgetMs;
    for (let n = 0; ; n++) {
      let attempt: Attempt;
      let answer: Answer | undefined;
      try {
        answer = await this.send(method, path, body, idempotencyKey, options.headers);
        attempt = { status: answer.status, code: answer.body?.code, replayed: answer.replayed || undefined };
      } catch (error) {
        attempt = { error: describe(error) };
      }
      attempts.push(attempt);
      if (answer && answer.status < 300) return { outcome: 'acked', answer, attempts };
      if (!retryable(attempt, options.retryCodes)) return { outcome: 'rejected', answer, attempts };
      const wait = backoffMs(n, answer);
      if (Date.now() + wait > deadline) return { outcome: 'gave-up', answer, attempts };
      options.onRetry?.();
      await sleep(wait);
    }
  }

  /**
   * For setup and checks: retried the same way, but any non-2xx is an error. A write without a given key gets one of
   * its own for all its attempts: a 503 (a service past the gateway's RPC deadline) may follow a command that was
   * carried out, and retrying it without a key would do it twice.
   */
  async must(method: string, path: string, body?: unknown, idempotencyKey?: string, options: CallOptions = {}): Promise<any> {
    const key = idempotencyKey ?? (method === 'GET' ? undefined : `chaos-${randomUUID()}`);
    const result = await this.call(method, path, body, key, options);
    if (result.outcome !== 'acked') {
      throw new Error(`${method} ${path}: ${result.outcome} ${JSON.stringify(result.answer?.body ?? result.attempts[result.attempts.length - 1])}`);
    }
    return result.answer!.body;
  }
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? error.name;
}

export function basicAuth(clientId: string, secret: string): string {
  return `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}`;
}
