import '@payments/observability/register'; // first: the compile cache (and tracing, when configured) before anything loads
import 'reflect-metadata';
import { existsSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { parseArgs } from 'node:util';
import { Client } from 'pg';
import { EmbeddedDatabase, startEmbeddedPostgres } from '@payments/embedded-postgres';
import { EVENT_CATALOGUES, EventCatalogue, isOperatorRole, OperatorRole } from '@payments/contracts';
import { createEventBus, DeadLetter, EventBus, serviceTopic } from '@payments/messaging';
import { loadConfig, loadSecretHashKey, openServiceDatabase, RuntimeConfig } from '@payments/runtime';
import type { Identity } from '@payments/identity';
// Each command loads the services it opens when it runs (`await import`): a CLI call pays for what it uses, not for
// every service of the platform (about half a CPU-second less for platform:create, operator:create, ledger:check).

const USAGE = `usage: npm run admin -- <command> [options]

commands:
  platform:create --name NAME   create a platform; prints its id and its sandbox and production credentials as JSON
  operator:create --name NAME --role ADMIN|REVIEWER|VIEWER
                                create an operator of the deployment (the operator API, /operator/v1); prints their
                                id and credentials as JSON, the secret this once (only its keyed hash is kept).
                                VIEWER reads, REVIEWER also decides KYC/KYB and accounts, ADMIN also sets rates and fees
  operator:list                 list the operators (no secrets) as JSON
  operator:disable --id ID      disable an operator: their credentials stop working at once (recorded in the audit log)
  ledger:check                  verify the ledger invariants (entries and currencies sum to zero, balances equal
                                their postings and their events, nothing overdrawn; each card transaction matches
                                its funding account's postings); exit code 1 on any violation. The outcome is kept
                                for the accounts service's /metrics (payments_ledger_check_*): run it on a schedule
  webhooks:dead-letters         list webhooks that were given up on (newest first, at most 100) as JSON
  webhooks:redeliver --id ID | --all
                                put one dead letter (or all) back in the delivery queue with a fresh 7-day window
  db:migrate                    apply the schema migrations of the gateway and every service (the Helm chart runs it
                                as a Job before each install and upgrade); prints what it applied, per schema, as
                                JSON; a no-op on an up-to-date database. Needs no SECRET_HASH_KEY
  rails:import FILE [--connector ID]
                                import a return or status file of a production rail (NACHA returns, pain.002,
                                camt.054) into the connector that reads it (or the one named): each outcome is applied
                                to its transaction once, entries matching no payment become exceptions
                                (GET /operator/v1/rails/exceptions). The same bytes again change nothing
                                ("duplicate": true). Prints the result as JSON; a refused file exits 1 with the reason
  bus:dead-letters [--topic T]  list the messages consumers parked in a DLQ (every service topic, or topic T), oldest
                                first, as JSON: event id and type, the group that parked it, attempts, the last error
  bus:replay-dead-letters [--topic T] [--group G] [--id EVENT_ID] [--dry-run]
                                publish parked messages (all, or those of topic T, group G, event EVENT_ID) again on
                                their original topic, once the cause is fixed; prints what was replayed as JSON. Safe
                                to repeat: every consumer's inbox drops an event it already handled
  events:reconcile [--dry-run]  find committed public events of every service that never reached its bus topic (relays
                                before the log-cursor fix could skip some) and publish them; prints a report as JSON.
                                Safe to run while the platform runs: consumers' inboxes drop what arrives twice
`;

/** Every service whose events table is relayed to a topic, with its event catalogue: only public events belong there. */
const RELAYED_SERVICES: { service: string; catalogue: EventCatalogue }[] = (['identity', 'accounts', 'quoting', 'payments', 'cards', 'agents'] as const).map((service) => ({
  service,
  catalogue: EVENT_CATALOGUES[service],
}));

/** Operator CLI. Works on DATABASE_URL, or on the embedded database of `npm start` (running or not). */
async function main(argv: string[]): Promise<number> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { name: { type: 'string' }, role: { type: 'string' }, help: { type: 'boolean' }, id: { type: 'string' }, all: { type: 'boolean' }, 'dry-run': { type: 'boolean' }, connector: { type: 'string' }, topic: { type: 'string' }, group: { type: 'string' } },
  });
  const command = positionals[0];
  // rails:import alone takes an argument (the file).
  if (values.help || positionals.length !== (command === 'rails:import' ? 2 : 1)) return usage(values.help ? 0 : 2, command === 'rails:import' && !values.help ? 'rails:import needs FILE' : undefined);
  if (!['platform:create', 'operator:create', 'operator:list', 'operator:disable', 'ledger:check', 'events:reconcile', 'db:migrate', 'rails:import', 'bus:dead-letters', 'bus:replay-dead-letters'].includes(command) && !command.startsWith('webhooks:')) return usage(2, `unknown command ${command}`);
  if (command === 'operator:create' && (!values.name?.trim() || !isOperatorRole(values.role))) return usage(2, 'operator:create needs --name NAME and --role ADMIN|REVIEWER|VIEWER');
  if (command === 'operator:disable' && !values.id) return usage(2, 'operator:disable needs --id ID');
  if (command === 'webhooks:redeliver' && !values.id === !values.all) return usage(2, 'webhooks:redeliver needs --id ID or --all');
  if (command === 'platform:create' && !values.name?.trim()) return usage(2, 'platform:create needs --name NAME');

  const config = loadConfig();
  const { url, embedded } = await database(config);
  const bus = createEventBus({ kafkaBrokers: config.kafkaBrokers, databaseUrl: url, clientId: 'admin', namespace: config.busNamespace });
  try {
    if (command === 'db:migrate') return await migrate(url, bus, config);
    if (command === 'ledger:check') return await ledgerCheck(url, bus, config);
    if (command === 'rails:import') return await railsImport(url, bus, config, positionals[1], values.connector);
    if (command === 'events:reconcile') return await reconcileEvents(url, bus, values['dry-run'] === true);
    if (command === 'bus:dead-letters') return await listDeadLetters(bus, values.topic);
    if (command === 'bus:replay-dead-letters') return await replayDeadLetters(bus, { topic: values.topic, group: values.group, eventId: values.id, dryRun: values['dry-run'] === true });
    if (command.startsWith('webhooks:')) return await webhooks(url, command, values);
    const { Identity } = await import('@payments/identity');
    const identity = await Identity.open({
      databaseUrl: url,
      bus,
      topic: serviceTopic('identity'),
      secretHashKey: loadSecretHashKey(process.env.SECRET_HASH_KEY, join(config.dataDir, 'secret-hash.key')),
      sandboxTimeScale: config.sandboxTimeScale,
    });
    try {
      // The events are in the identity log (the outbox): the platform's relay publishes them when it runs.
      const output = await identityCommand(identity, command, values);
      process.stdout.write(`${JSON.stringify(output, null, 2)}\n`);
      return 0;
    } finally {
      await identity.host.stop();
    }
  } finally {
    await bus.close();
    await embedded?.stop();
  }
}

