import { randomUUID } from 'node:crypto';
import { queryRows, SqlExecutor } from '@payments/eventsourcing';

export interface IdempotencyScope {
  platformId: string;
  mode: string;
  key: string;
}

export type Claim =
  /** This attempt holds the key; `claimId` names this claim (not this process) to complete or release it. */
  | { outcome: 'claimed'; claimId: string }
  | { outcome: 'replay'; status: number; body: unknown }
  | { outcome: 'in-flight' }
  | { outcome: 'mismatch' };

export interface IdempotencyStoreOptions {
  ttlMs: number;
  /** Upper bound on how long a running request holds its key (a hung process that still heartbeats). */
  leaseMs: number;
  /** How often this process says it is alive; a process silent for three beats is taken for dead. */
  heartbeatMs?: number;
}

/**
 * Idempotency records in PostgreSQL (IETF Idempotency-Key draft semantics). The first request claims the key for
 * this process; a retry gets 409 while that process is alive and the lease runs. A process that died (SIGKILL)
 * stops its heartbeat, so a retry of its requests goes through within seconds: the service that owns the effect
 * then answers the original resource (IdempotencyClaims). Records live `ttlMs` (>= 24 h).
 */
export class IdempotencyStore {
  readonly instanceId = randomUUID();
  private readonly heartbeatMs: number;
  private heartbeat?: NodeJS.Timeout;
  /** Claims whose release failed (the database was away), by claim id, released at the next heartbeat that reaches it. */
  private readonly unreleased = new Map<string, IdempotencyScope>();

  constructor(
    private readonly db: SqlExecutor,
    private readonly options: IdempotencyStoreOptions,
  ) {
    this.heartbeatMs = options.heartbeatMs ?? 2_000;
  }

