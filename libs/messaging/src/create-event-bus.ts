import type { BusLog } from './bus-log';
import type { EventBus } from './event-bus.port';
import { PgLogEventBus } from './embedded/pg-log-event-bus';
import { KafkaEventBus } from './kafka/kafka-event-bus';
import { namespacedEventBus } from './namespaced-event-bus';

export interface CreateEventBusOptions {
  /** KAFKA_BROKERS: a comma-separated string or a list. Unset or empty selects the embedded PostgreSQL-log bus. */
  kafkaBrokers?: string | readonly string[];
  /** DATABASE_URL: where the embedded bus keeps its log (unused with Kafka). */
  databaseUrl: string;
  clientId: string;
  /** BUS_NAMESPACE: prefix of every topic and consumer group (one Kafka cluster, several deployments). */
  namespace?: string;
  log?: BusLog;
}

/** Runtime mode of DESIGN §3: the same code on either adapter, chosen by configuration only. */
export function createEventBus(options: CreateEventBusOptions): EventBus {
  const brokers = brokerList(options.kafkaBrokers);
  const bus =
    brokers.length > 0
      ? new KafkaEventBus({ brokers, clientId: options.clientId, log: options.log })
      : new PgLogEventBus(options.databaseUrl, { applicationName: options.clientId, log: options.log });
  return namespacedEventBus(bus, options.namespace ?? '');
}

function brokerList(raw: CreateEventBusOptions['kafkaBrokers']): string[] {
  const list = typeof raw === 'string' ? raw.split(',') : [...(raw ?? [])];
  return list.map((b) => b.trim()).filter(Boolean);
}
