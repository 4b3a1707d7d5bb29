import { collectDefaultMetrics, Metric, Registry } from 'prom-client';

let processMetrics: Registry | undefined;

/**
 * A Prometheus registry for one app, every series labelled `app`. `npm start` runs every app in one process, so
 * the global default registry would mix them; each app gets its own.
 *
 * The default process metrics (CPU, memory, event loop, GC) describe the process, not the app, and prom-client
 * starts an event-loop monitor and a GC observer each time it creates them. They are created once per process and
 * the same metric objects are registered in every app's registry (the `app` label is applied when serialized).
 */
export function createAppRegistry(app: string): Registry {
  const registry = new Registry();
  registry.setDefaultLabels({ app });
  // The typings call these plain MetricObjects, but at runtime they are the metric instances themselves.
  for (const metric of defaultProcessMetrics().getMetricsAsArray()) registry.registerMetric(metric as unknown as Metric);
  return registry;
}

function defaultProcessMetrics(): Registry {
  if (!processMetrics) {
    processMetrics = new Registry();
    collectDefaultMetrics({ register: processMetrics });
  }
  return processMetrics;
}
