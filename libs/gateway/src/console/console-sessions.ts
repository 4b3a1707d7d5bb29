import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { queryRows, SqlExecutor } from '@payments/eventsourcing';
import { SecretSealer } from '@payments/runtime';

export type ConsoleAudience = 'platform' | 'operator';

/** Who a session is, as the console shows it. */
export type ConsolePrincipal =
  | { audience: 'platform'; platformId: string; mode: 'SANDBOX' | 'PRODUCTION'; clientId: string }
  | { audience: 'operator'; operatorId: string; name: string; role: string; clientId: string };

export interface ConsoleSession {
  principal: ConsolePrincipal;
  clientId: string;
  /** The credential's secret, opened for this request only (never logged, never sent to the browser). */
  secret: string;
  csrfToken: string;
  expiresAt: Date;
}

export interface SessionLimits {
  /** A session unused this long ends (each request renews it). */
  idleMs: number;
  /** A session ends this long after sign-in, used or not. */
  absoluteMs: number;
}

export const DEFAULT_SESSION_LIMITS: SessionLimits = { idleMs: 30 * 60_000, absoluteMs: 12 * 3_600_000 };

/**
 * Server-side console sessions (ADR 0010). The browser holds only a random id in an HttpOnly cookie; the row is found
 * by the id's SHA-256, and the credential the person signed in with is kept sealed (AES-256-GCM under SECRET_HASH_KEY,
 * bound to the row) so each console request is sent on as that credential, through the same guard as any client:
 * a token deleted or an operator disabled ends the session's reach at once. One statement per request finds,
 * checks both expiries and renews the session.
 */
export class ConsoleSessions {
  private readonly sealer: SecretSealer;

  constructor(
    private readonly db: SqlExecutor,
    serverKey: Buffer,
    readonly limits: SessionLimits = DEFAULT_SESSION_LIMITS,
  ) {
    this.sealer = new SecretSealer(serverKey, 'console-session');
  }

  /** A new session; its id (the cookie's value) is returned this once. */
  async create(principal: ConsolePrincipal, secret: string): Promise<{ id: string; session: ConsoleSession }> {
    const id = randomBytes(32).toString('base64url');
    const hash = hashOf(id);
    const csrfToken = randomBytes(32).toString('base64url');
    const [row] = await queryRows<{ expires_at: Date }>(
      this.db,
      `INSERT INTO console_sessions (session_hash, audience, client_id, sealed_secret, csrf_token, principal, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, now() + ($7::bigint * interval '1 ms')) RETURNING expires_at`,
      [hash, principal.audience, principal.clientId, this.sealer.seal(secret, hash), csrfToken, JSON.stringify(principal), this.limits.absoluteMs],
    );
    return { id, session: { principal, clientId: principal.clientId, secret, csrfToken, expiresAt: new Date(row.expires_at) } };
  }

  /** The live session of this id, renewed; undefined when there is none, it expired, or it went idle. */
  async find(id: string | undefined): Promise<ConsoleSession | undefined> {
    if (!id || id.length > 64) return undefined;
    const hash = hashOf(id);
    const [row] = await queryRows<{ client_id: string; sealed_secret: string; csrf_token: string; principal: ConsolePrincipal; expires_at: Date }>(
      this.db,
      // Wrapped in a SELECT: TypeORM answers a bare UPDATE … RETURNING as [rows, count].
      `WITH renewed AS (
         UPDATE console_sessions SET last_seen_at = now()
          WHERE session_hash = $1 AND expires_at > now() AND last_seen_at > now() - ($2::bigint * interval '1 ms')
          RETURNING client_id, sealed_secret, csrf_token, principal, expires_at)
       SELECT * FROM renewed`,
      [hash, this.limits.idleMs],
    );
    if (!row) return undefined;
    let secret: string;
    try {
      secret = this.sealer.open(row.sealed_secret, hash);
    } catch {
      // Sealed under another SECRET_HASH_KEY (rotated) or altered: no session; the person signs in again.
      await this.end(id);
      return undefined;
    }
    return { principal: row.principal, clientId: row.client_id, secret, csrfToken: row.csrf_token, expiresAt: new Date(row.expires_at) };
  }

  async end(id: string | undefined): Promise<void> {
    if (!id || id.length > 64) return;
    await this.db.query(`DELETE FROM console_sessions WHERE session_hash = $1`, [hashOf(id)]);
  }

  /** Drops the rows of sessions that can no longer be used. */
  async purgeExpired(): Promise<void> {
    await this.db.query(`DELETE FROM console_sessions WHERE expires_at <= now() OR last_seen_at <= now() - ($1::bigint * interval '1 ms')`, [this.limits.idleMs]);
  }
}

/** The synchronizer token check of every console write: the header must equal the session's token. */
export function csrfTokenMatches(session: ConsoleSession, sent: string | string[] | undefined): boolean {
  if (typeof sent !== 'string') return false;
  const a = Buffer.from(sent);
  const b = Buffer.from(session.csrfToken);
  return a.length === b.length && timingSafeEqual(a, b);
}

function hashOf(id: string): string {
  return createHash('sha256').update(id).digest('hex');
}
