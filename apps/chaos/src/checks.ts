import type { Sql } from './sql';
import { EVENT_CATALOGUES } from '@payments/contracts';
import { OUTBOX_RELAY_CHECKPOINT } from '@payments/eventsourcing';
import { serviceTopic } from '@payments/messaging';
import type { BusView } from './bus-view';
import { runAdmin, sleep } from './platform-process';
import type { WebhookReceiver } from './receiver';
import type { World } from './setup';
import type { RailBank } from './rail-bank';
import { Clients, clientOf, OpRecord, Plan } from './workload';

export type CheckName = 'acked' | 'lost' | 'duplicated' | 'stuck' | 'replay' | 'ledger' | 'bus' | 'inbox' | 'groups' | 'webhooks' | 'quiescence' | 'rails' | 'exits';

export interface Violation {
  check: CheckName;
  message: string;
  /** The operation it is about, when it is about one (the summary counts operations, not messages). */
  op?: number;
}

/** Services whose `events` table (the outbox) is relayed to `payments.<service>.events.v1`: their public events only. */
export const RELAYED_SERVICES = ['identity', 'accounts', 'quoting', 'payments', 'cards', 'agents'] as const;

/** SQL condition on an events row `e`: the event belongs on its service's topic (declared public in its catalogue). */
const publicOnly = (service: (typeof RELAYED_SERVICES)[number]) => types(...EVENT_CATALOGUES[service].publicTypes);
const TIMER_SCHEMAS = ['identity', 'accounts', 'quoting', 'payments', 'webhooks', 'cards', 'agents', 'wallet_auth'];

/**
 * The durable consumer groups and, for those that handle an event exactly once by recording it in their inbox,
 * which events they must have recorded. Mirrors the consumers (keep in step when they change):
 * libs/accounts/src/internal-accounts/identity-events.consumer.ts, libs/quoting/src/platform-config/identity-events.consumer.ts,
 * libs/payments/src/customers/identity-events.consumer.ts, libs/payments/src/quote-execution/quote-execution.ts,
 * libs/quoting/src/quotes/payment-outcomes.consumer.ts, libs/payments/src/transactions/card-transactions.consumer.ts,
 * libs/webhooks/src/consumer/domain-events.consumer.ts.
 */
interface ConsumerSpec {
  group: string;
  sources: readonly string[];
  inboxSchema: string;
  /** SQL condition on the source's events row `e` for the events the consumer records; absent: not checkable (the
   * webhook consumer records only what it queues, which depends on endpoints; the webhooks check covers it). */
  records?: string;
}

function types(...names: string[]): string {
  return names.length === 0 ? 'false' : `e.type IN (${names.map((n) => `'${n}'`).join(', ')})`;
}
export const CONSUMERS: ConsumerSpec[] = [
  { group: 'accounts.identity-events', sources: ['identity'], inboxSchema: 'accounts', records: types('PlatformConfigInitialized.v1', 'PlatformConfigUpdated.v1', 'CustomerCreated.v1', 'CustomerDeleted.v1') },
  { group: 'quoting.identity-events', sources: ['identity'], inboxSchema: 'quoting', records: types('PlatformConfigInitialized.v1', 'PlatformConfigUpdated.v1', 'CustomerCreated.v1', 'CustomerUpdated.v1', 'CustomerDeleted.v1') },
  { group: 'payments.identity-events', sources: ['identity'], inboxSchema: 'payments', records: types('CustomerCreated.v1', 'CustomerUpdated.v1', 'CustomerDeleted.v1') },
  { group: 'payments.quote-executed', sources: ['quoting'], inboxSchema: 'payments', records: types('QuoteExecuted.v1') },
  {
    group: 'quoting.payment-outcomes',
    sources: ['payments'],
    inboxSchema: 'quoting',
    // Only outcomes of quote transactions (COMPLETED or FAILED) are handled; the rest is skipped before the inbox.
    records: `${types('TransactionStatusChanged.v1')} AND e.platform_id IS NOT NULL AND e.data->'transaction'->>'quoteId' IS NOT NULL AND e.data->'transaction'->>'status' IN ('COMPLETED', 'FAILED')`,
  },
  { group: 'payments.card-events', sources: ['cards'], inboxSchema: 'payments', records: types('CardTransactionUpdated.v1') },
  { group: 'webhook-dispatcher.deliveries', sources: RELAYED_SERVICES, inboxSchema: 'webhooks' },
];

