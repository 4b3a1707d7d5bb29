import { randomUUID } from 'node:crypto';
import { v7 as uuidv7 } from 'uuid';
import type { ListWebhookDeliveriesQuery, Mode, Page } from '@payments/contracts';
import { queryRows, SqlExecutor, Transactional } from '@payments/eventsourcing';
import { activeTraceparent } from '@payments/observability';
import { keysetPage, SqlWhere } from '@payments/runtime';
import { resourceIdOf } from './resource-id';
import type { AttemptResult } from './http-sender';
import { DEAD_LETTERS_ONLY } from './redelivery';

export type DeliveryStatus = 'PENDING' | 'DELIVERED' | 'REJECTED' | 'FAILED' | 'DEAD_LETTER';

export interface DeliveryRow {
  webhook_id: string;
  event_id: string | null;
  platform_id: string;
  mode: Mode;
  type: string;
  data_json: string;
  retryable: boolean;
  status: DeliveryStatus;
  attempts: number;
  lease_token: string | null;
  retry_window_from: Date;
  next_attempt_at: Date;
  created_at: Date;
  finished_at: Date | null;
  /** The `id` of the resource in data, when it has one (GET /webhook-deliveries?resourceId=). */
  resource_id: string | null;
  dead_reason: string | null;
  last_status: number | null;
  last_error: string | null;
  /** W3C trace context of whoever queued it (the bus consumer's span); null when tracing was off. */
  traceparent: string | null;
}

export interface NewDelivery {
  eventId: string | null;
  platformId: string;
  mode: Mode;
  type: string;
  data: unknown;
  retryable: boolean;
}

/** One recorded attempt (delivery_attempts). `response_excerpt` and `error` are the operator's only. */
export interface AttemptRow {
  attempt: number;
  url: string | null;
  response_status: number | null;
  latency_ms: number;
  response_excerpt: string | null;
  error: string | null;
  at: Date;
}

/** One platform in one mode: every read and redelivery on behalf of a platform is confined to it. */
export interface DeliveryScope {
  platformId: string;
  mode: Mode;
}

/** What to requeue: one webhook or every one in the allowed statuses, of one platform and mode or (the CLI) of all. */
export interface Requeue {
  webhookId?: string;
  scope?: DeliveryScope;
  statuses: readonly DeliveryStatus[];
}

/** How one claimed attempt ended, as the worker decided it. */
export type AttemptEnd =
  | { status: 'DELIVERED' | 'REJECTED' | 'FAILED' }
  | { status: 'DEAD_LETTER'; reason: string }
  | { status: 'PENDING'; delayMs: number };

/**
 * The durable queue (PostgreSQL): enqueued in the consumer's transaction, claimed by workers under a lease, finished
 * with a fenced update (a worker whose lease ran out cannot overwrite the row another worker now holds).
 */
export class DeliveryQueue {
  // UPDATE … RETURNING sits in a CTE: TypeORM answers a bare UPDATE with [rows, count], not rows.
  constructor(private readonly db: Transactional) {}

  /**
   * Adds a webhook for `eventId` once: a second enqueue of the same event is a no-op. Returns the webhook id. The
   * active trace context is kept with it, so the delivery, made later by a worker, continues the same trace.
   */
  async enqueue(tx: SqlExecutor, delivery: NewDelivery): Promise<string | undefined> {
    const [row] = await queryRows(
      tx,
      `INSERT INTO deliveries (webhook_id, event_id, platform_id, mode, type, data_json, retryable, status, traceparent, resource_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7, 'PENDING', $8, $9) ON CONFLICT (event_id) DO NOTHING RETURNING webhook_id`,
      [`Webhook:${uuidv7()}`, delivery.eventId, delivery.platformId, delivery.mode, delivery.type, JSON.stringify(delivery.data ?? {}), delivery.retryable, activeTraceparent() ?? null, resourceIdOf(delivery.data)],
    );
    return row?.webhook_id;
  }