/** platform:create and the operator commands, on identity's log and read models. */
async function identityCommand(identity: Identity, command: string, values: { name?: string; role?: string; id?: string }): Promise<unknown> {
  if (command === 'operator:create') return identity.operators.create(values.name!, values.role as OperatorRole);
  if (command === 'operator:list') return identity.operators.list();
  if (command === 'operator:disable') {
    await identity.operators.disable(values.id!);
    return { disabled: values.id };
  }
  return identity.platforms.create(values.name!);
}

async function migrate(url: string, bus: EventBus, config: RuntimeConfig): Promise<number> {
  const { migratePlatform } = await import('@payments/platform');
  const applied = await migratePlatform(config, url, bus);
  process.stdout.write(`${JSON.stringify({ applied }, null, 2)}\n`);
  return 0;
}

async function ledgerCheck(url: string, bus: EventBus, config: RuntimeConfig): Promise<number> {
  const [{ Accounts, checkLedger, recordLedgerCheckRun }, { checkCardLedger }] = await Promise.all([import('@payments/accounts'), import('@payments/cards')]);
  const accounts = await Accounts.open({ databaseUrl: url, bus, topic: serviceTopic('accounts'), sandboxTimeScale: config.sandboxTimeScale });
  try {
    const violations: { rule: string }[] = await checkLedger(accounts.host.dataSource, accounts.host.store);
    const [{ n }] = await accounts.host.dataSource.query(`SELECT count(*)::int AS n FROM ledger_accounts`);
    // The cards side: what each card transaction says the card network holds, against its funding account's postings.
    const cards = await openServiceDatabase({ url, schema: 'cards', poolSizeMax: 2 });
    try {
      const [{ present }] = await cards.query(`SELECT to_regclass('cards.card_transactions') IS NOT NULL AS present`);
      if (present) violations.push(...(await checkCardLedger(cards, accounts.host.dataSource)));
    } finally {
      await cards.destroy();
    }
    // The accounts service exposes the last outcome on /metrics (payments_ledger_check_*), for alerts.
    await recordLedgerCheckRun(accounts.host.dataSource, { accountsChecked: n, violations });
    process.stdout.write(`${JSON.stringify({ accountsChecked: n, violations }, null, 2)}\n`);
    return violations.length === 0 ? 0 : 1;
  } finally {
    await accounts.host.stop();
  }
}

