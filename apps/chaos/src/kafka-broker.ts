import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { freePort, REPO_ROOT, sleep } from './platform-process';

const run = promisify(execFile);
const KAFKA_SH = resolve(REPO_ROOT, 'deploy/local/kafka.sh');

/**
 * A Kafka broker of the run's own (deploy/local/kafka.sh under a temporary KAFKA_HOME_DIR, on free ports), so a run
 * can SIGKILL it and start the same broker again on its data (`kafka.sh kill`, then `start`) without touching the
 * broker other test runs share. The jars are the repository's copy (`.kafka/lib`, fetched there once).
 */
export class KafkaBroker {
  private constructor(
    private readonly env: NodeJS.ProcessEnv,
    private readonly home: string,
    readonly port: number,
  ) {}

  static async start(): Promise<KafkaBroker> {
    const home = mkdtempSync(join(tmpdir(), 'pp-own-kafka-'));
    const port = await freePort();
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      KAFKA_HOME_DIR: home,
      KAFKA_LIB_DIR: resolve(REPO_ROOT, '.kafka/lib'),
      KAFKA_PORT: String(port),
      KAFKA_CONTROLLER_PORT: String(await freePort()),
      KAFKA_HEAP_OPTS: process.env.KAFKA_HEAP_OPTS || '-Xms128m -Xmx512m',
    };
    const broker = new KafkaBroker(env, home, port);
    try {
      await broker.script('start');
    } catch (error) {
      rmSync(home, { recursive: true, force: true });
      throw error;
    }
    return broker;
  }

  /** KAFKA_BROKERS of the platform. */
  get brokers(): string {
    return `127.0.0.1:${this.port}`;
  }

  /** SIGKILL (no clean shutdown), down for `downMs`, then the same broker on its data and ports again. */
  async restart({ downMs = 0 }: { downMs?: number } = {}): Promise<void> {
    await this.script('kill');
    await sleep(downMs);
    await this.script('start');
  }

  async stop(): Promise<void> {
    await this.script('stop').catch(() => undefined);
    rmSync(this.home, { recursive: true, force: true });
  }

  private async script(command: 'start' | 'stop' | 'kill'): Promise<void> {
    try {
      await run('bash', [KAFKA_SH, command], { env: this.env, timeout: 180_000 });
    } catch (error) {
      const e = error as { stdout?: string; stderr?: string; message: string };
      throw new Error(`kafka.sh ${command} failed: ${e.message}\n${e.stdout ?? ''}${e.stderr ?? ''}`);
    }
  }
}