  /**
   * Claims up to `limit` due deliveries, oldest first per platform, at most `capFree(platform)` each: a round robin
   * across platforms, so a platform with a thousand due rows does not take every slot. SKIP LOCKED lets workers in
   * other processes claim at once; the lease keeps the row theirs until the attempt ends or the lease runs out.
   */
  async claim(limit: number, perPlatformCap: number, inFlight: ReadonlyMap<string, number>, leaseMs: number): Promise<DeliveryRow[]> {
    if (limit <= 0) return [];
    const keys = [...inFlight.keys()];
    return queryRows<DeliveryRow>(
      this.db,
      `WITH busy AS (SELECT * FROM unnest($1::text[], $2::int[]) AS b(pkey, n)),
       ranked AS (
         SELECT d.webhook_id, d.next_attempt_at,
                row_number() OVER (PARTITION BY d.platform_id, d.mode ORDER BY d.next_attempt_at, d.webhook_id) AS rn,
                $3::int - coalesce(b.n, 0) AS free
           FROM deliveries d LEFT JOIN busy b ON b.pkey = d.platform_id || '/' || d.mode
          WHERE d.status = 'PENDING' AND d.next_attempt_at <= now() AND (d.lease_until IS NULL OR d.lease_until < now())
       ),
       claimed AS (
       UPDATE deliveries SET lease_token = $5::uuid, lease_until = now() + ($6::bigint * interval '1 millisecond')
        WHERE webhook_id IN (
          SELECT d.webhook_id FROM deliveries d JOIN ranked r USING (webhook_id)
           WHERE r.rn <= r.free ORDER BY r.rn, r.next_attempt_at LIMIT $4
           FOR UPDATE OF d SKIP LOCKED)
          AND status = 'PENDING'
       RETURNING *)
       SELECT * FROM claimed`,
      [keys, keys.map((k) => inFlight.get(k)), perPlatformCap, limit, randomUUID(), leaseMs],
    );
  }

