/**
 * Waits `ms`, or less when `signal` aborts. Resolves in both cases (never rejects) and clears its timer, so a
 * stopped subscription leaves nothing pending for jest (or the process) to wait on.
 */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted || ms <= 0) return Promise.resolve();
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}
