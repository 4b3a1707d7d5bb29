import { createServer, Server } from 'node:http';

export interface ReceivedWebhook {
  webhookId: string;
  type: string;
  /** The request path: each platform of the run has its own (`url(name)`). */
  path: string;
}

/**
 * The platform's webhook endpoint during a run: records every delivery and answers 200. It lives in the chaos
 * process, so it stays up while the platform is killed; a webhook it recorded was really delivered.
 */
export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  private constructor(private readonly server: Server) {}

  static async start(): Promise<WebhookReceiver> {
    // Our own socket, bound at once: listen(0) cannot lose its port to someone else in between.
    const server = createServer();
    const receiver = new WebhookReceiver(server);
    server.on('request', (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        let body: { id?: string; type?: string } = {};
        try {
          body = JSON.parse(Buffer.concat(chunks).toString());
        } catch {
          // recorded by header only
        }
        const header = req.headers['webhook-id'];
        receiver.received.push({ webhookId: String(body.id ?? header ?? ''), type: String(body.type ?? ''), path: req.url ?? '' });
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    return receiver;
  }

  /** The endpoint of one platform of the run. */
  url(name: string): string {
    return `http://127.0.0.1:${(this.server.address() as { port: number }).port}/hooks/${name}`;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((done) => this.server.close(() => done()));
  }
}