export interface CheckContext {
  db: Sql;
  bus: BusView;
  busNamespace: string;
  world: World;
  plan: Plan;
  records: OpRecord[];
  clients: Clients;
  receiver: WebhookReceiver;
  bank: RailBank;
  outbox: string;
}

export const topicOf = (namespace: string, service: string) => `${namespace}${serviceTopic(service)}`;
export const count = async (db: Sql, sql: string, params: unknown[] = []) => (await db.query<{ n: number }>(sql, params)).rows[0].n;

/**
 * Sends every acknowledged request again with its key, as a client that lost the answer would: the answer must be
 * the first one (same status, same resource), replayed, never a second effect (the counts come after this).
 */
export async function replayAcknowledged(ctx: CheckContext): Promise<Violation[]> {
  const violations: Violation[] = [];
  const acked = ctx.records.filter((r) => r.result.outcome === 'acked');
  // Eight at a time, as the workload sent them: one after the other took a second or more of every seed.
  await Promise.all(Array.from({ length: REPLAY_CONCURRENCY }, async (_, lane) => {
    for (let i = lane; i < acked.length; i += REPLAY_CONCURRENCY) violations.push(...(await replayOne(ctx, acked[i])));
  }));
  return violations;
}

const REPLAY_CONCURRENCY = 8;

async function replayOne(ctx: CheckContext, record: OpRecord): Promise<Violation[]> {
  const first = record.result.answer!;
  const again = await clientOf(ctx.clients, record.op).call(record.method, record.path, record.body, record.op.key, { headers: record.headers });
  const answer = again.answer;
  const about = `op ${record.op.index} (${record.op.kind} ${record.op.key})`;
  if (!answer || answer.status !== first.status || identityOf(answer.body) !== identityOf(first.body)) {
    return [{ check: 'replay', message: `${about}: first answer ${first.status} ${identityOf(first.body)}, same key again: ${answer ? `${answer.status} ${identityOf(answer.body) ?? answer.body?.code}` : again.outcome}` }];
  }
  if (!answer.replayed) return [{ check: 'replay', message: `${about}: answered again without Idempotent-Replayed (it ran twice?)` }];
  return [];
}

/** What an answer is about: its resource's id (a card simulation answers its issuer token only). */
const identityOf = (body: any): string | undefined => body?.id ?? body?.issuerTransactionToken;

interface Snapshot {
  busy: string[];
  fingerprint: string;
  /** A timer is set to fire soon (a retry's backoff): the platform is waiting, not stuck. */
  waiting: boolean;
}

