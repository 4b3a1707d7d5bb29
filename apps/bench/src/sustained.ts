import type { Client } from 'pg';
import { awaitDrain, Backlog, Drain, readBacklog } from './backlog';
import { heapPoint, HeapPoint } from './heap';
import type { LoadResult } from './load';

/** One sample a second of the sustained row; CPU and RSS are of this process, which runs the whole platform. */
export interface Sample {
  backlog: Backlog;
  cpuCores: number;
  rssMb: number;
  /** V8 heap used (not collected first: it saws between collections) and committed (what RSS follows). */
  heapUsedMb: number;
  heapTotalMb: number;
}

export interface Sustained {
  load: LoadResult;
  samples: Sample[];
  rssStartMb: number;
  rssEndMb: number;
  drain: Drain;
  /** Cores used over IDLE_MS with no load, before the row and after it drained: should not grow with history. */
  idleBefore: number;
  idleAfter: number;
  /** The live heap (after a full collection) before the load, half-way through it and once it drained. */
  heap: HeapPoint[];
}

const IDLE_MS = 5_000;
const mb = (bytes: number) => Math.round(bytes / 2 ** 20);
const rssMb = () => mb(process.memoryUsage.rss());
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Cores used by this process since `from` (process.cpuUsage counts every thread: user + system). */
function coresSince(from: { cpu: NodeJS.CpuUsage; at: number }): number {
  const { user, system } = process.cpuUsage(from.cpu);
  return (user + system) / 1000 / Math.max(1, performance.now() - from.at);
}

async function idleCpu(): Promise<number> {
  const from = { cpu: process.cpuUsage(), at: performance.now() };
  await sleep(IDLE_MS);
  return coresSince(from);
}

/** Runs `load` (the load generator's own process) while sampling every second, then waits for the drain and idles. */
export async function sustainedRun(db: Client, durationS: number, load: () => Promise<LoadResult>): Promise<Sustained> {
  const idleBefore = await idleCpu();
  const heap = [heapPoint('start')];
  const rssStartMb = rssMb();
  let done = false;
  const loading = load().finally(() => (done = true));
  const ended = loading.then(() => undefined, () => undefined);
  const samples: Sample[] = [];
  let from = { cpu: process.cpuUsage(), at: performance.now() };
  while (!done) {
    await Promise.race([sleep(1000 - (performance.now() - from.at)), ended]);
    if (done) break;
    const cpuCores = coresSince(from);
    from = { cpu: process.cpuUsage(), at: performance.now() };
    const { rss, heapUsed, heapTotal } = process.memoryUsage();
    samples.push({ backlog: await readBacklog(db), cpuCores, rssMb: mb(rss), heapUsedMb: mb(heapUsed), heapTotalMb: mb(heapTotal) });
    if (samples.length === Math.floor(durationS / 2)) {
      heap.push(heapPoint('mid'));
      from = { cpu: process.cpuUsage(), at: performance.now() }; // the collection's CPU is not the load's
    }
  }
  const result = await loading;
  const drain = await awaitDrain(db, performance.now());
  heap.push(heapPoint('end'));
  const idleAfter = await idleCpu();
  return { load: result, samples, rssStartMb, rssEndMb: rssMb(), drain, idleBefore, idleAfter, heap };
}
