import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { timingSafeEqual } from 'node:crypto';
import { RailCallbackBody, RailPaymentOrder, RailPaymentStatus, RailPaymentStatusValue, RailProtocolError, readRailPaymentOrder, signRailCallback } from '@payments/rails';
import type { BridgeConfig } from './config';
import { Faults, FaultsError, patchFaults } from './faults';

interface Held {
  order: RailPaymentOrder;
  /** The order as compared for idempotency: key order does not matter, content does. */
  canonical: string;
  history: RailPaymentStatus[];
  settleTimer?: NodeJS.Timeout;
  /** Callbacks of one payment go out one after the other, in the order the changes happened (unless a fault says otherwise). */
  callbacks: Promise<void>;
}

export interface ReceivedSubmit {
  at: string;
  idempotencyKey: string | null;
  body: unknown;
  answeredStatus?: number;
}

export interface SentCallback {
  at: string;
  webhookId: string;
  paymentId: string;
  status: RailPaymentStatusValue;
  sequence: number;
  /** The receiver's HTTP status, or the error when there was no answer. */
  answer: number | string;
}

const MAX_BODY_BYTES = 64 * 1024;
const CALLBACK_ATTEMPTS = 5;
const CALLBACK_TIMEOUT_MS = 5_000;

const canonical = (value: unknown): string =>
  JSON.stringify(value, (_key, v: unknown) =>
    typeof v === 'object' && v !== null && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v,
  );

class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly reasonCode: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The reference bridge: the generic HTTP rail connector's protocol (docs/rails/http-connector.openapi.yaml) served
 * from memory, a settlement after a delay, signed callbacks, and the control API that scripts failures.
 */
export class ReferenceBridge {
  private readonly payments = new Map<string, Held>();
  private readonly submits: ReceivedSubmit[] = [];
  private readonly callbacksSent: SentCallback[] = [];
  private faults: Faults = {};
  private references = 0;
  private readonly timers = new Set<NodeJS.Timeout>();
  readonly server: Server;

  constructor(private readonly config: BridgeConfig) {
    this.server = createServer((req, res) => {
      this.route(req, res).catch((error: unknown) => {
        if (error instanceof HttpError) return this.json(res, error.status, { reasonCode: error.reasonCode, reasonMessage: error.message });
        process.stderr.write(`rail-bridge-reference: ${error instanceof Error ? error.stack : String(error)}\n`);
        this.json(res, 500, { reasonCode: 'INTERNAL', reasonMessage: 'internal error' });
      });
    });
  }

