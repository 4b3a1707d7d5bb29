import { sleep } from './platform-process';

export const API_BASE_PATH = '/2025-10-13';

export interface Answer {
  status: number;
  body: any;
  replayed: boolean;
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

export interface RetryPolicy {
  /** Total time one operation may spend retrying: longer than a restart (about 30 s on Kafka) plus a key still held
   * for a killed request (the gateway's lease was 30 s before keys of dead gateway processes were freed at once). */
  budgetMs: number;
  attemptTimeoutMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { budgetMs: 150_000, attemptTimeoutMs: 30_000 };

/**
 * What a careful client retries with the same Idempotency-Key and body: no answer (the server may or may not have
 * acted), 409 IDEMPOTENCY_KEY_IN_USE (the first attempt still holds the key: try later), and 5xx (the gateway keeps
 * nothing for a 5xx, so a retry runs again). Everything else is final.
 */
export function retryable(attempt: Attempt): boolean {
  if (attempt.status === undefined) return true;
  if (attempt.status === 409) return attempt.code === 'IDEMPOTENCY_KEY_IN_USE';
  return attempt.status === 429 || attempt.status >= 500;
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
  async send(method: string, path: string, body?: unknown, idempotencyKey?: string): Promise<Answer> {
    const headers: Record<string, string> = { authorization: this.authorization };
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
      return { status: response.status, body: parsed, replayed: response.headers.get('idempotent-replayed') === 'true' };
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

  /** Same request, same key, until a final answer or the budget is spent. Backoff is fixed (no jitter): timing only. */
  async call(method: string, path: string, body: unknown, idempotencyKey: string | undefined, onRetry?: () => void): Promise<CallResult> {
    const attempts: Attempt[] = [];
    const deadline = Date.now() + this.policy.budgetMs;
    for (let n = 0; ; n++) {
      let attempt: Attempt;
      let answer: Answer | undefined;
      try {
        answer = await this.send(method, path, body, idempotencyKey);
        attempt = { status: answer.status, code: answer.body?.code, replayed: answer.replayed || undefined };
      } catch (error) {
        attempt = { error: describe(error) };
      }
      attempts.push(attempt);
      if (answer && answer.status < 300) return { outcome: 'acked', answer, attempts };
      if (!retryable(attempt)) return { outcome: 'rejected', answer, attempts };
      if (Date.now() > deadline) return { outcome: 'gave-up', answer, attempts };
      onRetry?.();
      await sleep(Math.min(1_000, 50 * 2 ** n));
    }
  }

  /** For setup and checks (no crash expected): retried the same way, but any non-2xx is an error. */
  async must(method: string, path: string, body?: unknown, idempotencyKey?: string): Promise<any> {
    const result = await this.call(method, path, body, idempotencyKey);
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
