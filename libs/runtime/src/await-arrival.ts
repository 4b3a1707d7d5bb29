/** What a read answers: the value, a final miss (`null`: waiting cannot help), or `undefined` (not here yet). */
export type Arrival<T> = T | null | undefined;

/**
 * Waits, boundedly, for a row another service's event is still bringing (a customer created a moment ago, the
 * account opened from it): `read` is asked every `intervalMs` until it answers a value or a final `null`, or `waitMs`
 * have passed. Answers the value, or `undefined` for a miss.
 */
export async function awaitArrival<T>(read: () => Promise<Arrival<T>>, waitMs: number, intervalMs = 50): Promise<T | undefined> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const answer = await read();
    if (answer !== undefined) return answer ?? undefined;
    if (Date.now() >= deadline) return undefined;
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}