  listen(): Promise<number> {
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(this.config.port, this.config.host, () => resolve((this.server.address() as { port: number }).port));
    });
  }

  async close(): Promise<void> {
    for (const timer of this.timers) clearTimeout(timer);
    for (const held of this.payments.values()) clearTimeout(held.settleTimer);
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private async route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://bridge');
    const path = url.pathname;
    this.authenticate(req);
    if (path === '/payments') return this.only(req, 'POST', () => this.submit(req, res));
    const paymentPath = /^\/payments\/([^/]+)$/.exec(path);
    if (paymentPath) return this.only(req, 'GET', () => this.status(decodeURIComponent(paymentPath[1]), res));
    if (path.startsWith('/_control/')) return this.control(req, res, path);
    throw new HttpError(404, 'NOT_FOUND', `no route ${req.method} ${path}`);
  }

  private async only(req: IncomingMessage, method: string, handle: () => Promise<void> | void): Promise<void> {
    if (req.method !== method) throw new HttpError(405, 'METHOD_NOT_ALLOWED', `${req.method} not allowed here`);
    await handle();
  }

  private authenticate(req: IncomingMessage): void {
    const header = req.headers.authorization ?? '';
    const given = Buffer.from(header.startsWith('Bearer ') ? header.slice('Bearer '.length) : '', 'utf8');
    const expected = Buffer.from(this.config.apiKey, 'utf8');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw new HttpError(401, 'UNAUTHORIZED', 'missing or wrong bearer API key');
  }

  // ---- the protocol ----

  private async submit(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = await readBody(req);
    const key = typeof req.headers['idempotency-key'] === 'string' ? req.headers['idempotency-key'] : null;
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch {
      parsed = raw;
    }
    const received: ReceivedSubmit = { at: new Date().toISOString(), idempotencyKey: key, body: parsed };
    this.submits.push(received);
    const answer = (status: number, body: unknown) => {
      received.answeredStatus = status;
      this.json(res, status, body);
    };

    const fail = this.faults.failSubmits;
    if (fail && fail.count > 0 && !fail.afterAccept) {
      fail.count--;
      if (fail.status === 429) res.setHeader('retry-after', '1');
      return answer(fail.status, { reasonCode: fail.status === 429 ? 'RATE_LIMITED' : 'UNAVAILABLE', reasonMessage: 'scripted failure' });
    }
    const hang = this.faults.hangSubmits;
    if (hang && hang.count > 0 && !hang.afterAccept) {
      hang.count--;
      return this.later(hang.ms, () => answer(503, { reasonCode: 'UNAVAILABLE', reasonMessage: 'scripted hang' }));
    }

    const outcome = await this.take(key, parsed);

    if (fail && fail.count > 0 && fail.afterAccept) {
      fail.count--;
      return answer(500, { reasonCode: 'UNAVAILABLE', reasonMessage: 'scripted failure after the order was taken' });
    }
    if (hang && hang.count > 0 && hang.afterAccept) {
      hang.count--;
      return this.later(hang.ms, () => answer(outcome.status, outcome.body));
    }
    answer(outcome.status, outcome.body);
  }

  /** The order taken (or refused) as the protocol says; answers what the submit is to answer. */
  private async take(key: string | null, parsed: unknown): Promise<{ status: number; body: unknown }> {
    let order: RailPaymentOrder;
    try {
      order = readRailPaymentOrder(parsed);
    } catch (error) {
      if (error instanceof RailProtocolError) return { status: 400, body: { reasonCode: 'INVALID_REQUEST', reasonMessage: error.message } };
      throw error;
    }
    if (key === null) return { status: 400, body: { reasonCode: 'INVALID_REQUEST', reasonMessage: 'Idempotency-Key header is required' } };
    if (key !== order.id) return { status: 400, body: { reasonCode: 'INVALID_REQUEST', reasonMessage: 'Idempotency-Key must equal the payment id' } };
    const form = canonical(order);
    const held = this.payments.get(order.id);
    if (held) {
      if (held.canonical !== form) return { status: 409, body: { reasonCode: 'IDEMPOTENCY_CONFLICT', reasonMessage: `payment ${order.id} was submitted with another body` } };
      return { status: 200, body: current(held) };
    }
    const reject = this.faults.rejectAccountSuffix;
    const accountNumber = order.counterparty.accountInfo.accountNumber;
    const rejected = reject && typeof accountNumber === 'string' && accountNumber.endsWith(reject.suffix) ? reject : undefined;
    if (rejected?.at === 'submit') return { status: 422, body: { reasonCode: rejected.reasonCode, reasonMessage: rejected.reasonMessage } };

    const first: RailPaymentStatus = { id: order.id, status: 'PENDING', providerReference: `REF${String(++this.references).padStart(8, '0')}`, updatedAt: new Date().toISOString(), sequence: 1 };
    const entry: Held = { order, canonical: form, history: [first], callbacks: Promise.resolve() };
    this.payments.set(order.id, entry);
    const settle = () =>
      this.change(entry, rejected ? { status: 'REJECTED', reasonCode: rejected.reasonCode, reasonMessage: rejected.reasonMessage } : { status: 'SETTLED' });
    if (this.faults.callbackBeforeAnswer) {
      await settle(); // the callback is delivered (or given up on) before the submit is answered
    } else {
      entry.settleTimer = setTimeout(() => void settle(), this.config.settleAfterMs);
    }
    return { status: 201, body: first };
  }

  private status(id: string, res: ServerResponse): void {
    const held = this.payments.get(id);
    if (!held) throw new HttpError(404, 'NOT_FOUND', `no payment ${id}`);
    this.json(res, 200, current(held));
  }

  /** A new status for the payment, and its callback (which the returned promise waits for). */
  private change(held: Held, next: Pick<RailPaymentStatus, 'status' | 'reasonCode' | 'reasonMessage'>): Promise<void> {
    clearTimeout(held.settleTimer);
    const last = current(held);
    const status: RailPaymentStatus = { ...last, reasonCode: undefined, reasonMessage: undefined, ...next, updatedAt: new Date().toISOString(), sequence: last.sequence + 1 };
    for (const field of ['reasonCode', 'reasonMessage'] as const) if (status[field] === undefined) delete status[field];
    held.history.push(status);
    const sends = [status];
    if (this.faults.duplicateCallbacks) sends.push(status);
    if (this.faults.staleCallbacks) sends.push(held.history[0]);
    held.callbacks = held.callbacks.then(async () => {
      for (const each of sends) await this.deliver(held.order.callbackUrl, each);
    });
    return held.callbacks;
  }

  /** One callback, signed, retried a few times when the receiver does not answer 2xx. */
  private async deliver(callbackUrl: string, status: RailPaymentStatus): Promise<void> {
    const callback: RailCallbackBody = { type: 'payment.updated', data: status };
    const body = JSON.stringify(callback);
    const webhookId = `${status.id}.${status.sequence}`;
    for (let attempt = 1; attempt <= CALLBACK_ATTEMPTS; attempt++) {
      const headers = signRailCallback(this.config.callbackSecret, webhookId, Math.floor(Date.now() / 1000), body);
      let answer: number | string;
      try {
        const response = await fetch(callbackUrl, { method: 'POST', headers, body, redirect: 'manual', signal: AbortSignal.timeout(CALLBACK_TIMEOUT_MS) });
        await response.arrayBuffer();
        answer = response.status;
      } catch (error) {
        answer = error instanceof Error ? error.message : String(error);
      }
      this.callbacksSent.push({ at: new Date().toISOString(), webhookId, paymentId: status.id, status: status.status, sequence: status.sequence, answer });
      if (typeof answer === 'number' && answer >= 200 && answer < 300) return;
      if (typeof answer === 'number' && answer === 400) return; // the receiver refused it for good (bad signature or body): retrying sends the same
      await new Promise((resolve) => this.later(100 * 2 ** attempt, () => resolve(undefined)));
    }
  }

  // ---- the control API (a conformance-testing aid; README.md) ----

  private async control(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    if (path === '/_control/faults') {
      if (req.method === 'GET') return this.json(res, 200, this.faults);
      if (req.method === 'POST') {
        try {
          this.faults = patchFaults(this.faults, parseJson(await readBody(req)));
        } catch (error) {
          if (error instanceof FaultsError) throw new HttpError(400, 'INVALID_FAULTS', error.message);
          throw error;
        }
        return this.json(res, 200, this.faults);
      }
      if (req.method === 'DELETE') {
        this.faults = {};
        return this.json(res, 200, this.faults);
      }
      throw new HttpError(405, 'METHOD_NOT_ALLOWED', `${req.method} not allowed here`);
    }
    if (path === '/_control/received') {
      return this.only(req, 'GET', () =>
        this.json(res, 200, { submits: this.submits, callbacks: this.callbacksSent, payments: [...this.payments.values()].map((held) => ({ order: held.order, history: held.history })) }),
      );
    }
    if (path === '/_control/reset') {
      return this.only(req, 'POST', () => {
        for (const held of this.payments.values()) clearTimeout(held.settleTimer);
        this.payments.clear();
        this.submits.length = 0;
        this.callbacksSent.length = 0;
        this.faults = {};
        res.writeHead(204).end();
      });
    }
    const action = /^\/_control\/payments\/([^/]+)\/(settle|return)$/.exec(path);
    if (action) {
      return this.only(req, 'POST', async () => {
        const held = this.payments.get(decodeURIComponent(action[1]));
        if (!held) throw new HttpError(404, 'NOT_FOUND', `no payment ${action[1]}`);
        const now = current(held).status;
        if (action[2] === 'settle') {
          if (now !== 'PENDING') throw new HttpError(409, 'NOT_PENDING', `payment is ${now}, only a PENDING payment settles`);
          await this.change(held, { status: 'SETTLED' });
        } else {
          if (now !== 'SETTLED') throw new HttpError(409, 'NOT_SETTLED', `payment is ${now}, only a SETTLED payment is returned`);
          const body = parseJson(await readBody(req)) as { reasonCode?: unknown; reasonMessage?: unknown };
          if (typeof body !== 'object' || body === null || typeof body.reasonCode !== 'string' || body.reasonCode === '') throw new HttpError(400, 'INVALID_REQUEST', 'body must be { reasonCode, reasonMessage? }');
          await this.change(held, { status: 'RETURNED', reasonCode: body.reasonCode, reasonMessage: typeof body.reasonMessage === 'string' ? body.reasonMessage : `returned (${body.reasonCode})` });
        }
        this.json(res, 200, current(held));
      });
    }
    throw new HttpError(404, 'NOT_FOUND', `no control route ${path}`);
  }

  private later(ms: number, run: () => void): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      run();
    }, ms);
    this.timers.add(timer);
  }

  private json(res: ServerResponse, status: number, body: unknown): void {
    if (res.headersSent || res.destroyed) return;
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  }
}

const current = (held: Held): RailPaymentStatus => held.history[held.history.length - 1];

function parseJson(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    throw new HttpError(400, 'INVALID_REQUEST', 'body is not JSON');
  }
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(new HttpError(413, 'TOO_LARGE', `body larger than ${MAX_BODY_BYTES} bytes`));
        req.resume();
        return;
      }
      chunks.push(chunk);
    });
    req.once('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.once('error', reject);
  });
}
