/**
 * What the seeds in progress must undo when the runner is interrupted (SIGINT, SIGTERM): their platforms, PostgreSQL
 * servers, brokers and databases, which would otherwise outlive it (a platform keeps running, a `/tmp/pp-own-pg-*`
 * server keeps its port). Each seed registers its cleanup once it owns something and removes it when it ends.
 */
const cleanups = new Set<() => Promise<void>>();

export function onInterrupt(cleanup: () => Promise<void>): () => void {
  cleanups.add(cleanup);
  return () => void cleanups.delete(cleanup);
}

/** Runs every registered cleanup side by side; resolves when all have ended, whatever their outcome. */
export async function cleanUpInterrupted(): Promise<void> {
  await Promise.allSettled([...cleanups].map((cleanup) => cleanup()));
}
