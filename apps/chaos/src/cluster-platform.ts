import { existsSync, readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { Client } from 'pg';
import { OwnPostgres } from '@payments/embedded-postgres';
import { AppProcess, UnexpectedExit } from './app-process';
import { KafkaBroker } from './kafka-broker';
import { freePort, PlatformProcess, PlatformProcessOptions, REPO_ROOT, runEnv } from './platform-process';
import { TcpBalancer } from './tcp-balancer';

export interface ClusterPlatformOptions extends Omit<PlatformProcessOptions, 'databaseUrl' | 'kafkaBrokers'> {
  /** The run's database; unset with `ownPostgres`. */
  databaseUrl?: string;
  /** A PostgreSQL server of the run's own (restartPostgres needs it): its `postgres` database is the run's. */
  ownPostgres?: boolean;
  /** Comma-separated brokers; unset with `ownKafka`. The cluster mode needs Kafka (no PostgreSQL-log bus). */
  kafkaBrokers?: string;
  /** A Kafka broker of the run's own (restartKafka needs it). */
  ownKafka?: boolean;
  /** Replicas of every app (2, as the chart deploys them). */
  replicas?: number;
  /** The apps to run (default: every cluster-mode app). */
  apps?: readonly string[];
}

/** What a run drives, the one-process platform or the cluster alike (run.ts uses these). */
export type PlatformUnderTest = Pick<PlatformProcess, 'origin' | 'env' | 'running' | 'output' | 'unexpectedExits' | 'start' | 'kill' | 'stop'>;

/** One replica of an app: its process and where it binds (distinct ports, so replicas share this host). */
interface Replica {
  app: string;
  index: number;
  process: AppProcess;
  /** The balancer port this replica is a backend of: its RPC server's, or the gateway's API. */
  port: number;
  opsPort: number;
}

const mainOf = (app: string) => resolve(REPO_ROOT, `dist/apps/${app}/src/main.js`);

/** Built apps that are not cluster-mode apps: the one-process launcher, the bench, chaos and the reference rail bridge. */
const NOT_CLUSTER_APPS = ['launcher', 'bench', 'chaos', 'rail-bridge-reference'];

/**
 * The cluster-mode apps (what the chart deploys): every built app but those. deploy/cluster-apps.ts has the list the
 * chart's checks use; it is not part of the build (nor of the image's build stage), so the cold-start spec checks
 * the two agree.
 */
export function clusterApps(): string[] {
  return readdirSync(resolve(REPO_ROOT, 'apps'))
    .filter((app) => !NOT_CLUSTER_APPS.includes(app) && existsSync(mainOf(app)))
    .sort();
}

/** `wallet-auth` → `WALLET_AUTH`: the app's prefix in the environment (as deploy/cluster-apps.ts's envPrefixOf). */
const envPrefixOf = (app: string) => app.toUpperCase().replace(/-/g, '_');

/**
 * The cluster as the chart deploys it, on this machine: every cluster-mode app (clusterApps()) as `replicas`
 * processes of its own, each binding its own RPC (RPC_BIND_PORT), API and ops ports, and per service a round-robin
 * balancer in this process standing in for its Service: callers dial `<APP>_RPC_HOST:<APP>_RPC_PORT` = the balancer,
 * and so do clients of the API (`origin`). A balancer routes only to replicas that are ready (/readyz 200), as a
 * Service's endpoints. Optionally the run's own PostgreSQL server and Kafka broker, to crash and bring back.
 *
 * The same surface as PlatformProcess where it means the same (create, start, stop, kill, env, origin, running,
 * output), so a run can drive either; a kill of the cluster is a kill of every replica.
 */
export class ClusterPlatform implements PlatformUnderTest {
  private readonly balancers = new Map<string, TcpBalancer>();
  private readonly replicas: Replica[][] = [];

  private constructor(
    private readonly options: ClusterPlatformOptions,
    readonly apps: readonly string[],
    /** The settings every replica shares: what the admin CLI needs to work on the same database. */
    readonly env: NodeJS.ProcessEnv,
    readonly postgres: OwnPostgres | undefined,
    readonly kafka: KafkaBroker | undefined,
  ) {}

  static async create(options: ClusterPlatformOptions): Promise<ClusterPlatform> {
    const apps = options.apps ?? clusterApps();
    for (const app of apps) if (!existsSync(mainOf(app))) throw new Error(`${mainOf(app)} is missing: run npm run build first`);
    if (!options.ownPostgres && !options.databaseUrl) throw new Error('a cluster needs databaseUrl or ownPostgres');
    if (!options.ownKafka && !options.kafkaBrokers) throw new Error('the cluster mode needs Kafka: kafkaBrokers or ownKafka');
    // Every replica's pools, listeners and bus loops are connections: 18 processes need a few hundred.
    const postgres = options.ownPostgres ? await OwnPostgres.start({ port: await freePort(), maxConnections: 400 }) : undefined;
    let kafka: KafkaBroker | undefined;
    try {
      kafka = options.ownKafka ? await KafkaBroker.start() : undefined;
    } catch (error) {
      postgres?.destroy();
      throw error;
    }
    const databaseUrl = postgres?.url() ?? options.databaseUrl!;
    const env = runEnv({ ...options, databaseUrl, kafkaBrokers: kafka?.brokers ?? options.kafkaBrokers });
    const platform = new ClusterPlatform(options, apps, env, postgres, kafka);
    const replicas = options.replicas ?? 2;
    // Where each service is dialled (its balancer), known to every replica of every app.
    const servicePorts = new Map<string, number>();
    for (const app of apps) {
      const port = await freePort();
      servicePorts.set(app, port);
      if (app === 'gateway') env.PORT = String(port);
      else {
        env[`${envPrefixOf(app)}_RPC_HOST`] = '127.0.0.1';
        env[`${envPrefixOf(app)}_RPC_PORT`] = String(port);
      }
    }
    env.PUBLIC_URL = platform.origin; // what a deployment sets: the links it hands out point at the balancer
    Object.assign(env, options.extraEnv);
    for (const app of apps) {
      const own: Replica[] = [];
      for (let index = 0; index < replicas; index++) {
        const port = await freePort();
        const opsPort = await freePort();
        const replicaEnv: NodeJS.ProcessEnv =
          app === 'gateway' ? { ...env, PORT: String(port), GATEWAY_OPS_PORT: String(opsPort) } : { ...env, RPC_BIND_PORT: String(port), [`${envPrefixOf(app)}_OPS_PORT`]: String(opsPort) };
        const label = `${app}#${index}`;
        own.push({ app, index, port, opsPort, process: new AppProcess({ label, main: mainOf(app), cwd: REPO_ROOT, env: replicaEnv, opsOrigin: `http://127.0.0.1:${opsPort}`, verbose: options.verbose }) });
      }
      platform.replicas.push(own);
    }
    return platform;
  }

  /** The gateway's API as clients reach it: through its balancer (a LoadBalancer Service). */
  get origin(): string {
    return `http://127.0.0.1:${this.env.PORT}`;
  }

  /** The run's database (the admin CLI and the checks connect to it). */
  get databaseUrl(): string {
    return this.env.DATABASE_URL!;
  }

  /** Every replica is running. */
  get running(): boolean {
    return this.replicas.every((own) => own.every((r) => r.process.running));
  }

  /** Every replica's last output, for failure messages. */
  output(): string {
    return this.replicas.flatMap((own) => own.map((r) => `--- ${r.process.label} (${r.process.running ? 'running' : 'not running'})\n${r.process.output()}`)).join('\n');
  }

  /** Exits no one asked for (a replica that crashed at start, say), in the order they happened. */
  get unexpectedExits(): UnexpectedExit[] {
    return this.replicas.flatMap((own) => own.flatMap((r) => r.process.unexpectedExits));
  }

  /** The ops origin of one replica (/healthz, /readyz, /metrics). */
  opsOrigin(app: string, index: number): string {
    return `http://127.0.0.1:${this.replica(app, index).opsPort}`;
  }

  /**
   * Starts the balancers (once) and every replica at the same moment, as a first install (or a whole-cluster restart)
   * does; resolves when every replica's /readyz answers 200, rejects at the first that exits or is late.
   */
  async start(timeoutMs = 180_000): Promise<void> {
    for (const own of this.replicas) {
      const app = own[0].app;
      if (this.balancers.has(app)) continue;
      const port = Number(app === 'gateway' ? this.env.PORT : this.env[`${envPrefixOf(app)}_RPC_PORT`]);
      const balancer = await TcpBalancer.start(own.map((r) => ({ host: '127.0.0.1', port: r.port })), port);
      for (const r of own) balancer.markDown(r.index); // endpoints only once ready
      this.balancers.set(app, balancer);
    }
    const all = this.replicas.flat();
    for (const r of all) r.process.spawn();
    await Promise.all(all.map((r) => this.routeWhenReady(r, timeoutMs)));
  }

  /** SIGKILL of one replica: its balancer stops routing to it at once, its connections drop. */
  async killReplica(app: string, index: number): Promise<void> {
    const r = this.replica(app, index);
    this.balancers.get(app)?.markDown(index);
    await r.process.kill();
  }

  /** Starts one replica again (same ports and settings) and routes to it once it is ready. */
  async startReplica(app: string, index: number, timeoutMs = 120_000): Promise<void> {
    const r = this.replica(app, index);
    r.process.spawn();
    await this.routeWhenReady(r, timeoutMs);
  }

  /** SIGKILL of every replica (the whole cluster crashed); start() brings them all back. */
  async kill(): Promise<void> {
    for (const [app, balancer] of this.balancers) for (const r of this.replicas.find((own) => own[0].app === app)!) balancer.markDown(r.index);
    await Promise.all(this.replicas.flat().map((r) => r.process.kill()));
  }

  /** Crashes the run's own PostgreSQL server (`pg_ctl stop -m immediate`) and starts it again `downMs` later. */
  async restartPostgres({ downMs = 0 }: { downMs?: number } = {}): Promise<void> {
    if (!this.postgres) throw new Error('restartPostgres needs ownPostgres');
    await this.postgres.restart({ downMs });
  }

  /** SIGKILLs the run's own Kafka broker and starts the same broker (its data kept) `downMs` later. */
  async restartKafka({ downMs = 0 }: { downMs?: number } = {}): Promise<void> {
    if (!this.kafka) throw new Error('restartKafka needs ownKafka');
    await this.kafka.restart({ downMs });
  }

  /**
   * SIGTERM to every replica (a clean stop). The balancers, PostgreSQL and Kafka of our own stay, so start() can
   * bring the cluster back on the same data; dispose() ends those too.
   */
  async stop(timeoutMs = 30_000): Promise<void> {
    for (const [app, balancer] of this.balancers) for (const r of this.replicas.find((own) => own[0].app === app)!) balancer.markDown(r.index);
    await Promise.all(this.replicas.flat().map((r) => r.process.stop(timeoutMs)));
  }

  /** Stops every replica, then the balancers, the broker and the PostgreSQL server of our own (their data removed). */
  async dispose(): Promise<void> {
    await this.stop().catch(() => undefined);
    for (const balancer of this.balancers.values()) await balancer.close();
    this.balancers.clear();
    await this.kafka?.stop();
    this.postgres?.destroy();
  }

  /** A query on the run's database, for checks that look at the stored state. */
  async query<T = Record<string, unknown>>(sql: string, params: unknown[] = []): Promise<T[]> {
    const client = new Client({ connectionString: this.databaseUrl, application_name: 'chaos-cluster' });
    await client.connect();
    try {
      return (await client.query(sql, params)).rows as T[];
    } finally {
      await client.end();
    }
  }

  private replica(app: string, index: number): Replica {
    const r = this.replicas.find((own) => own[0].app === app)?.[index];
    if (!r) throw new Error(`no replica ${index} of ${app} (apps: ${this.apps.join(', ')}; ${this.options.replicas ?? 2} replicas each)`);
    return r;
  }

  private async routeWhenReady(r: Replica, timeoutMs: number): Promise<void> {
    await r.process.waitReady(timeoutMs);
    this.balancers.get(r.app)?.markUp(r.index);
  }
}
