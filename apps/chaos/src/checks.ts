import type { Client } from 'pg';
import { EVENT_CATALOGUES } from '@payments/contracts';
import { serviceTopic } from '@payments/messaging';
import type { BusView } from './bus-view';
import { runAdmin, sleep } from './platform-process';
import type { WebhookReceiver } from './receiver';
import type { World } from './setup';
import type { RailBank } from './rail-bank';
import { Clients, clientOf, isProduction, OpRecord } from './workload';

export type CheckName = 'lost' | 'duplicated' | 'stuck' | 'replay' | 'ledger' | 'bus' | 'inbox' | 'webhooks' | 'quiescence' | 'rails';

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
const TIMER_SCHEMAS = ['identity', 'accounts', 'quoting', 'payments', 'webhooks', 'cards', 'agents'];

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
  db: Client;
  bus: BusView;
  busNamespace: string;
  world: World;
  records: OpRecord[];
  clients: Clients;
  receiver: WebhookReceiver;
  bank: RailBank;
  outbox: string;
}

const topicOf = (namespace: string, service: string) => `${namespace}${serviceTopic(service)}`;
const count = async (db: Client, sql: string, params: unknown[] = []) => (await db.query<{ n: number }>(sql, params)).rows[0].n;

/**
 * Sends every acknowledged request again with its key, as a client that lost the answer would: the answer must be
 * the first one (same status, same resource), replayed, never a second effect (the counts come after this).
 */
export async function replayAcknowledged(ctx: CheckContext): Promise<Violation[]> {
  const violations: Violation[] = [];
  for (const record of ctx.records) {
    if (record.result.outcome !== 'acked') continue;
    const first = record.result.answer!;
    const again = await clientOf(ctx.clients, record.op.kind).call(record.method, record.path, record.body, record.op.key);
    const answer = again.answer;
    if (!answer || answer.status !== first.status || answer.body?.id !== first.body?.id) {
      violations.push({ check: 'replay', message: `op ${record.op.index} (${record.op.kind} ${record.op.key}): first answer ${first.status} ${first.body?.id}, same key again: ${answer ? `${answer.status} ${answer.body?.id ?? answer.body?.code}` : again.outcome}` });
    } else if (!answer.replayed) {
      violations.push({ check: 'replay', message: `op ${record.op.index} (${record.op.kind} ${record.op.key}): answered again without Idempotent-Replayed (it ran twice?)` });
    }
  }
  return violations;
}

interface Snapshot {
  busy: string[];
  fingerprint: string;
}

/** What is still to happen, and a fingerprint of everything that moves when something does. */
async function snapshot(ctx: CheckContext): Promise<Snapshot> {
  const { db, bus, busNamespace } = ctx;
  const busy: string[] = [];
  const moving: Record<string, unknown> = {};
  for (const schema of TIMER_SCHEMAS) {
    // Soon-due timers are work in progress (rails, hold retries); quote expiries minutes away are not.
    const due = await count(db, `SELECT count(*)::int AS n FROM ${schema}.timers WHERE fired_at IS NULL AND due_at <= now() + interval '15 seconds'`);
    if (due > 0) busy.push(`${schema}: ${due} timers due`);
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
    // Relay lag by count: duplicates (at-least-once) could hide a gap here; the bus check reads every id.
    const events = await count(db, `SELECT count(*)::int AS n FROM ${service}.events e WHERE ${publicOnly(service)}`);
    const published = await bus.size(topicOf(busNamespace, service));
    moving[`${service}.published`] = published;
    if (published < events) busy.push(`${service}: ${events - published} events not on the bus`);
  }
  for (const consumer of CONSUMERS) {
    for (const source of consumer.sources) {
      const lag = await bus.lag(`${busNamespace}${consumer.group}`, topicOf(busNamespace, source));
      moving[`${consumer.group}/${source}`] = lag;
      if (lag > 0) busy.push(`${consumer.group}: ${lag} behind on ${source}`);
    }
  }
  return { busy, fingerprint: JSON.stringify(moving) };
}

/**
 * Waits (bounded) until nothing is left to happen: no timer due soon, no webhook pending, every event on the bus and
 * every durable group caught up. If nothing at all moves for `stableMs` while work is still listed, that work will
 * not happen by itself (a lost event, a stuck timer): the wait ends and the checks say what is missing. On Kafka
 * `stableMs` must outlast the session timeout (30 s): a SIGKILLed member holds its partitions until then.
 */
