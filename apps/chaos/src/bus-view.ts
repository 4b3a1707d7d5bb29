import { Admin, Kafka, logLevel } from 'kafkajs';
import type { Sql } from './sql';

/**
 * What the checks need from the bus, read independently of the platform's own adapters (a checker should not trust
 * the code it checks): the event ids a topic holds, how far a consumer group is behind, and dead letters.
 */
export interface BusView {
  /** Event ids of every message the topic holds (duplicates collapse). */
  eventIds(topic: string): Promise<Set<string>>;
  /** Messages of `topic` the group has not consumed yet (the whole topic when it never started). */
  lag(group: string, topic: string): Promise<number>;
  /** How many messages the topic holds (0 when it does not exist). */
  size(topic: string): Promise<number>;
  /** The consumer groups of the namespace and the topics each has a position on. */
  groups(namespace: string): Promise<{ group: string; topic: string }[]>;
  close(): Promise<void>;
}

/** The PostgreSQL-log bus: table bus.messages, positions (transaction_id, position) per group and topic. */
export function pgBusView(db: Sql): BusView {
  // Revisions before the (transaction_id, position) cursor stored a position only: still readable, for bisecting.
  let cursorColumns: Promise<boolean> | undefined;
  const hasCursor = () =>
    (cursorColumns ??= db
      .query(`SELECT 1 FROM information_schema.columns WHERE table_schema = 'bus' AND table_name = 'consumer_positions' AND column_name = 'transaction_id'`)
      .then((r) => (r.rowCount ?? 0) > 0));
  return {
    async eventIds(topic) {
      const { rows } = await db.query<{ event_id: string }>(`SELECT DISTINCT event_id FROM bus.messages WHERE topic = $1`, [topic]);
      return new Set(rows.map((r) => r.event_id));
    },
    async lag(group, topic) {
      // Consumers read in (transaction_id, position) order and store the cursor of the last message they handled.
      const after = (await hasCursor()) ? '(m.transaction_id, m.position) > (p.transaction_id, p.position)' : 'm.position > p.position';
      const { rows } = await db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM bus.messages m
           LEFT JOIN bus.consumer_positions p ON p.group_name = $1 AND p.topic = $2
          WHERE m.topic = $2 AND (p.group_name IS NULL OR ${after})`,
        [group, topic],
      );
      return rows[0].n;
    },
    async size(topic) {
      const { rows } = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM bus.messages WHERE topic = $1`, [topic]);
      return rows[0].n;
    },
    async groups(namespace) {
      const { rows } = await db.query<{ group_name: string; topic: string }>(`SELECT DISTINCT group_name, topic FROM bus.consumer_positions WHERE starts_with(group_name, $1)`, [namespace]);
      return rows.map((r) => ({ group: r.group_name, topic: r.topic }));
    },
    close: async () => undefined,
  };
}

/** Kafka: offsets from the admin API; topics read from the beginning by a throw-away consumer group. */
export async function kafkaBusView(brokers: string[], clientId: string): Promise<BusView> {
  const kafka = new Kafka({ clientId, brokers, logLevel: logLevel.NOTHING });
  const admin: Admin = kafka.admin();
  await admin.connect();
  const offsets = async (topic: string) => {
    const existing = await admin.listTopics();
    if (!existing.includes(topic)) return [];
    return (await admin.fetchTopicOffsets(topic)).map((p) => ({ partition: p.partition, low: BigInt(p.low), high: BigInt(p.high) }));
  };
  return {
    async eventIds(topic) {
      const ends = await offsets(topic);
      const pending = new Set(ends.filter((p) => p.high > p.low).map((p) => p.partition));
      const ids = new Set<string>();
      if (pending.size === 0) return ids;
      const highOf = new Map(ends.map((p) => [p.partition, p.high]));
      const groupId = `${clientId}.read.${Date.now()}.${Math.random().toString(36).slice(2)}`;
      const consumer = kafka.consumer({ groupId, allowAutoTopicCreation: false });
      try {
        await consumer.connect();
        await consumer.subscribe({ topics: [topic], fromBeginning: true });
        await new Promise<void>((resolve, reject) => {
          const timeout = setTimeout(() => reject(new Error(`reading ${topic} took more than 120 s`)), 120_000);
          consumer
            .run({
              eachMessage: async ({ partition, message }) => {
                const header = message.headers?.eventId;
                const eventId = Array.isArray(header) ? header[header.length - 1] : header;
                if (eventId) ids.add(eventId.toString());
                if (BigInt(message.offset) + 1n >= highOf.get(partition)!) pending.delete(partition);
                if (pending.size === 0) {
                  clearTimeout(timeout);
                  resolve();
                }
              },
            })
            .catch(reject);
        });
      } finally {
        await consumer.disconnect().catch(() => undefined);
        await admin.deleteGroups([groupId]).catch(() => undefined);
      }
      return ids;
    },
    async lag(group, topic) {
      const ends = await offsets(topic);
      if (ends.length === 0) return 0;
      const [committed] = await admin.fetchOffsets({ groupId: group, topics: [topic] });
      const at = new Map((committed?.partitions ?? []).map((p) => [p.partition, BigInt(p.offset)]));
      let lag = 0n;
      for (const p of ends) {
        const offset = at.get(p.partition) ?? -1n;
        lag += p.high - (offset < 0n ? p.low : offset); // -1: nothing committed yet, the whole partition is ahead
      }
      return Number(lag);
    },
    async size(topic) {
      return (await offsets(topic)).reduce((n, p) => n + Number(p.high - p.low), 0);
    },
    async groups(namespace) {
      const groups = (await admin.listGroups()).groups.map((g) => g.groupId).filter((g) => g.startsWith(namespace));
      const pairs: { group: string; topic: string }[] = [];
      for (const group of groups) for (const { topic } of await admin.fetchOffsets({ groupId: group })) pairs.push({ group, topic });
      return pairs;
    },
    close: () => admin.disconnect(),
  };
}

/** Removes a run's topics and consumer groups from a shared broker (best effort). */
export async function deleteKafkaNamespace(brokers: string[], namespace: string): Promise<void> {
  const admin = new Kafka({ clientId: 'chaos-cleanup', brokers, logLevel: logLevel.NOTHING }).admin();
  await admin.connect();
  try {
    const groups = (await admin.listGroups()).groups.map((g) => g.groupId).filter((g) => g.startsWith(namespace));
    if (groups.length > 0) await admin.deleteGroups(groups).catch(() => undefined);
    const topics = (await admin.listTopics()).filter((t) => t.startsWith(namespace));
    if (topics.length > 0) await admin.deleteTopics({ topics }).catch(() => undefined);
  } finally {
    await admin.disconnect();
  }
}
