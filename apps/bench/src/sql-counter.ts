import { AsyncLocalStorage } from 'node:async_hooks';
import { Server } from 'node:http';
import { Client } from 'pg';

/** What the platform sent PostgreSQL while a counter window was open. */
export interface SqlCounts {
  /** Statements (each `query` call: a TypeORM query, a BEGIN and a COMMIT are one each). */
  statements: number;
  /** Transactions that wrote: explicit COMMITs, and writes sent outside a transaction (each its own commit). */
  commits: number;
  /** Of those, the ones sent on a request's path: while an HTTP request this process serves was being answered. */
  requestStatements: number;
  requestCommits: number;
}

/**
 * Marks the work an HTTP request of this process started (its async context, through promises, pg callbacks and the
 * group commit it joined): `installSqlCounter` runs every 'request' event of node:http servers in it. Loops started
 * at boot (relays, consumers, timers) run outside it, so what they send is the asynchronous side's. A group shared by
 * several requests runs in the context of the one that flushed it: counted once, on the request path.
 */
const inRequest = new AsyncLocalStorage<true>();

const BEGIN = /^\s*(BEGIN|START TRANSACTION)\b/i;
const END = /^\s*(COMMIT|ROLLBACK|END)\b/i;
const COMMIT = /^\s*(COMMIT|END)\b/i;
const WRITE = /^\s*(INSERT|UPDATE|DELETE|WITH\b[\s\S]*\b(INSERT|UPDATE|DELETE)\b)/i;

const inTransaction = new WeakSet<Client>();
const counts: SqlCounts = { statements: 0, commits: 0, requestStatements: 0, requestCommits: 0 };
/** BENCH_SQL_PROFILE=1: statements by their text (whitespace collapsed, first 120 characters), to see where they go. */
const profile = process.env.BENCH_SQL_PROFILE === '1' ? new Map<string, number>() : undefined;
const ignored = new WeakSet<Client>();

/**
 * Counts the statements and commits of every pg client in this process (the platform runs in the bench's process):
 * `pg.Client.prototype.query` is wrapped once, before the platform starts. The bench's own clients are left out
 * (`ignore`). The counts are what issue #30 is about: statements and commits per transfer-out, on the request path and
 * amortised over what the asynchronous side does after.
 */
export function installSqlCounter(): void {
  const emit = Server.prototype.emit as (this: Server, event: string | symbol, ...args: unknown[]) => boolean;
  (Server.prototype as unknown as { emit: typeof emit }).emit = function emitting(this: Server, event, ...args) {
    return event === 'request' ? inRequest.run(true, () => emit.call(this, event, ...args)) : emit.call(this, event, ...args);
  };
  const original = Client.prototype.query as (...args: unknown[]) => unknown;
  (Client.prototype as unknown as { query: (...args: unknown[]) => unknown }).query = function counted(this: Client, ...args: unknown[]) {
    if (!ignored.has(this)) {
      const first = args[0];
      const text = typeof first === 'string' ? first : typeof first === 'object' && first !== null && 'text' in first ? String((first as { text: unknown }).text) : '';
      const onRequestPath = inRequest.getStore() === true;
      counts.statements++;
      if (onRequestPath) counts.requestStatements++;
      if (profile) {
        const key = text.replace(/\s+/g, ' ').trim().slice(0, 120);
        profile.set(key, (profile.get(key) ?? 0) + 1);
      }
      const committed = BEGIN.test(text) ? (inTransaction.add(this), false) : END.test(text) ? (inTransaction.delete(this), COMMIT.test(text)) : !inTransaction.has(this) && WRITE.test(text);
      if (committed) {
        counts.commits++;
        if (onRequestPath) counts.requestCommits++;
      }
    }
    return original.apply(this, args);
  };
}

/** Leaves a client of the bench itself (the backlog poller) out of the counts. */
export function ignoreClient(client: Client): void {
  ignored.add(client);
}

/** Starts a window; the returned function ends it with what was counted in between. */
export function countSql(): () => SqlCounts {
  const start = { ...counts };
  return () => ({
    statements: counts.statements - start.statements,
    commits: counts.commits - start.commits,
    requestStatements: counts.requestStatements - start.requestStatements,
    requestCommits: counts.requestCommits - start.requestCommits,
  });
}

/** The profile since the last call (BENCH_SQL_PROFILE=1), most frequent first, per `per` transactions; then reset. */
export function takeSqlProfile(per: number): string[] {
  if (!profile || per === 0) return [];
  const lines = [...profile.entries()].sort((a, b) => b[1] - a[1]).map(([text, n]) => `${(n / per).toFixed(2).padStart(7)}  ${text}`);
  profile.clear();
  return lines;
}
