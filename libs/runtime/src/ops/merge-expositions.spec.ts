import { Counter, Histogram, Registry } from 'prom-client';
import { mergeExpositions } from './merge-expositions';

describe('mergeExpositions (every app registry on one ops port)', () => {
  const registryOf = (app: string, extra?: string) => {
    const registry = new Registry();
    registry.setDefaultLabels({ app });
    new Counter({ name: 'rpc_total', help: 'calls', labelNames: ['pattern'], registers: [registry] }).inc({ pattern: 'x.ping' });
    new Histogram({ name: 'rpc_seconds', help: 'time', buckets: [1], registers: [registry] }).observe(0.5);
    if (extra) new Counter({ name: extra, help: 'own', registers: [registry] }).inc(2);
    return registry;
  };

  it('keeps one HELP and TYPE per family and every app’s samples, families together', async () => {
    const merged = mergeExpositions([await registryOf('identity').metrics(), await registryOf('accounts', 'ledger_checks_total').metrics()]);
    expect(merged).toBe(
      [
        '# HELP rpc_total calls',
        '# TYPE rpc_total counter',
        'rpc_total{pattern="x.ping",app="identity"} 1',
        'rpc_total{pattern="x.ping",app="accounts"} 1',
        '',
        '# HELP rpc_seconds time',
        '# TYPE rpc_seconds histogram',
        'rpc_seconds_bucket{le="1",app="identity"} 1',
        'rpc_seconds_bucket{le="+Inf",app="identity"} 1',
        'rpc_seconds_sum{app="identity"} 0.5',
        'rpc_seconds_count{app="identity"} 1',
        'rpc_seconds_bucket{le="1",app="accounts"} 1',
        'rpc_seconds_bucket{le="+Inf",app="accounts"} 1',
        'rpc_seconds_sum{app="accounts"} 0.5',
        'rpc_seconds_count{app="accounts"} 1',
        '',
        '# HELP ledger_checks_total own',
        '# TYPE ledger_checks_total counter',
        'ledger_checks_total{app="accounts"} 2',
        '',
      ].join('\n'),
    );
  });

  it('is the exposition itself for one registry', async () => {
    const one = await registryOf('gateway').metrics();
    expect(mergeExpositions([one])).toBe(one);
  });
});