  /** Registers this process and keeps its heartbeat until stop(). */
  async start(onError: (error: unknown) => void = () => undefined): Promise<void> {
    await this.beat();
    this.heartbeat = setInterval(() => void this.beat().catch(onError), this.heartbeatMs);
    this.heartbeat.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.heartbeat);
    await this.db.query(`DELETE FROM gateway_instances WHERE instance_id = $1`, [this.instanceId]).catch(() => undefined);
  }

  async claim(scope: IdempotencyScope, requestHash: string): Promise<Claim> {
    const claimId = randomUUID();
    const params = [scope.platformId, scope.mode, scope.key, requestHash, this.options.leaseMs, this.options.ttlMs, this.instanceId, this.heartbeatMs * 3, claimId];
    // Insert, or take over a key whose record expired, or whose in-flight request's lease lapsed or whose process died
    // (or looks dead: its heartbeat could not reach the database during an outage, the attempt may still be running).
    const claimed = await queryRows(
      this.db,
      `INSERT INTO idempotency_keys AS k (platform_id, mode, idempotency_key, request_hash, state, locked_until, expires_at, owner, claim_id)
       VALUES ($1, $2, $3, $4, 'IN_FLIGHT', now() + ($5::bigint * interval '1 ms'), now() + ($6::bigint * interval '1 ms'), $7, $9)
       ON CONFLICT (platform_id, mode, idempotency_key) DO UPDATE
         SET request_hash = EXCLUDED.request_hash, state = 'IN_FLIGHT', locked_until = EXCLUDED.locked_until, owner = EXCLUDED.owner,
             claim_id = EXCLUDED.claim_id, response_status = NULL, response_body = NULL, created_at = now(), expires_at = EXCLUDED.expires_at
         WHERE k.expires_at <= now()
            OR (k.state = 'IN_FLIGHT' AND k.request_hash = EXCLUDED.request_hash AND (
                  k.locked_until <= now()
                  OR NOT EXISTS (SELECT 1 FROM gateway_instances i WHERE i.instance_id = k.owner AND i.heartbeat_at > now() - ($8::bigint * interval '1 ms'))))
       RETURNING 1`,
      params,
    );
    if (claimed.length === 1) return { outcome: 'claimed', claimId };
    const [row] = await queryRows<{ request_hash: string; state: string; response_status: number; response_body: unknown }>(
      this.db,
      `SELECT request_hash, state, response_status, response_body FROM idempotency_keys WHERE platform_id = $1 AND mode = $2 AND idempotency_key = $3`,
      params.slice(0, 3),
    );
    if (!row) return this.claim(scope, requestHash); // expired and purged between the two statements
    if (row.request_hash !== requestHash) return { outcome: 'mismatch' };
    if (row.state === 'IN_FLIGHT') return { outcome: 'in-flight' };
    return { outcome: 'replay', status: row.response_status, body: row.response_body };
  }

  /**
   * Records an attempt's answer, the one its client is about to get, so every retry replays it: over this attempt's
   * claim, over the claim of another attempt of the same request that took the key over meanwhile (this one's
   * looked abandoned during an outage) and is still running, and when the record is gone. An answer sent is never
   * one a retry cannot replay. The first answer recorded stays: a later attempt's names the same resource.
   */
  async complete(scope: IdempotencyScope, requestHash: string, status: number, body: unknown): Promise<void> {
    await this.db.query(
      `INSERT INTO idempotency_keys AS k (platform_id, mode, idempotency_key, request_hash, state, expires_at, owner, response_status, response_body)
       VALUES ($1, $2, $3, $4, 'DONE', now() + ($5::bigint * interval '1 ms'), $6, $7, $8::jsonb)
       ON CONFLICT (platform_id, mode, idempotency_key) DO UPDATE
         SET state = 'DONE', locked_until = NULL, response_status = EXCLUDED.response_status, response_body = EXCLUDED.response_body
         WHERE k.state = 'IN_FLIGHT' AND k.request_hash = EXCLUDED.request_hash`,
      [scope.platformId, scope.mode, scope.key, requestHash, this.options.ttlMs, this.instanceId, status, JSON.stringify(body ?? null)],
    );
  }

  /**
   * A server-side failure keeps nothing: the client may retry the same key. Only this attempt's own claim is
   * released: another attempt may have taken the key over (a lapsed lease, or a heartbeat the outage held back),
   * and freeing its claim would let its answer go unrecorded. When the release itself fails (the database
   * is away: the very outage that failed the request), it is retried with every heartbeat, so the key frees as soon
   * as the database is back rather than when the lease runs out (a client would meanwhile see 409
   * IDEMPOTENCY_KEY_IN_USE for up to the whole lease).
   */
  async release(scope: IdempotencyScope, claimId: string): Promise<void> {
    try {
      await this.releaseNow(scope, claimId);
    } catch (error) {
      this.unreleased.set(claimId, scope);
      throw error;
    }
  }

  private async releaseNow(scope: IdempotencyScope, claimId: string): Promise<void> {
    await this.db.query(`DELETE FROM idempotency_keys WHERE platform_id = $1 AND mode = $2 AND idempotency_key = $3 AND state = 'IN_FLIGHT' AND claim_id = $4`, [
      scope.platformId,
      scope.mode,
      scope.key,
      claimId,
    ]);
  }

  async purgeExpired(): Promise<number> {
    const rows = await queryRows(this.db, `DELETE FROM idempotency_keys WHERE expires_at <= now() RETURNING 1`);
    await this.db.query(`DELETE FROM gateway_instances WHERE heartbeat_at < now() - interval '1 day'`);
    return rows.length;
  }

  private async beat(): Promise<void> {
    await this.db.query(
      `INSERT INTO gateway_instances (instance_id, heartbeat_at) VALUES ($1, now()) ON CONFLICT (instance_id) DO UPDATE SET heartbeat_at = now()`,
      [this.instanceId],
    );
    for (const [claimId, scope] of this.unreleased) {
      await this.releaseNow(scope, claimId);
      this.unreleased.delete(claimId);
    }
  }
}
