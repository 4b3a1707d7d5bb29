import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';

/** One POST as the receiver saw it: raw body bytes (as text), headers, when it arrived. */
export interface ReceivedWebhook {
  path: string;
  headers: Record<string, string>;
  body: string;
  json: { id: string; type: string; timestamp: string; data: any };
  at: number;
}

export type Responder = (hook: ReceivedWebhook, nth: number) => { status: number; body?: string; delayMs?: number; headers?: Record<string, string> };

/**
 * A real local HTTP endpoint for webhook tests: every request is recorded; each path answers with its responder
 * (200 by default). `stop` and `start` on the same port simulate an endpoint that is down.
 */
export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  private readonly responders = new Map<string, Responder>();
  private server?: Server;
  port = 0;

  async start(port = this.port): Promise<this> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(port, '127.0.0.1', resolve));
    this.port = (this.server.address() as { port: number }).port;
    return this;
  }

  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  }

  url(path: string): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  respond(path: string, responder: Responder): void {
    this.responders.set(path, responder);
  }

  at(path: string, type?: string): ReceivedWebhook[] {
    return this.received.filter((r) => r.path === path && (!type || r.json.type === type));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
    const hook: ReceivedWebhook = { path: req.url ?? '/', headers, body, json: JSON.parse(body || '{}'), at: Date.now() };
    this.received.push(hook);
    const nth = this.received.filter((r) => r.path === hook.path).length;
    const answer = this.responders.get(hook.path)?.(hook, nth) ?? { status: 200, body: 'ok' };
    if (answer.delayMs) await new Promise((r) => setTimeout(r, answer.delayMs));
    if (!res.destroyed) res.writeHead(answer.status, { 'content-type': 'text/plain', ...answer.headers }).end(answer.body ?? '');
  }
}