/** What is still to happen, and a fingerprint of everything that moves when something does. */
async function snapshot(ctx: CheckContext): Promise<Snapshot> {
  const { db, bus, busNamespace } = ctx;
  const busy: string[] = [];
  const moving: Record<string, unknown> = {};
  let waiting = false;
  for (const schema of TIMER_SCHEMAS) {
    // Soon-due timers are work in progress (rails, hold retries); quote expiries minutes away are not.
    const { rows: [due] } = await db.query<{ overdue: number; soon: number }>(
      `SELECT count(*) FILTER (WHERE due_at <= now())::int AS overdue, count(*) FILTER (WHERE due_at > now())::int AS soon
         FROM ${schema}.timers WHERE fired_at IS NULL AND due_at <= now() + interval '15 seconds'`,
    );
    if (due.overdue > 0) busy.push(`${schema}: ${due.overdue} timers due`);
    if (due.soon > 0) busy.push(`${schema}: ${due.soon} timers due within 15 s`);
    waiting ||= due.soon > 0;
    // A timer whose handler failed is work left whenever its retry is due: one that keeps failing never lets the wait
    // end quietly (it runs to the deadline and names the error); one that failed only around a fault fires later.
    const { rows: [failing] } = await db.query<{ n: number; name: string | null; error: string | null }>(
      `SELECT count(*)::int AS n, min(name) AS name, min(left(last_error, 160)) AS error FROM ${schema}.timers WHERE fired_at IS NULL AND last_error IS NOT NULL`,
    );
    if (failing.n > 0) busy.push(`${schema}: ${failing.n} timers failing (${failing.name}: ${failing.error})`);
    waiting ||= failing.n > 0;
    moving[`${schema}.timers`] = (await db.query(`SELECT count(fired_at)::int AS fired, coalesce(sum(attempts), 0)::int AS attempts FROM ${schema}.timers`)).rows[0];
    moving[`${schema}.events`] = await count(db, `SELECT count(*)::int AS n FROM ${schema}.events`);
    moving[`${schema}.inbox`] = await count(db, `SELECT count(*)::int AS n FROM ${schema}.inbox`);
  }
  // Production deliveries go to an https endpoint nothing answers (production.ts): they stay pending by design.
  const pending = await count(db, `SELECT count(*)::int AS n FROM webhooks.deliveries WHERE status = 'PENDING' AND mode <> 'PRODUCTION'`);
  if (pending > 0) busy.push(`${pending} webhooks pending`);
  // Rail payments not final wait for the connector's batch, the bank's returns and the calendar the bank advances.
  const rails = (await db.query<{ status: string; n: number }>(`SELECT status, count(*)::int AS n FROM payments.rail_payments GROUP BY status ORDER BY status`)).rows;
  moving.rails = rails;
  const open = rails.filter((r) => r.status === 'SUBMITTED' || r.status === 'FILED').reduce((n, r) => n + r.n, 0);
  if (open > 0) busy.push(`${open} rail payments not settled or returned`);
  busy.push(...(await ctx.bank.pending()));
  moving.bank = ctx.bank.fingerprint();
  moving.deliveries = (await db.query(`SELECT status, count(*)::int AS n FROM webhooks.deliveries GROUP BY status ORDER BY status`)).rows;
  moving.transactions = (await db.query(`SELECT status, count(*)::int AS n FROM payments.transactions GROUP BY status ORDER BY status`)).rows;
  for (const service of RELAYED_SERVICES) {
    const { published, unrelayed } = await relayBacklog(db, bus, busNamespace, service);
    moving[`${service}.published`] = published;
    if (unrelayed > 0) busy.push(`${service}: ${unrelayed} events not on the bus`);
  }
  for (const { group, topic, lag } of await groupLags(ctx)) {
    moving[`${group}/${topic}`] = lag;
    if (lag > 0) busy.push(`${group}: ${lag} behind on ${topic}`);
  }
  return { busy, fingerprint: JSON.stringify(moving), waiting };
}

/** How many committed public events of `service` are still to reach its topic, and how many messages the topic holds. */
export async function relayBacklog(db: Sql, bus: BusView, busNamespace: string, service: (typeof RELAYED_SERVICES)[number]): Promise<{ published: number; unrelayed: number }> {
  // By count, a topic shorter than the log; but copies the relay sent twice (at-least-once) can make it as long while
  // an event is still owed, so also every public event past the relay's checkpoint, which it stores once idle. The
  // bus check reads every id after the wait, so a relay that stores a checkpoint without publishing is still caught.
  const events = await count(db, `SELECT count(*)::int AS n FROM ${service}.events e WHERE ${publicOnly(service)}`);
  const pastCheckpoint = await count(
    db,
    `SELECT count(*)::int AS n FROM ${service}.events e LEFT JOIN ${service}.checkpoints c ON c.name = '${OUTBOX_RELAY_CHECKPOINT}'
      WHERE ${publicOnly(service)} AND (c.name IS NULL OR (e.transaction_id, e.global_position) > (c.transaction_id, c.position))`,
  );
  const published = await bus.size(topicOf(busNamespace, service));
  return { published, unrelayed: Math.max(events - published, pastCheckpoint) };
}

