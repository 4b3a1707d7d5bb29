import { createServer, Server } from 'node:http';

/** One message the platform handed to the operator's email/SMS gateway (CONTACT_DELIVERY_URL). */
export interface DeliveredCode {
  customerId: string;
  channel: string;
  destination: string;
  code: string;
  purpose: string;
  sender?: Record<string, string>;
}

/** Test fixture: the operator's delivery gateway as a real HTTP server recording what production would send. */
export class ContactDeliveryRecorder {
  readonly delivered: DeliveredCode[] = [];
  private server?: Server;

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c)).on('end', () => {
        this.delivered.push(JSON.parse(body));
        res.writeHead(202).end();
      });
    });
    await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', () => r()));
    return this;
  }

  /** The value of CONTACT_DELIVERY_URL. */
  get url(): string {
    return `http://127.0.0.1:${(this.server!.address() as { port: number }).port}/send`;
  }

  stop(): void {
    this.server?.close();
  }
}