export async function waitQuiescent(ctx: CheckContext, options: { timeoutMs: number; stableMs: number }): Promise<Violation[]> {
  const deadline = Date.now() + options.timeoutMs;
  let last = '';
  let unchangedSince = Date.now();
  let idleStreak = 0;
  for (;;) {
    const { busy, fingerprint } = await snapshot(ctx);
    if (busy.length === 0 && ++idleStreak >= 3) return [];
    if (busy.length > 0) idleStreak = 0;
    if (fingerprint !== last) {
      last = fingerprint;
      unchangedSince = Date.now();
    } else if (busy.length > 0 && Date.now() - unchangedSince > options.stableMs) {
      return [{ check: 'quiescence', message: `nothing moved for ${options.stableMs} ms with work left: ${busy.join('; ')}` }];
    }
    if (Date.now() > deadline) return [{ check: 'quiescence', message: `still busy after ${options.timeoutMs} ms: ${busy.join('; ')}` }];
    await sleep(500);
  }
}

/**
 * Every acknowledged operation exists, once; no operation (acknowledged or not: an unanswered first attempt may
 * legitimately have run once) has two effects. Effects are counted by the operation's unique amount.
 */
export async function checkOperations(ctx: CheckContext): Promise<Violation[]> {
  const { db, world, records, clients } = ctx;
  const violations: Violation[] = [];
  const lost = (r: OpRecord, why: string) => violations.push({ check: 'lost', op: r.op.index, message: `op ${r.op.index} (${r.op.kind} ${r.op.key}) acknowledged ${r.resourceId}: ${why}` });
  const duplicated = (r: OpRecord, what: string, ids: string[]) =>
    violations.push({ check: 'duplicated', op: r.op.index, message: `op ${r.op.index} (${r.op.kind} ${r.op.key}, amount ${r.op.amount}, ${describeAttempts(r)}): ${ids.length} ${what}: ${ids.join(', ')}` });

  const transactions = (await db.query<{ transaction_id: string; type: string; quote_id: string | null; status: string; amount: string }>(
    `SELECT transaction_id, type, quote_id, status, body->'sentAmount'->>'amount' AS amount FROM payments.transactions`,
  )).rows;
  const quotes = (await db.query<{ quote_id: string; amount: string }>(`SELECT quote_id, body->>'totalSendingAmount' AS amount FROM quoting.quotes`)).rows;
  // USD postings on customer accounts, one row per entry: funding credits and payment legs (reversals apart).
  const postings = (await db.query<{ entry_id: string; account_id: string; amount: string; kind: string }>(
    `SELECT p.entry_id, p.account_id, p.amount::text AS amount, p.kind FROM accounts.journal_postings p
       JOIN accounts.ledger_accounts a ON a.account_id = p.account_id
      WHERE a.owner = 'CUSTOMER' AND p.currency = 'USD' AND p.kind <> 'REVERSAL'`,
  )).rows;
  const entries = (accountId: string, amount: number, kind: (k: string) => boolean) =>
    [...new Set(postings.filter((p) => p.account_id === accountId && Number(p.amount) === amount && kind(p.kind)).map((p) => p.entry_id))];
  const isPayment = (k: string) => k.startsWith('PAYMENT_');
  const txIds = new Set(transactions.map((t) => t.transaction_id));

  for (const r of records) {
    if (r.result.outcome === 'skipped') continue;
    const { op } = r;
    const usd = isProduction(op.kind) ? world.production.usd : world.customers[op.customer].usd;
    const acked = r.result.outcome === 'acked';
    switch (op.kind) {
      case 'transferOut':
      case 'transferIn':
      case 'prodTransferOut':
      case 'prodTransferIn': {
        const type = op.kind === 'transferOut' || op.kind === 'prodTransferOut' ? 'OUTGOING' : 'INCOMING';
        const same = transactions.filter((t) => t.type === type && t.quote_id === null && Number(t.amount) === op.amount).map((t) => t.transaction_id);
        if (same.length > 1) duplicated(r, `${type} transactions`, same);
        const legs = entries(usd, type === 'OUTGOING' ? -op.amount : op.amount, isPayment);
        if (legs.length > 1) duplicated(r, 'ledger entries', legs);
        if (acked && !same.includes(r.resourceId!)) lost(r, same.length ? `the amount's transaction is ${same.join(', ')}` : 'no such transaction');
        break;
      }
      case 'quote': {
        const same = quotes.filter((q) => Number(q.amount) === op.amount).map((q) => q.quote_id);
        if (same.length > 1) duplicated(r, 'quotes', same);
        const executions = transactions.filter((t) => t.quote_id !== null && Number(t.amount) === op.amount).map((t) => t.transaction_id);
        if (executions.length > 1) duplicated(r, 'quote transactions', executions);
        const legs = entries(usd, -op.amount, isPayment);
        if (legs.length > 1) duplicated(r, 'ledger entries', legs);
        if (acked && !same.includes(r.resourceId!)) lost(r, same.length ? `the amount's quote is ${same.join(', ')}` : 'no such quote');
        if (acked && op.immediate && !txIds.has(r.transactionId!)) lost(r, `executed at once, but its transaction ${r.transactionId} does not exist`);
        break;
      }
      case 'execute':
        if (acked && !txIds.has(r.transactionId!)) lost(r, `executed, but its transaction ${r.transactionId} does not exist`);
        break;
      case 'fund': {
        const credits = entries(usd, op.amount, (k) => k === 'SANDBOX_FUNDING');
        if (credits.length > 1) duplicated(r, 'funding entries', credits);
        if (acked && credits.length === 0) lost(r, 'no funding entry');
        break;
      }
    }
  }
  // What a client sees: every acknowledged transaction and quote can be read back.
  for (const r of records) {
    if (r.result.outcome !== 'acked' || r.op.kind === 'fund') continue;
    const path = r.op.kind === 'quote' || r.op.kind === 'execute' ? `/quotes/${r.resourceId}` : `/transactions/${r.resourceId}`;
    const read = await clientOf(clients, r.op.kind).call('GET', path, undefined, undefined);
    if (read.outcome !== 'acked') lost(r, `GET ${path} answered ${read.answer?.status ?? read.outcome}`);
  }
  // Every transaction has reached an end state: with the timers drained, nothing will move them any more.
  for (const t of transactions) {
    if (t.status !== 'COMPLETED' && t.status !== 'FAILED') violations.push({ check: 'stuck', message: `transaction ${t.transaction_id} (${t.type}, amount ${t.amount}) is still ${t.status}` });
  }
  return violations;
}