/**
 * Waits (bounded) until nothing is left to happen: no timer due soon, no webhook pending, every event on the bus and
 * every durable group caught up. If nothing at all moves for `stableMs` while work is still listed, that work will
 * not happen by itself (a lost event, a stuck timer): the wait ends and the checks say what is missing. On Kafka
 * `stableMs` must outlast the session timeout (30 s): a SIGKILLed member holds its partitions until then.
 */
/** Between two looks at the platform while waiting for it to settle; three idle looks in a row end the wait. */
const QUIESCENCE_POLL_MS = 250;

export async function waitQuiescent(ctx: CheckContext, options: { timeoutMs: number; stableMs: number; log?: (line: string) => void }): Promise<Violation[]> {
  const deadline = Date.now() + options.timeoutMs;
  // Every 10 s of waiting, what is still to happen: where a long quiescence wait goes.
  let reportAt = Date.now() + 10_000;
  let last = '';
  let unchangedSince = Date.now();
  let idleStreak = 0;
  for (;;) {
    const { busy, fingerprint, waiting } = await snapshot(ctx);
    if (busy.length === 0 && ++idleStreak >= 3) return [];
    if (busy.length > 0) idleStreak = 0;
    if (busy.length > 0 && Date.now() > reportAt) {
      options.log?.(`still waiting: ${busy.join('; ')}`);
      reportAt = Date.now() + 10_000;
    }
    // A timer postponed by its backoff (a lease of a killed process still running out) moves nothing until it is
    // due: that wait is the platform's own schedule, so it does not count as standing still.
    if (fingerprint !== last || waiting) {
      last = fingerprint;
      unchangedSince = Date.now();
    } else if (busy.length > 0 && Date.now() - unchangedSince > options.stableMs) {
      return [{ check: 'quiescence', message: `nothing moved for ${options.stableMs} ms with work left: ${busy.join('; ')}` }];
    }
    if (Date.now() > deadline) return [{ check: 'quiescence', message: `still busy after ${options.timeoutMs} ms: ${busy.join('; ')}` }];
    await sleep(QUIESCENCE_POLL_MS);
  }
}

