import { ident } from './sql';
import { Client } from 'pg';
import { describeError, LogFn } from './log';

/**
 * One dedicated connection doing LISTEN on a channel and waking whoever registered for the notification's
 * payload (a bus topic; '' for event-store appends). Best effort:
 * the loops also poll, so a lost connection only costs latency until it is back (it reconnects on its own).
 */
export class PgNotificationListener {
  private client?: Client;
  private connecting?: Promise<void>;
  private reconnectTimer?: NodeJS.Timeout;
  private stopped = false;
  private readonly wakers = new Map<string, Set<() => void>>();

  constructor(
    private readonly databaseUrl: string,
    private readonly channel: string,
    private readonly applicationName: string,
    private readonly log: LogFn,
    private readonly reconnectMs = 1_000,
  ) {}

  /** Calls `wake` on each notification for `topic`; returns the function that unregisters it. */
  on(topic: string, wake: () => void): () => void {
    const set = this.wakers.get(topic) ?? new Set();
    set.add(wake);
    this.wakers.set(topic, set);
    return () => set.delete(wake);
  }

  start(): Promise<void> {
    if (this.stopped || this.client) return Promise.resolve();
    this.connecting ??= this.connect().finally(() => (this.connecting = undefined));
    return this.connecting;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.reconnectTimer);
    await this.connecting;
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    const client = new Client({
      connectionString: this.databaseUrl,
      application_name: `${this.applicationName}:listen`,
      connectionTimeoutMillis: 10_000,
      keepAlive: true, // an idle LISTEN connection would otherwise not notice a dead peer
    });
    client.on('notification', (message) => this.wakers.get(message.payload ?? '')?.forEach((wake) => wake()));
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client, new Error('connection ended')));
    try {
      await client.connect();
      await client.query(`LISTEN ${ident(this.channel)}`);
    } catch (error) {
      this.log('warn', 'listener could not connect; its readers keep polling', { error: describeError(error) });
      await client.end().catch(() => undefined);
      this.scheduleReconnect();
      return;
    }
    if (this.stopped) {
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
    // Notifications sent while there was no listener are gone: wake everyone once to re-read.
    this.wakers.forEach((set) => set.forEach((wake) => wake()));
  }

  private lost(client: Client, error: Error): void {
    if (this.client !== client || this.stopped) return;
    this.client = undefined;
    this.log('warn', 'listener connection lost; reconnecting', { error: describeError(error) });
    client.end().catch(() => undefined);
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    if (this.stopped) return;
    clearTimeout(this.reconnectTimer);
    this.reconnectTimer = setTimeout(() => void this.start(), this.reconnectMs);
  }
}
