import type { EgressClient } from '@payments/runtime';

/** What one POST to a platform's endpoint produced. */
export interface AttemptResult {
  /** Absent when no response came (refused, timed out, reset). */
  status?: number;
  latencyMs: number;
  /** The first 1 KB of the response body: kept in the attempt history for the operator, never shown to the tenant. */
  excerpt: string;
  /** Why no response came, for the operator (the tenant is only told that none came). */
  error?: string;
  /** When the body was stamped and sent (its `timestamp`): the attempt's `at`, so the body can be shown as sent. */
  sentAt?: Date;
}

export const RESPONSE_EXCERPT_BYTES_MAX = 1024;

/**
 * POSTs one signed body through the egress client (no private address unless the operator allows it, checked when
 * connecting), with a deadline that covers connecting, the answer and reading the excerpt. Redirects are not
 * followed (a 3xx is an answer to retry, never a reason to sign a request to another host).
 */
export async function postWebhook(egress: EgressClient, url: string, headers: Record<string, string>, body: string, timeoutMs: number): Promise<AttemptResult> {
  const started = performance.now();
  try {
    const response = await egress.post(url, { headers, body, timeoutMs, maxResponseBytes: RESPONSE_EXCERPT_BYTES_MAX, purpose: 'webhook delivery' });
    return { status: response.status, latencyMs: Math.round(performance.now() - started), excerpt: response.body.toString('utf8') };
  } catch (error) {
    return { latencyMs: Math.round(performance.now() - started), excerpt: '', error: describe(error) };
  }
}

function describe(error: unknown): string {
  const { code, message } = (error ?? {}) as { code?: string; message?: string };
  return (code ?? message ?? String(error)).slice(0, 300);
}
