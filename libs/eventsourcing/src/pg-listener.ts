import { Client } from 'pg';

/**
 * A dedicated connection LISTENing on channels (appends NOTIFY `<schema>_events`), so relays and subscribers wake
 * at once instead of waiting for their poll interval. Polling stays as the fallback; a lost connection reconnects.
 */
export class PgListener {
  private client?: Client;
  private closed = false;

  constructor(
    private readonly url: string,
    private readonly channels: readonly string[],
    private readonly onNotify: (channel: string) => void,
    private readonly onError: (error: unknown) => void = () => undefined,
  ) {}

  async start(): Promise<void> {
    const client = new Client({ connectionString: this.url, application_name: 'listener' });
    client.on('notification', (n) => this.onNotify(n.channel));
    client.on('error', (error) => {
      this.onError(error);
      this.reconnectLater();
    });
    await client.connect();
    for (const channel of this.channels) await client.query(`LISTEN "${channel.replace(/"/g, '')}"`);
    this.client = client;
  }

  private reconnectLater(): void {
    this.client = undefined;
    if (this.closed) return;
    setTimeout(() => {
      if (!this.closed) this.start().catch((e) => (this.onError(e), this.reconnectLater()));
    }, 1000).unref();
  }

  async stop(): Promise<void> {
    this.closed = true;
    await this.client?.end().catch(() => undefined);
    this.client = undefined;
  }
}
