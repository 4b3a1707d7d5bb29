/** How long one scrape-time read may take before the scrape answers without it. */
export const SCRAPE_READ_TIMEOUT_MS = 1_000;

/**
 * A read a metric makes when Prometheus scrapes, made safe for the scrape: overlapping scrapes share the read in
 * flight (a slow database never piles up queries, and a counter fed by the read never adds the same rows twice),
 * and a read that fails or takes longer than `timeoutMs` yields undefined, so the scrape answers at once and the
 * metric keeps its previous value. /readyz is where an unreachable dependency shows.
 */
export function scrapeRead<T>(read: () => Promise<T>, timeoutMs = SCRAPE_READ_TIMEOUT_MS): () => Promise<T | undefined> {
  let inFlight: Promise<T> | undefined;
  return async () => {
    const current = (inFlight ??= read().finally(() => (inFlight = undefined)));
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<undefined>((resolve) => {
      timer = setTimeout(() => resolve(undefined), timeoutMs);
    });
    try {
      return await Promise.race([current.catch(() => undefined), deadline]);
    } finally {
      clearTimeout(timer);
    }
  };
}