function describeAttempts(r: OpRecord): string {
  const attempts = r.result.attempts.map((a) => (a.status ? `${a.status}${a.code ? ` ${a.code}` : ''}` : a.error ?? 'no answer'));
  return `${r.result.outcome} after ${collapse(attempts)}`;
}

/** "x, x, x, y" → "x ×3, y": retry histories are long and repetitive. */
function collapse(items: string[]): string {
  const out: string[] = [];
  for (let i = 0; i < items.length; ) {
    let j = i;
    while (j < items.length && items[j] === items[i]) j++;
    out.push(j - i > 1 ? `${items[i]} ×${j - i}` : items[i]);
    i = j;
  }
  return out.join(', ');
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

/** Every sandbox transaction status change was queued as a webhook, and what the dispatcher calls delivered, we received. */
export async function checkWebhooks(ctx: CheckContext): Promise<Violation[]> {
  const violations: Violation[] = [];
  const received = new Set(ctx.receiver.received.map((w) => w.webhookId));
  const { rows } = await ctx.db.query<{ event_id: string; transaction_id: string; tx_status: string; webhook_id: string | null; status: string | null; type: string | null }>(
    `SELECT e.event_id::text, e.data->'transaction'->>'id' AS transaction_id, e.data->'transaction'->>'status' AS tx_status,
            d.webhook_id, d.status, d.type
       FROM payments.events e LEFT JOIN webhooks.deliveries d ON d.event_id = e.event_id::text
      WHERE e.type = 'TransactionStatusChanged.v1' AND e.data->>'mode' <> 'PRODUCTION'
      ORDER BY e.global_position`,
  );
  const missing = rows.filter((r) => r.webhook_id === null);
  if (missing.length > 0) {
    violations.push({ check: 'webhooks', message: `${missing.length} of ${rows.length} transaction status changes have no webhook: ${missing.slice(0, 10).map((r) => `${r.transaction_id} ${r.tx_status} (event ${r.event_id})`).join(', ')}` });
  }
  for (const r of rows) {
    if (r.webhook_id === null) continue;
    if (r.status !== 'DELIVERED') violations.push({ check: 'webhooks', message: `${r.type} ${r.webhook_id} of ${r.transaction_id} is ${r.status}, not DELIVERED` });
    else if (!received.has(r.webhook_id)) violations.push({ check: 'webhooks', message: `${r.type} ${r.webhook_id} of ${r.transaction_id} is DELIVERED but never reached the receiver` });
  }
  return violations;
}