  /** Records the attempt and the delivery's next state together. False when the lease was lost meanwhile. */
  async finishAttempt(row: DeliveryRow, url: string | null, result: AttemptResult | null, end: AttemptEnd): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const attempt = result ? row.attempts + 1 : row.attempts;
      const [updated] = await queryRows(
        tx,
        `WITH finished AS (UPDATE deliveries SET status = $3, attempts = $4, lease_token = NULL, lease_until = NULL,
                next_attempt_at = CASE WHEN $3 = 'PENDING' THEN now() + ($5::bigint * interval '1 millisecond') ELSE next_attempt_at END,
                last_status = coalesce($6, last_status), last_error = $7, dead_reason = $8,
                finished_at = CASE WHEN $3 = 'PENDING' THEN NULL ELSE now() END
          WHERE webhook_id = $1 AND lease_token = $2 RETURNING 1) SELECT * FROM finished`,
        [row.webhook_id, row.lease_token, end.status, attempt, end.status === 'PENDING' ? end.delayMs : 0, result?.status ?? null, result?.error ?? null, end.status === 'DEAD_LETTER' ? end.reason : null],
      );
      if (!updated) return false;
      if (result) await this.recordAttempt(tx, row.webhook_id, attempt, url, result);
      return true;
    });
  }

  /** A delivery made outside the queue (the synchronous sandbox TEST), recorded as finished with its one attempt. */
  async recordFinished(delivery: NewDelivery & { webhookId: string; status: DeliveryStatus }, url: string, result: AttemptResult): Promise<void> {
    await this.db.transaction(async (tx) => {
      await queryRows(
        tx,
        `INSERT INTO deliveries (webhook_id, event_id, platform_id, mode, type, data_json, retryable, status, attempts, last_status, last_error, finished_at)
         VALUES ($1, NULL, $2, $3, $4, $5, false, $6, 1, $7, $8, now())`,
        [delivery.webhookId, delivery.platformId, delivery.mode, delivery.type, JSON.stringify(delivery.data ?? {}), delivery.status, result.status ?? null, result.error ?? null],
      );
      await this.recordAttempt(tx, delivery.webhookId, 1, url, result);
    });
  }

  private async recordAttempt(tx: SqlExecutor, webhookId: string, attempt: number, url: string | null, result: AttemptResult): Promise<void> {
    await queryRows(
      tx,
      `INSERT INTO delivery_attempts (webhook_id, attempt, url, response_status, latency_ms, response_excerpt, error, at) VALUES ($1, $2, $3, $4, $5, $6, $7, coalesce($8, now()))`,
      [webhookId, attempt, url, result.status ?? null, result.latencyMs, result.excerpt || null, result.error ?? null, result.sentAt ?? null],
    );
  }

  async get(webhookId: string): Promise<DeliveryRow | undefined> {
    return (await queryRows<DeliveryRow>(this.db, `SELECT * FROM deliveries WHERE webhook_id = $1`, [webhookId]))[0];
  }

  attempts(webhookId: string): Promise<AttemptRow[]> {
    return queryRows(this.db, `SELECT attempt, url, response_status, latency_ms, response_excerpt, error, at FROM delivery_attempts WHERE webhook_id = $1 ORDER BY attempt_id`, [webhookId]);
  }

  /** One webhook of a platform and mode; another platform's or mode's is not there. */
  async find(scope: DeliveryScope, webhookId: string, db: SqlExecutor = this.db): Promise<DeliveryRow | undefined> {
    const rows = await queryRows<DeliveryRow>(db, `SELECT * FROM deliveries WHERE webhook_id = $1 AND platform_id = $2 AND mode = $3`, [webhookId, scope.platformId, scope.mode]);
    return rows[0];
  }

  /** A platform's webhooks in one mode, newest first (deliveries_platform_idx; deliveries_resource_idx with resourceId). */
  list(scope: DeliveryScope, query: ListWebhookDeliveriesQuery): Promise<Page<DeliveryRow>> {
    const where = new SqlWhere()
      .add('platform_id = ?', scope.platformId)
      .add('mode = ?', scope.mode)
      .add('resource_id = ?', query.resourceId)
      .add('status = ?', query.status)
      .add('type = ?', query.type)
      .add('created_at > ?', query.createdAfter)
      .add('created_at < ?', query.createdBefore);
    return keysetPage<DeliveryRow, DeliveryRow>({
      db: this.db,
      from: `FROM deliveries WHERE ${where.sql}`,
      params: where.params,
      keyColumn: 'webhook_id',
      order: 'desc',
      limit: query.limit,
      cursor: query.cursor,
      toItem: (row) => row,
      keyOf: (row) => row.webhook_id,
    });
  }

  transaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }

  /** Dead letters, newest first (the admin CLI's `webhooks:dead-letters`). */
  deadLetters(limit = 100): Promise<DeliveryRow[]> {
    return queryRows(this.db, `SELECT * FROM deliveries WHERE status = 'DEAD_LETTER' ORDER BY created_at DESC LIMIT $1`, [limit]);
  }

  /** Puts dead letters back in the queue with a fresh retry window (the admin CLI); returns the webhook ids requeued. */
  redeliver(which: { webhookId: string } | { all: true }): Promise<string[]> {
    return this.requeue(this.db, { ...('webhookId' in which ? { webhookId: which.webhookId } : {}), statuses: DEAD_LETTERS_ONLY });
  }

  /**
   * The one redelivery: the webhooks `which` names, if in one of its statuses, become PENDING and due now, with a
   * fresh retry window, the same row and the same webhook id. A worker claims them at its next poll (a nudge makes
   * that now in this process). Returns the webhook ids requeued, newest first.
   */
  async requeue(tx: SqlExecutor, which: Requeue): Promise<string[]> {
    const rows = await queryRows<{ webhook_id: string }>(
      tx,
      `WITH requeued AS (UPDATE deliveries SET status = 'PENDING', next_attempt_at = now(), retry_window_from = now(), dead_reason = NULL, finished_at = NULL
        WHERE status = ANY($1::text[]) AND ($2::text IS NULL OR webhook_id = $2) AND ($3::text IS NULL OR (platform_id = $3 AND mode = $4))
        RETURNING webhook_id) SELECT * FROM requeued`,
      [which.statuses, which.webhookId ?? null, which.scope?.platformId ?? null, which.scope?.mode ?? null],
    );
    return rows.map((r) => r.webhook_id).sort((a, b) => (a < b ? 1 : a > b ? -1 : 0));
  }

  /** Dead letters per platform, mode and reason (the dead-letter gauge; the partial index deliveries_dead_idx holds them). */
  deadLetterCounts(): Promise<{ platform_id: string; mode: string; dead_reason: string; n: number }[]> {
    return queryRows(this.db, `SELECT platform_id, mode, coalesce(dead_reason, 'UNKNOWN') AS dead_reason, count(*)::int AS n FROM deliveries WHERE status = 'DEAD_LETTER' GROUP BY 1, 2, 3`);
  }

  /** Pending deliveries per platform and mode (the queue-depth gauge). */
  depth(): Promise<{ platform_id: string; mode: string; n: number }[]> {
    return queryRows(this.db, `SELECT platform_id, mode, count(*)::int AS n FROM deliveries WHERE status = 'PENDING' GROUP BY platform_id, mode`);
  }
}
