import { join } from 'node:path';
import { setFlagsFromString, writeHeapSnapshot } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** The live heap at one point of the sustained row: what "memory flat" means, RSS being the allocator's business too. */
export interface HeapPoint {
  at: string;
  rssMb: number;
  /** V8 heap used after a full collection: the objects still reachable. */
  heapUsedMb: number;
  /** V8 heap committed after the collection (V8 gives pages back lazily). */
  heapTotalMb: number;
  /** Memory V8 objects hold outside the heap (Buffers, ArrayBuffers), after the same collection. */
  externalMb: number;
}

const mb = (bytes: number) => Math.round(bytes / 2 ** 20);

/** A full collection on demand, without `node --expose-gc` (the flag set at run time, `gc` taken from a new context). */
function collector(): () => void {
  const exposed = (globalThis as { gc?: () => void }).gc;
  if (exposed) return exposed;
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

let gc: (() => void) | undefined;

/**
 * Collects fully and reads the heap; with BENCH_HEAP_SNAPSHOTS=<dir> also writes `<dir>/<at>.heapsnapshot` (several
 * seconds with the event loop blocked: for finding what grows, not for the figures of a normal run).
 */
export function heapPoint(at: string): HeapPoint {
  gc ??= collector();
  gc();
  const dir = process.env.BENCH_HEAP_SNAPSHOTS;
  if (dir) writeHeapSnapshot(join(dir, `${at}.heapsnapshot`));
  const m = process.memoryUsage();
  return { at, rssMb: mb(m.rss), heapUsedMb: mb(m.heapUsed), heapTotalMb: mb(m.heapTotal), externalMb: mb(m.external) };
}
