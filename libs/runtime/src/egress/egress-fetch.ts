import { EgressClient } from './egress-client';

export interface EgressFetchOptions {
  /** What the calls are for, in a refusal's log line ("rail bridge"). */
  purpose: string;
  /** The egress client's own limit for each call; a caller's AbortSignal ends the wait earlier. */
  timeoutMs: number;
  /** Bytes of an answer kept; 1 MiB by default. */
  maxResponseBytes?: number;
}

type FetchInit = { method?: string; headers?: Record<string, string>; body?: string; signal?: AbortSignal };

/** Statuses whose Response may carry no body. */
const NULL_BODY = new Set([101, 204, 205, 304]);

/**
 * The egress client behind a fetch-shaped function, for clients written against `fetch` (the rail connector's
 * HttpRailClient): the same checks (private networks refused unless allowed, no redirects followed) with a standard
 * `Response`. GET and POST only, string bodies only; the answer's headers are not carried.
 */
export function egressFetch(client: EgressClient, options: EgressFetchOptions): (url: string, init?: FetchInit) => Promise<Response> {
  return async (url, init = {}) => {
    const method = (init.method ?? 'GET').toUpperCase();
    const request = { headers: init.headers ?? {}, timeoutMs: options.timeoutMs, maxResponseBytes: options.maxResponseBytes ?? 1024 * 1024, purpose: options.purpose };
    init.signal?.throwIfAborted();
    let sent: Promise<{ status: number; body: Buffer }>;
    if (method === 'POST') sent = client.post(url, { ...request, body: init.body ?? '' });
    else if (method === 'GET') sent = client.get(url, request);
    else throw new Error(`egressFetch sends GET and POST only, not ${method}`);
    const answer = await (init.signal ? abortable(sent, init.signal) : sent);
    if (answer.status < 200 || answer.status > 599) throw new Error(`answer with HTTP status ${answer.status}`);
    return new Response(NULL_BODY.has(answer.status) ? null : new Uint8Array(answer.body), { status: answer.status });
  };
}

/** Rejects when `signal` aborts; the egress call itself ends at its own timeout. */
function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason ?? new Error('aborted'));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
