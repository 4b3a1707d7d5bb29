/** What one POST to a platform's endpoint produced. */
export interface AttemptResult {
  /** Absent when no response came (refused, timed out, reset). */
  status?: number;
  latencyMs: number;
  /** The first 1 KB of the response body. */
  excerpt: string;
  error?: string;
}

export const RESPONSE_EXCERPT_BYTES_MAX = 1024;

/**
 * POSTs one signed body with a deadline that covers connecting, the answer and reading the excerpt. Redirects are
 * not followed (a 3xx is an answer to retry, never a reason to sign a request to another host).
 */
export async function postWebhook(url: string, headers: Record<string, string>, body: string, timeoutMs: number): Promise<AttemptResult> {
  const started = performance.now();
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    const response = await fetch(url, { method: 'POST', headers, body, redirect: 'manual', signal });
    const excerpt = await readExcerpt(response);
    return { status: response.status, latencyMs: Math.round(performance.now() - started), excerpt };
  } catch (error) {
    const reason = signal.aborted ? `timed out after ${timeoutMs} ms` : describe(error);
    return { latencyMs: Math.round(performance.now() - started), excerpt: '', error: reason };
  }
}

async function readExcerpt(response: Response): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < RESPONSE_EXCERPT_BYTES_MAX) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
    }
  } finally {
    await reader.cancel().catch(() => undefined); // the rest of a large body is never downloaded
  }
  return Buffer.concat(chunks).subarray(0, RESPONSE_EXCERPT_BYTES_MAX).toString('utf8');
}

function describe(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } })?.cause;
  return (cause?.code ?? cause?.message ?? (error as Error)?.message ?? String(error)).slice(0, 300);
}
