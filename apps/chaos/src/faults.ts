import { Prng } from './prng';

/**
 * What happens at a kill point of the workload (issue #42). The embedded mode has one process to SIGKILL; the cluster
 * has a replica of each app to SIGKILL (the others keep serving, and the consumer groups rebalance when it leaves and
 * when it is back), and both can have the run's own PostgreSQL restarted with an immediate shutdown and the run's own
 * Kafka broker killed and restarted.
 */
export type Fault =
  | { kind: 'kill-platform' }
  | { kind: 'kill-replica'; app: string; index: number }
  | { kind: 'restart-postgres'; downMs: number }
  | { kind: 'restart-kafka'; downMs: number };

export interface FaultTargets {
  /** The cluster's apps (every one is killed in turn); unset: the one-process platform. */
  clusterApps?: readonly string[];
  /** The run has a PostgreSQL server of its own to restart. */
  postgres: boolean;
  /** The run has a Kafka broker of its own to restart. */
  kafka: boolean;
}

/**
 * `count` faults from the seed alone, so a seed replays them. In the cluster, a replica of every app is killed in
 * turn (the order and the replica drawn from the seed) before any app twice; PostgreSQL and Kafka restarts are mixed
 * in once each when the run can make them, and more often when there are faults to spare.
 */
export function planFaults(seed: number, count: number, targets: FaultTargets): Fault[] {
  const prng = new Prng(seed ^ 0x5f3759df);
  const downMs = () => prng.int(2_000, 6_000);
  const infrastructure: Fault[] = [];
  if (targets.postgres) infrastructure.push({ kind: 'restart-postgres', downMs: downMs() });
  if (targets.kafka) infrastructure.push({ kind: 'restart-kafka', downMs: downMs() });
  const kills: Fault[] = [];
  const apps = targets.clusterApps ? shuffled(prng, targets.clusterApps) : undefined;
  const faults: Fault[] = [];
  while (faults.length < count) {
    const spare = count - faults.length;
    // Infrastructure faults land among the kills, once each before repeating.
    if (infrastructure.length > 0 && (prng.chance(0.3) || spare <= infrastructure.length)) {
      faults.push(infrastructure.shift()!);
      continue;
    }
    if (apps) kills.push({ kind: 'kill-replica', app: apps[kills.length % apps.length], index: prng.int(0, 1) });
    else if (targets.postgres && prng.chance(0.2)) kills.push({ kind: 'restart-postgres', downMs: downMs() });
    else if (targets.kafka && prng.chance(0.2)) kills.push({ kind: 'restart-kafka', downMs: downMs() });
    else kills.push({ kind: 'kill-platform' });
    faults.push(kills[kills.length - 1]);
  }
  return faults;
}

export function describeFault(fault: Fault): string {
  switch (fault.kind) {
    case 'kill-platform':
      return 'SIGKILL platform';
    case 'kill-replica':
      return `SIGKILL ${fault.app}#${fault.index}`;
    case 'restart-postgres':
      return `PostgreSQL down ${fault.downMs} ms`;
    case 'restart-kafka':
      return `Kafka down ${fault.downMs} ms`;
  }
}

function shuffled<T>(prng: Prng, items: readonly T[]): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = prng.int(0, i);
    [copy[i], copy[j]] = [copy[j], copy[i]];
  }
  return copy;
}
