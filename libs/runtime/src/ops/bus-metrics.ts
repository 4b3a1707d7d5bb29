import { Gauge, Registry } from 'prom-client';
import type { EventBus } from '@payments/messaging';
import { scrapeRead } from './scrape-read';

/**
 * Lag of the consumer groups an app runs (those named `<app>.<purpose>`, including per-instance cache groups), and
 * the dead letters of the topics they read, asked of the bus at scrape time. Series of subscriptions that stopped
 * disappear at the next successful read.
 */
export function registerConsumerLagMetrics(registry: Registry, bus: Pick<EventBus, 'consumerBacklog'>, app: string): void {
  const read = scrapeRead(() => bus.consumerBacklog(`${app}.`));
  const registers = [registry];
  const labelNames = ['group', 'topic'] as const;
  new Gauge({
    name: 'payments_bus_consumer_lag_events',
    help: 'Messages of the topic after the consumer group\'s committed position (embedded bus: counted up to 100000; Kafka: offset lag).',
    labelNames,
    registers,
    async collect() {
      const backlog = await read();
      if (!backlog) return;
      this.reset();
      for (const c of backlog.consumers) this.set({ group: c.group, topic: c.topic }, c.eventsBehind);
    },
  });
  new Gauge({
    name: 'payments_bus_consumer_lag_seconds',
    help: 'Age of the oldest message the consumer group has not committed (0 when caught up). Embedded PostgreSQL-log bus only.',
    labelNames,
    registers,
    async collect() {
      const backlog = await read();
      if (!backlog) return;
      this.reset();
      for (const c of backlog.consumers) if (c.oldestAgeSeconds !== undefined) this.set({ group: c.group, topic: c.topic }, c.oldestAgeSeconds);
    },
  });
  new Gauge({
    name: 'payments_bus_dlq_messages',
    help: 'Messages parked in <topic>.dlq after their handler failed every attempt, for each topic this app consumes.',
    labelNames: ['topic'],
    registers,
    async collect() {
      const backlog = await read();
      if (!backlog) return;
      this.reset();
      for (const d of backlog.deadLetters) this.set({ topic: d.topic }, d.messages);
    },
  });
}
