import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { scrapeRead } from '@payments/runtime';
import type { DeliveryQueue } from '../delivery/delivery-queue';

/** The dispatcher's delivery metrics, in its own registry (the `app` label comes from createAppRegistry). */
export class WebhookMetrics {
  readonly attempts: Counter<'platform' | 'outcome'>;
  readonly failures: Counter<'platform'>;
  readonly latency: Histogram<'platform'>;

  constructor(registry: Registry, queue: DeliveryQueue) {
    const registers = [registry];
    this.attempts = new Counter({
      name: 'payments_webhook_delivery_attempts_total',
      help: 'POSTs to platform endpoints, by platform and outcome (DELIVERED, REJECTED, ENDPOINT_GONE, RETRY).',
      labelNames: ['platform', 'outcome'],
      registers,
    });
    this.failures = new Counter({
      name: 'payments_webhook_delivery_failures_total',
      help: 'Attempts that did not deliver (no answer, or an answer other than 2xx), by platform.',
      labelNames: ['platform'],
      registers,
    });
    this.latency = new Histogram({
      name: 'payments_webhook_delivery_latency_seconds',
      help: 'From enqueue to the successful attempt, by platform.',
      labelNames: ['platform'],
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 15, 60, 300, 1800, 3600 * 6, 86400],
      registers,
    });
    const depth = scrapeRead(() => queue.depth());
    new Gauge({
      name: 'payments_webhook_queue_deliveries',
      help: 'Deliveries waiting for an attempt (due or backing off), by platform and mode; read from the queue at scrape time.',
      labelNames: ['platform', 'mode'],
      registers,
      async collect() {
        const rows = await depth();
        if (!rows) return; // /readyz shows an unreachable database
        this.reset();
        for (const row of rows) this.set({ platform: row.platform_id, mode: row.mode }, row.n);
      },
    });
    const deadLetters = scrapeRead(() => queue.deadLetterCounts());
    new Gauge({
      name: 'payments_webhook_dead_letter_deliveries',
      help: 'Webhooks given up on and kept for an operator (npm run admin -- webhooks:dead-letters), by platform, mode and reason.',
      labelNames: ['platform', 'mode', 'reason'],
      registers,
      async collect() {
        const rows = await deadLetters();
        if (!rows) return;
        this.reset();
        for (const row of rows) this.set({ platform: row.platform_id, mode: row.mode, reason: row.dead_reason }, row.n);
      },
    });
  }
}