/**
 * rails:import: the payments service opened as it boots (the same rails configuration and options), not started:
 * the import records the outcomes and schedules their application, which the running payments service's timers do.
 */
async function railsImport(url: string, bus: EventBus, config: RuntimeConfig, file: string, connectorId: string | undefined): Promise<number> {
  let content: Buffer;
  try {
    content = readFileSync(file);
  } catch (error) {
    process.stderr.write(`rails:import: cannot read ${file}: ${(error as Error).message}\n`);
    return 1;
  }
  // Read like the platform's (RuntimeConfig); without connectors no file could match, so say what is missing.
  if (config.rails.connectors.length === 0) {
    process.stderr.write('rails:import: no rail connectors are configured: set RAILS_CONFIG_FILE or RAILS_CONFIG as the platform has it\n');
    return 1;
  }
  const [{ ApiError, configureProductionRails }, { Payments, paymentsOptions }] = await Promise.all([import('@payments/contracts'), import('@payments/payments')]);
  configureProductionRails(config.rails);
  const secretHashKey = loadSecretHashKey(process.env.SECRET_HASH_KEY, join(config.dataDir, 'secret-hash.key'));
  const payments = await Payments.open(paymentsOptions(config, { databaseUrl: url, bus, log: () => undefined }, secretHashKey));
  try {
    const result = await payments.rails.importFile({ ...(connectorId ? { connectorId } : {}), name: basename(file), content, importedBy: 'admin-cli' });
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    return 0;
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    process.stderr.write(`rails:import: ${file} was not imported: ${error.message}\n`);
    return 1;
  } finally {
    await payments.host.stop();
  }
}

/** events:reconcile: each service's log against its topic; what never arrived is published (unless --dry-run). */
async function reconcileEvents(url: string, bus: EventBus, dryRun: boolean): Promise<number> {
  const { PostgresEventStore, reconcileRelay } = await import('@payments/eventsourcing');
  const reports = [];
  for (const { service, catalogue } of RELAYED_SERVICES) {
    const dataSource = await openServiceDatabase({ url, schema: service, poolSizeMax: 2 });
    try {
      const [{ present }] = await dataSource.query(`SELECT to_regclass($1) IS NOT NULL AS present`, [`${service}.events`]);
      if (!present) continue; // that service never ran on this database
      const topic = serviceTopic(service);
      const publishedIds = await bus.publishedEventIds(topic);
      const report = await reconcileRelay({ db: dataSource, store: new PostgresEventStore(service), topic, publishedIds, catalogue, publisher: dryRun ? undefined : bus });
      reports.push({ service, ...report });
    } finally {
      await dataSource.destroy();
    }
  }
  process.stdout.write(`${JSON.stringify({ dryRun, services: reports }, null, 2)}
`);
  return 0;
}

