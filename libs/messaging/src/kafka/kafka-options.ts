import { CompressionTypes, ConsumerConfig, KafkaConfig, LogEntry, logLevel, Partitioners, ProducerConfig } from 'kafkajs';
import { BusLog, BusLogLevel, errorsOnlyLog } from '../bus-log';

export interface KafkaConsumerTuning {
  /** The broker evicts a member silent this long (broker bounds: group.min/max.session.timeout.ms). */
  sessionTimeoutMs: number;
  heartbeatIntervalMs: number;
  /** How long the coordinator waits for members to rejoin during a rebalance. */
  rebalanceTimeoutMs: number;
  /** Long-poll wait of a fetch with no data: bounds the latency of an idle consumer. */
  maxWaitTimeMs: number;
  /** How long subscribe() waits for the group join before returning anyway (it keeps joining in the background). */
  joinWaitMs: number;
}

export interface KafkaEventBusOptions {
  brokers: readonly string[];
  clientId: string;
  log?: BusLog;
  connectionTimeoutMs?: number;
  requestTimeoutMs?: number;
  /** Producer and admin retries; see producerConfig for why they are bounded. */
  retries?: number;
  /** How long a send waits for all in-sync replicas (acks=-1). */
  sendTimeoutMs?: number;
  /** Replication factor of topics created by ensureTopics; -1 = the broker's default.replication.factor. */
  replicationFactor?: number;
  /** Partitions of topics created by ensureTopics when the caller does not say. */
  partitionsDefault?: number;
  consumer?: Partial<KafkaConsumerTuning>;
}

export type ResolvedKafkaOptions = Required<Omit<KafkaEventBusOptions, 'consumer'>> & { consumer: KafkaConsumerTuning };

// `??` per field rather than spreading: an option passed as `undefined` must still get its default.
export function resolveKafkaOptions(o: KafkaEventBusOptions): ResolvedKafkaOptions {
  if (o.brokers.length === 0) throw new Error('KafkaEventBus needs at least one broker');
  const c = o.consumer ?? {};
  return {
    brokers: o.brokers,
    clientId: o.clientId,
    log: o.log ?? errorsOnlyLog,
    connectionTimeoutMs: o.connectionTimeoutMs ?? 3_000,
    requestTimeoutMs: o.requestTimeoutMs ?? 30_000,
    retries: o.retries ?? 10,
    sendTimeoutMs: o.sendTimeoutMs ?? 30_000,
    replicationFactor: o.replicationFactor ?? -1,
    partitionsDefault: o.partitionsDefault ?? 3,
    consumer: {
      sessionTimeoutMs: c.sessionTimeoutMs ?? 30_000,
      heartbeatIntervalMs: c.heartbeatIntervalMs ?? 3_000,
      rebalanceTimeoutMs: c.rebalanceTimeoutMs ?? 60_000,
      maxWaitTimeMs: c.maxWaitTimeMs ?? 1_000,
      joinWaitMs: c.joinWaitMs ?? 15_000,
    },
  };
}

/**
 * kafkajs logs every error response and refused connection at ERROR from these namespaces, even those it retries
 * (e.g. "coordinator is loading" on a fresh broker). What it finally gives up on rejects the caller's promise or
 * crashes the consumer (logged as an error by the subscription), so these are warnings here.
 */
const RETRIED_BY_KAFKAJS = new Set(['Connection', 'BrokerPool']);

function busLevelOf(entry: LogEntry): BusLogLevel {
  if (entry.level === logLevel.ERROR && !RETRIED_BY_KAFKAJS.has(entry.namespace)) return 'error';
  return entry.level <= logLevel.WARN ? 'warn' : 'debug';
}

export function kafkaClientConfig(o: ResolvedKafkaOptions): KafkaConfig {
  return {
    clientId: o.clientId,
    brokers: [...o.brokers],
    connectionTimeout: o.connectionTimeoutMs,
    requestTimeout: o.requestTimeoutMs,
    enforceRequestTimeout: true,
    retry: { retries: o.retries, initialRetryTime: 300, maxRetryTime: 30_000, multiplier: 2, factor: 0.2 },
    // kafkajs is chatty at INFO (every group join); warnings and errors go to the injected log.
    logLevel: logLevel.WARN,
    logCreator: () => (entry) => {
      const { message, timestamp: _timestamp, ...fields } = entry.log;
      o.log(busLevelOf(entry), `kafkajs ${entry.namespace}: ${message}`, fields);
    },
  };
}

/**
 * Idempotent producer with one request in flight: the broker de-duplicates retried batches and keeps the order
 * of sends per partition, which per-key order depends on. Retries are bounded (kafkajs warns, as the idempotence
 * guarantee only covers its internal retries): a publish that gives up fails loudly, the outbox relay publishes
 * again, and a resulting duplicate is absorbed by the consumers' inbox.
 */
export function producerConfig(o: ResolvedKafkaOptions): ProducerConfig {
  return {
    idempotent: true,
    maxInFlightRequests: 1,
    allowAutoTopicCreation: false,
    // murmur2 on the key, as Java clients do: a key maps to the same partition whoever produces it.
    createPartitioner: Partitioners.DefaultPartitioner,
    retry: { retries: o.retries, initialRetryTime: 300, maxRetryTime: 30_000, multiplier: 2, factor: 0.2 },
  };
}

export const SEND_DEFAULTS = { acks: -1, compression: CompressionTypes.None } as const;

export function consumerConfig(o: ResolvedKafkaOptions, groupId: string): ConsumerConfig {
  return {
    groupId,
    sessionTimeout: o.consumer.sessionTimeoutMs,
    heartbeatInterval: o.consumer.heartbeatIntervalMs,
    rebalanceTimeout: o.consumer.rebalanceTimeoutMs,
    maxWaitTimeInMs: o.consumer.maxWaitTimeMs,
    // Only committed records of transactional producers (read_committed), should one ever write these topics.
    readUncommitted: false,
    allowAutoTopicCreation: false,
    // A crash of the consumer loop (e.g. the DLQ is unreachable) restarts it from the committed offsets.
    retry: { retries: o.retries, initialRetryTime: 300, maxRetryTime: 30_000, restartOnFailure: async () => true },
  };
}
