import { createServer, Server } from 'node:http';

/** A platform's webhook endpoint on loopback: records every POST and answers with the status it is told to. */
export class WebhookEndpoint {
  readonly received: { type: string; data: { id?: string }; id: string }[] = [];
  status = 200;
  private server?: Server;
  port = 0;

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        try {
          this.received.push(JSON.parse(Buffer.concat(chunks).toString('utf8')));
        } catch {
          // not a webhook; answered all the same
        }
        res.writeHead(this.status).end();
      });
    });
    await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', r));
    this.port = (this.server.address() as { port: number }).port;
    return this;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}/hooks`;
  }

  about(resourceId: string): { type: string; id: string }[] {
    return this.received.filter((w) => w.data?.id === resourceId);
  }

  async stop(): Promise<void> {
    await new Promise<void>((r) => (this.server ? this.server.close(() => r()) : r()));
    this.server?.closeAllConnections();
  }
}