/** The service topics consumers read (every relayed service's), or the one named. */
function busTopics(topic?: string): string[] {
  return topic ? [topic] : RELAYED_SERVICES.map(({ service }) => serviceTopic(service));
}

/** bus:dead-letters: what consumers parked, per topic, without the envelopes' payloads (they may name customers). */
async function listDeadLetters(bus: EventBus, topic?: string): Promise<number> {
  const letters = [];
  for (const t of busTopics(topic)) letters.push(...(await bus.deadLetters(t)).map(deadLetterView));
  process.stdout.write(`${JSON.stringify(letters, null, 2)}\n`);
  return 0;
}

/**
 * bus:replay-dead-letters: each selected dead letter's envelope published again on its original topic, with its key.
 * Every group of that topic receives it; those that handled it already drop it (inbox), the one that parked it
 * handles it now. A message that never decoded cannot be replayed: it is reported, and the exit code is 1.
 */
async function replayDeadLetters(bus: EventBus, filter: { topic?: string; group?: string; eventId?: string; dryRun: boolean }): Promise<number> {
  const replayed = [];
  const unreplayable = [];
  for (const topic of busTopics(filter.topic)) {
    for (const letter of await bus.deadLetters(topic)) {
      if ((filter.group && letter.source.group !== filter.group) || (filter.eventId && letter.eventId !== filter.eventId)) continue;
      if (!letter.envelope) {
        unreplayable.push({ ...deadLetterView(letter), reason: 'the parked message is not an event envelope' });
        continue;
      }
      if (!filter.dryRun) await bus.publish(letter.source.topic || topic, [letter.envelope]);
      replayed.push(deadLetterView(letter));
    }
  }
  process.stdout.write(`${JSON.stringify({ dryRun: filter.dryRun, replayed, unreplayable }, null, 2)}\n`);
  return unreplayable.length > 0 || (filter.eventId && replayed.length === 0) ? 1 : 0;
}

function deadLetterView(letter: DeadLetter) {
  return { eventId: letter.eventId, type: letter.type, key: letter.key, topic: letter.source.topic, group: letter.source.group, offset: letter.source.offset, attempts: letter.attempts, error: letter.error, deadLetteredAt: letter.deadLetteredAt, dlqPosition: letter.dlqPosition };
}

/** Dead letters of the webhook dispatcher: listed, or requeued (a running dispatcher picks them up at its next poll). */
async function webhooks(url: string, command: string, values: { id?: string; all?: boolean }): Promise<number> {
  const [{ asTransactional, eventsourcingMigrations, runMigrations }, { DeliveryQueue, webhooksMigrations }] = await Promise.all([import('@payments/eventsourcing'), import('@payments/webhooks')]);
  const dataSource = await openServiceDatabase({ url, schema: 'webhooks', poolSizeMax: 2 });
  try {
    await runMigrations(asTransactional(dataSource), 'webhooks', [eventsourcingMigrations, webhooksMigrations]);
    const queue = new DeliveryQueue(asTransactional(dataSource));
    if (command === 'webhooks:dead-letters') {
      const rows = await queue.deadLetters();
      const view = rows.map((r) => ({ webhookId: r.webhook_id, platformId: r.platform_id, mode: r.mode, type: r.type, reason: r.dead_reason, attempts: r.attempts, lastStatus: r.last_status, lastError: r.last_error, createdAt: r.created_at }));
      process.stdout.write(`${JSON.stringify(view, null, 2)}\n`);
      return 0;
    }
    if (command !== 'webhooks:redeliver') return usage(2, `unknown command ${command}`);
    const requeued = await queue.redeliver(values.all ? { all: true } : { webhookId: values.id! });
    process.stdout.write(`${JSON.stringify({ requeued }, null, 2)}\n`);
    return values.id && requeued.length === 0 ? 1 : 0; // an id that is not a dead letter is an operator error
  } finally {
    await dataSource.destroy();
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
