import { planFaults } from './faults';

const APPS = ['accounts', 'agents', 'cards', 'gateway', 'identity', 'payments', 'quoting', 'wallet-auth', 'webhook-dispatcher'];

describe('planFaults', () => {
  it('kills a replica of every app of the cluster, and restarts PostgreSQL and Kafka once, in 11 faults', () => {
    for (const seed of [1, 2, 3, 42, 1000]) {
      const faults = planFaults(seed, 11, { clusterApps: APPS, postgres: true, kafka: true });
      expect(faults).toHaveLength(11);
      const killed = faults.flatMap((f) => (f.kind === 'kill-replica' ? [f.app] : []));
      expect([...killed].sort()).toEqual(APPS);
      expect(faults.filter((f) => f.kind === 'restart-postgres')).toHaveLength(1);
      expect(faults.filter((f) => f.kind === 'restart-kafka')).toHaveLength(1);
      expect(faults.every((f) => f.kind !== 'kill-platform')).toBe(true);
    }
  });

  it('is the same plan for the same seed, another for another', () => {
    const targets = { clusterApps: APPS, postgres: true, kafka: true };
    expect(planFaults(7, 11, targets)).toEqual(planFaults(7, 11, targets));
    expect(planFaults(7, 11, targets)).not.toEqual(planFaults(8, 11, targets));
  });

  it('in the embedded mode kills the one process, with a database or broker restart only where the run owns one', () => {
    expect(planFaults(5, 4, { postgres: false, kafka: false })).toEqual(Array(4).fill({ kind: 'kill-platform' }));
    const faults = planFaults(5, 6, { postgres: true, kafka: false });
    expect(faults.some((f) => f.kind === 'restart-postgres')).toBe(true);
    expect(faults.some((f) => f.kind === 'restart-kafka')).toBe(false);
  });
});