/** Per-process groups (a cache fed by the bus in every process: `…cache.<uuid>`) start at the end and die with their process. */
const PER_PROCESS_GROUP = /\.[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * How far every durable consumer group is behind on every topic it reads: the groups of CONSUMERS on their sources
 * (a group that never committed counts the whole topic), and whatever other durable group the bus knows of.
 */
async function groupLags(ctx: CheckContext): Promise<{ group: string; topic: string; lag: number }[]> {
  const pairs = new Map<string, { group: string; topic: string }>();
  // Keyed by the names the bus knows, so a group listed here and by the bus is counted (and reported) once.
  for (const consumer of CONSUMERS) for (const source of consumer.sources) {
    const pair = { group: `${ctx.busNamespace}${consumer.group}`, topic: topicOf(ctx.busNamespace, source) };
    pairs.set(`${pair.group} ${pair.topic}`, pair);
  }
  for (const { group, topic } of await ctx.bus.groups(ctx.busNamespace)) {
    if (PER_PROCESS_GROUP.test(group) || topic.endsWith('.dlq')) continue;
    pairs.set(`${group} ${topic}`, { group, topic });
  }
  const lags = [];
  for (const { group, topic } of pairs.values()) lags.push({ group: group.slice(ctx.busNamespace.length), topic: topic.slice(ctx.busNamespace.length), lag: await ctx.bus.lag(group, topic) });
  return lags;
}

/** Every durable consumer group caught up with every topic it reads, at rest: nothing published was left unread. */
export async function checkConsumerGroups(ctx: CheckContext): Promise<Violation[]> {
  const lags = await groupLags(ctx);
  if (lags.length < CONSUMERS.length) return [{ check: 'groups', message: `only ${lags.length} consumer groups found; ${CONSUMERS.length} expected at least` }];
  return lags.filter((l) => l.lag > 0).map((l) => ({ check: 'groups', message: `${l.group} is ${l.lag} messages behind on ${l.topic}` }));
}

/** The operator's checker: entries and currencies balance, balances equal postings and events, nothing overdrawn. */
export async function checkLedger(env: NodeJS.ProcessEnv): Promise<Violation[]> {
  const { code, output } = await runAdmin(env, ['ledger:check']);
  if (code === 0) return [];
  let details = output.trim();
  try {
    details = JSON.stringify(JSON.parse(output).violations);
  } catch {
    // not the JSON report (the checker itself failed): show its output
  }
  return [{ check: 'ledger', message: `ledger:check exit ${code}: ${details.slice(0, 4_000)}` }];
}

/** Every committed public event of every service reached its topic (compared by event id); no internal event did. */
export async function checkBus(ctx: CheckContext): Promise<Violation[]> {
  const violations: Violation[] = [];
  for (const service of RELAYED_SERVICES) {
    const onTopic = await ctx.bus.eventIds(topicOf(ctx.busNamespace, service));
    const { rows } = await ctx.db.query<{ event_id: string; type: string; global_position: string; public: boolean }>(
      `SELECT event_id::text, type, global_position::text, (${publicOnly(service)}) AS public FROM ${service}.events e ORDER BY global_position`,
    );
    const missing = rows.filter((r) => r.public && !onTopic.has(r.event_id));
    const publicCount = rows.filter((r) => r.public).length;
    if (missing.length > 0) {
      const sample = missing.slice(0, 10).map((r) => `${r.type} ${r.event_id} @${r.global_position}`).join(', ');
      violations.push({ check: 'bus', message: `${service}: ${missing.length} of ${publicCount} committed public events never reached ${serviceTopic(service)}: ${sample}${missing.length > 10 ? ', …' : ''}` });
    }
    const leaked = rows.filter((r) => !r.public && onTopic.has(r.event_id));
    if (leaked.length > 0) {
      const sample = leaked.slice(0, 10).map((r) => `${r.type} ${r.event_id}`).join(', ');
      violations.push({ check: 'bus', message: `${service}: ${leaked.length} internal events reached ${serviceTopic(service)}: ${sample}${leaked.length > 10 ? ', …' : ''}` });
    }
  }
  return violations;
}

/** Exactly-once consumers recorded every event they must handle (the inbox key makes "at most once" hold). */
export async function checkInboxes(ctx: CheckContext): Promise<Violation[]> {
  const violations: Violation[] = [];
  for (const consumer of CONSUMERS) {
    // At most once per (consumer, event): guaranteed by the primary key; checked anyway, it costs nothing.
    const twice = await count(ctx.db, `SELECT count(*)::int AS n FROM (SELECT 1 FROM ${consumer.inboxSchema}.inbox WHERE consumer = $1 GROUP BY event_id HAVING count(*) > 1) d`, [consumer.group]);
    if (twice > 0) violations.push({ check: 'inbox', message: `${consumer.group}: ${twice} events recorded twice` });
    if (!consumer.records) continue;
    for (const source of consumer.sources) {
      const { rows } = await ctx.db.query<{ event_id: string; type: string }>(
        `SELECT e.event_id::text, e.type FROM ${source}.events e
          WHERE ${consumer.records}
            AND NOT EXISTS (SELECT 1 FROM ${consumer.inboxSchema}.inbox i WHERE i.consumer = $1 AND i.event_id = e.event_id::text)
          ORDER BY e.global_position`,
        [consumer.group],
      );
      if (rows.length > 0) {
        violations.push({ check: 'inbox', message: `${consumer.group}: ${rows.length} ${source} events never handled: ${rows.slice(0, 10).map((r) => `${r.type} ${r.event_id}`).join(', ')}` });
      }
    }
  }
  // A dead letter is an event some consumer gave up on.
  for (const service of RELAYED_SERVICES) {
    const dlq = `${topicOf(ctx.busNamespace, service)}.dlq`;
    const dead = await ctx.bus.size(dlq);
    if (dead > 0) violations.push({ check: 'inbox', message: `${dead} dead-lettered messages on ${dlq}` });
  }
  return violations;
}

