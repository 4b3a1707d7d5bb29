import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { DeliveryQueue } from '../delivery/delivery-queue';

/** The dispatcher's delivery metrics, in its own registry (the `app` label comes from createAppRegistry). */
export class WebhookMetrics {
  readonly attempts: Counter<'platform' | 'outcome'>;
  readonly failures: Counter<'platform'>;
  readonly latency: Histogram<'platform'>;

  constructor(registry: Registry, queue: DeliveryQueue) {
    this.attempts = new Counter({
      name: 'webhook_delivery_attempts_total',
      help: 'POSTs to platform endpoints, by platform and outcome (DELIVERED, REJECTED, ENDPOINT_GONE, RETRY).',
      labelNames: ['platform', 'outcome'],
      registers: [registry],
    });
    this.failures = new Counter({
      name: 'webhook_delivery_failures_total',
      help: 'Attempts that did not deliver (no answer, or an answer other than 2xx), by platform.',
      labelNames: ['platform'],
      registers: [registry],
    });
    this.latency = new Histogram({
      name: 'webhook_delivery_latency_seconds',
      help: 'From enqueue to the successful attempt, by platform.',
      labelNames: ['platform'],
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 15, 60, 300, 1800, 3600 * 6, 86400],
      registers: [registry],
    });
    new Gauge({
      name: 'webhook_queue_depth',
      help: 'Deliveries waiting for an attempt (due or backing off), by platform; read from the queue at scrape time.',
      labelNames: ['platform', 'mode'],
      registers: [registry],
      async collect() {
        const rows = await queue.depth().catch(() => undefined);
        if (!rows) return; // /readyz shows an unreachable database
        this.reset();
        for (const row of rows) this.set({ platform: row.platform_id, mode: row.mode }, row.n);
      },
    });
  }
}
