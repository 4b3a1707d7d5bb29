import { execFile } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort, sleep } from './platform-process';

const run = promisify(execFile);

/** Where Debian's PostgreSQL server binaries are (PG_BIN_DIR overrides). */
const PG_BIN_DIR = process.env.PG_BIN_DIR || '/usr/lib/postgresql/15/bin';

export interface OwnPostgresOptions {
  /** Every replica's pools, listeners and bus loops are connections: a cluster of 18 processes needs a few hundred. */
  maxConnections?: number;
}

/**
 * A PostgreSQL server of the run's own (initdb into a temporary directory, pg_ctl on a free port on 127.0.0.1), so a
 * run can crash it, `pg_ctl stop -m immediate` (no checkpoint, as a power cut), and bring it back on the same port
 * and data. PostgreSQL refuses to run as root: as root the binaries run as the OS user `postgres`, who owns the
 * data directory (as libs/embedded-postgres does for the embedded mode's server).
 */
export class OwnPostgres {
  private running = false;
  /** `-o` of every pg_ctl start, so a restart keeps the port and settings. */
  private settings = '';

  private constructor(
    readonly dataDir: string,
    readonly port: number,
    private readonly root: string,
  ) {}

  static async start(options: OwnPostgresOptions = {}): Promise<OwnPostgres> {
    if (!existsSync(join(PG_BIN_DIR, 'pg_ctl'))) throw new Error(`no PostgreSQL server binaries in ${PG_BIN_DIR} (set PG_BIN_DIR)`);
    const root = mkdtempSync(join(tmpdir(), 'pp-own-pg-'));
    const dataDir = join(root, 'data');
    if (asRoot()) {
      chmodSync(root, 0o755); // mkdtemp makes it 700: the postgres user must be able to enter it
      const { uid, gid } = await postgresUser();
      chownSync(root, uid, gid);
    }
    await pgBinary('initdb', ['-D', dataDir, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8', '--locale=C']);
    const pg = new OwnPostgres(dataDir, await freePort(), root);
    // Settings on the command line of every start, so a restart keeps them; fsync stays on (a crash test wants it).
    pg.settings = [`-c listen_addresses=127.0.0.1`, `-c port=${pg.port}`, `-c unix_socket_directories=${root}`, `-c max_connections=${options.maxConnections ?? 400}`, '-c shared_buffers=64MB'].join(' ');
    await pg.startServer();
    return pg;
  }

  /** The `postgres` database; a run creates its own database in it, or uses it as is. */
  get url(): string {
    return `postgres://postgres@127.0.0.1:${this.port}/postgres`;
  }

  /** A crash: `pg_ctl stop -m immediate` (every backend killed, no shutdown checkpoint); `downMs` later it starts again on the same port and data, replaying its WAL. */
  async restart({ downMs = 0 }: { downMs?: number } = {}): Promise<void> {
    await this.crash();
    await sleep(downMs);
    await this.startServer();
  }

  /** Down as a crash leaves it, until `startServer`. */
  async crash(): Promise<void> {
    await pgBinary('pg_ctl', ['stop', '-D', this.dataDir, '-m', 'immediate', '-w']);
    this.running = false;
  }

  async startServer(): Promise<void> {
    await pgBinary('pg_ctl', ['start', '-D', this.dataDir, '-w', '-t', '60', '-l', join(this.root, 'postgres.log'), '-o', this.settings]);
    this.running = true;
  }

  /** A fast stop (connections closed), then the data directory removed. */
  async stop(): Promise<void> {
    if (this.running) await pgBinary('pg_ctl', ['stop', '-D', this.dataDir, '-m', 'fast', '-w']).catch(() => undefined);
    this.running = false;
    rmSync(this.root, { recursive: true, force: true });
  }
}

function asRoot(): boolean {
  return process.getuid?.() === 0;
}

async function postgresUser(): Promise<{ uid: number; gid: number }> {
  const id = async (flag: string) => Number((await run('id', [flag, 'postgres'])).stdout.trim());
  try {
    return { uid: await id('-u'), gid: await id('-g') };
  } catch {
    throw new Error('as root, a PostgreSQL server of our own needs an OS user "postgres" to run as');
  }
}

/** Runs a server binary, as `postgres` when we are root; a failure carries its output. */
async function pgBinary(name: string, args: string[]): Promise<void> {
  const binary = join(PG_BIN_DIR, name);
  const [command, argv] = asRoot() ? ['runuser', ['-u', 'postgres', '--', binary, ...args]] : [binary, args];
  try {
    await run(command, argv, { timeout: 120_000 });
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string; message: string };
    throw new Error(`${name} ${args.join(' ')} failed: ${e.message}\n${e.stdout ?? ''}${e.stderr ?? ''}`);
  }
}
