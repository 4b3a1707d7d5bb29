import 'reflect-metadata';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Client } from 'pg';
import { EmbeddedDatabase, startEmbeddedPostgres } from '@payments/embedded-postgres';
import { Identity } from '@payments/identity';
import { createEventBus, serviceTopic } from '@payments/messaging';
import { loadConfig, loadSecretHashKey, RuntimeConfig } from '@payments/runtime';

const USAGE = `usage: npm run admin -- <command> [options]

commands:
  platform:create --name NAME   create a platform; prints its id and its sandbox and production credentials as JSON
`;

/** Operator CLI. Works on DATABASE_URL, or on the embedded database of `npm start` (running or not). */
async function main(argv: string[]): Promise<number> {
  const { positionals, values } = parseArgs({ args: argv, allowPositionals: true, options: { name: { type: 'string' }, help: { type: 'boolean' } } });
  if (values.help || positionals.length !== 1) return usage(values.help ? 0 : 2);
  if (positionals[0] !== 'platform:create') return usage(2, `unknown command ${positionals[0]}`);
  if (!values.name?.trim()) return usage(2, 'platform:create needs --name NAME');

  const config = loadConfig();
  const { url, embedded } = await database(config);
  const bus = createEventBus({ kafkaBrokers: config.kafkaBrokers, databaseUrl: url, clientId: 'admin' });
  try {
    const identity = await Identity.open({
      databaseUrl: url,
      bus,
      topic: serviceTopic('identity'),
      secretHashKey: loadSecretHashKey(process.env.SECRET_HASH_KEY, join(config.dataDir, 'secret-hash.key')),
      sandboxTimeScale: config.sandboxTimeScale,
    });
    // The events are in the identity log (the outbox): the platform's relay publishes them when it runs.
    const created = await identity.platforms.create(values.name);
    await identity.host.stop();
    process.stdout.write(`${JSON.stringify(created, null, 2)}\n`);
    return 0;
  } finally {
    await bus.close();
    await embedded?.stop();
  }
}

/** DATABASE_URL; else the embedded PostgreSQL of `npm start`, reused when it is running, started when not. */
async function database(config: RuntimeConfig): Promise<{ url: string; embedded?: EmbeddedDatabase }> {
  if (config.databaseUrl) return { url: config.databaseUrl };
  const url = `postgres://postgres:postgres@127.0.0.1:${config.embeddedPostgresPort}/postgres`;
  const dataDir = join(config.dataDir, 'postgres');
  if (existsSync(join(dataDir, 'postmaster.pid')) && (await reachable(url))) return { url };
  const embedded = await startEmbeddedPostgres({ dataDir, port: config.embeddedPostgresPort });
  return { url: embedded.url, embedded };
}

async function reachable(url: string): Promise<boolean> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

function usage(code: number, problem?: string): number {
  if (problem) process.stderr.write(`${problem}\n\n`);
  (code === 0 ? process.stdout : process.stderr).write(USAGE);
  return code;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error) => {
    process.stderr.write(`admin failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
