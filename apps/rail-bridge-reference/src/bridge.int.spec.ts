import { ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createServer, Server } from 'node:http';
import { resolve } from 'node:path';
import { HttpRailClient, nextRailStatus, RailCallbackError, RailPaymentOrder, RailPaymentStatus, RailStatusPosition, signRailCallback, verifyRailCallback } from '@payments/rails';
import { EgressClient, egressFetch } from '@payments/runtime';
import { eventually, freePort } from '@payments/testing';

const BRIDGE_MAIN = resolve(__dirname, '../../../dist/apps/rail-bridge-reference/src/main.js');
const API_KEY = randomBytes(24).toString('hex');
const SECRET = `whsec_${randomBytes(24).toString('base64')}`;
const CLIENT_TIMEOUT_MS = 800;

interface Received {
  webhookId: string;
  status?: RailPaymentStatus;
  refused?: string;
}

/**
 * The reference bridge as its own process (the built dist, as `npm test` builds first), driven by HttpRailClient
 * through the platform's egress client, its callbacks received over loopback and verified as the platform will.
 */
describe('HttpRailClient against the reference bridge', () => {
  let bridge: ChildProcess;
  let bridgeUrl: string;
  let receiver: Server;
  let callbackUrl: string;
  const received: Received[] = [];
  let output = '';

  beforeAll(async () => {
    if (!existsSync(BRIDGE_MAIN)) throw new Error(`${BRIDGE_MAIN} is missing: run npm run build first (npm test does it in pretest)`);
    receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const webhookId = String(req.headers['webhook-id']);
        try {
          received.push({ webhookId, status: verifyRailCallback(SECRET, req.headers, Buffer.concat(chunks).toString('utf8')) });
          res.writeHead(204).end();
        } catch (error) {
          if (!(error instanceof RailCallbackError)) throw error;
          received.push({ webhookId, refused: error.message });
          res.writeHead(400).end();
        }
      });
    });
    const receiverPort = await freePort();
    await new Promise<void>((done) => receiver.listen(receiverPort, '127.0.0.1', done));
    callbackUrl = `http://127.0.0.1:${receiverPort}/rails/callbacks`;

    const port = await freePort();
    bridgeUrl = `http://127.0.0.1:${port}`;
    bridge = spawn(process.execPath, [BRIDGE_MAIN], {
      env: { PATH: process.env.PATH, PORT: String(port), BRIDGE_API_KEY: API_KEY, BRIDGE_CALLBACK_SECRET: SECRET, BRIDGE_SETTLE_AFTER_MS: '300' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    bridge.stdout!.on('data', (c: Buffer) => (output += c.toString()));
    bridge.stderr!.on('data', (c: Buffer) => (output += c.toString()));
    await eventually(async () => output.includes('listening on') || (bridge.exitCode !== null && Promise.reject(new Error(output))), { what: 'the bridge to listen' });
    expect(output).not.toContain(API_KEY);
    expect(output).not.toContain(SECRET.slice('whsec_'.length));
  });

  afterAll(async () => {
    if (bridge && bridge.exitCode === null) {
      const exited = new Promise((done) => bridge.once('exit', done));
      bridge.kill('SIGTERM');
      await exited;
    }
    receiver?.closeAllConnections();
    await new Promise((done) => receiver?.close(done));
  });

  beforeEach(async () => {
    expect((await control('POST', '/_control/reset')).status).toBe(204);
    received.length = 0;
  });

  const control = (method: string, path: string, body?: unknown) =>
    fetch(`${bridgeUrl}${path}`, { method, headers: { authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  const faults = async (patch: unknown) => expect((await control('POST', '/_control/faults', patch)).status).toBe(200);
  type AtBridge = { submits: { idempotencyKey: string; answeredStatus?: number }[]; payments: { history: RailPaymentStatus[] }[] };
  const atBridge = async () => (await (await control('GET', '/_control/received')).json()) as AtBridge;

  /** The production path: the egress client (loopback allowed, as in local development) behind the client's fetch. */
  const client = (options: { apiKey?: string; allowPrivateNetworks?: boolean } = {}) =>
    new HttpRailClient({
      baseUrl: bridgeUrl,
      apiKey: options.apiKey ?? API_KEY,
      timeoutMs: CLIENT_TIMEOUT_MS,
      fetch: egressFetch(new EgressClient({ allowPrivateNetworks: options.allowPrivateNetworks ?? true }), { purpose: 'rail bridge', timeoutMs: CLIENT_TIMEOUT_MS }),
    });
  let counter = 0;
  const order = (accountNumber = '123456789'): RailPaymentOrder => ({
    id: `pay_${Date.now()}_${++counter}`,
    direction: 'CREDIT',
    amount: 25_000,
    currency: 'USD',
    paymentRail: 'ACH',
    counterparty: { accountInfo: { accountType: 'US_ACCOUNT', accountNumber, routingNumber: '021000021' }, beneficiary: { name: 'Ada Lovelace', type: 'INDIVIDUAL' } },
    reference: 'Payout 42',
    callbackUrl,
  });
  const callbacksOf = (id: string) => received.filter((r) => r.status?.id === id).map((r) => r.status!);
  /** Applies reports in arrival order as the platform will; answers each decision and the final position. */
  const applyAll = (reports: RailPaymentStatus[]) => {
    let position: RailStatusPosition | undefined;
    const decisions = reports.map((report) => {
      const { apply } = nextRailStatus(position, report);
      if (apply) position = report;
      return [`${report.status}#${report.sequence}`, apply] as const;
    });
    return { decisions, final: position };
  };

  it('accepts a payment, then settles it with a signed callback the platform verifies', async () => {
    const payment = order();
    const submitted = await client().submit(payment);
    expect(submitted).toEqual({ kind: 'accepted', status: { id: payment.id, status: 'PENDING', providerReference: expect.any(String), updatedAt: expect.any(String), sequence: 1 } });
    await eventually(async () => callbacksOf(payment.id).length > 0, { what: 'the settlement callback' });
    expect(received.filter((r) => r.refused)).toEqual([]);
    const [settled] = callbacksOf(payment.id);
    expect(settled).toMatchObject({ status: 'SETTLED', sequence: 2 });
    expect(applyAll([submitted.kind === 'accepted' ? submitted.status : settled, settled]).decisions).toEqual([['PENDING#1', true], ['SETTLED#2', true]]);
  });

  it('polls: PENDING before settlement, SETTLED after, unknown for a payment never accepted', async () => {
    const payment = order();
    expect((await client().submit(payment)).kind).toBe('accepted');
    expect(await client().status(payment.id)).toMatchObject({ kind: 'found', status: { status: 'PENDING', sequence: 1 } });
    await eventually(async () => {
      const polled = await client().status(payment.id);
      return polled.kind === 'found' && polled.status.status === 'SETTLED' && polled;
    }, { what: 'polling to find SETTLED' });
    expect(await client().status('pay_never_sent')).toEqual({ kind: 'unknown' });
  });

  it('a 500 after the bridge took the order, then a retry with the same key: one payment at the bridge', async () => {
    await faults({ failSubmits: { status: 500, count: 1, afterAccept: true } });
    const payment = order();
    expect(await client().submit(payment)).toEqual({ kind: 'retry', reason: expect.stringContaining('500') });
    expect(await client().submit(payment)).toMatchObject({ kind: 'accepted', status: { id: payment.id, sequence: 1 } });
    const seen = await atBridge();
    expect(seen.submits.map((s) => [s.idempotencyKey, s.answeredStatus])).toEqual([[payment.id, 500], [payment.id, 200]]);
    expect(seen.payments).toHaveLength(1);
  });

  it('a 429 takes nothing; the retry creates the payment', async () => {
    await faults({ failSubmits: { status: 429, count: 1 } });
    const payment = order();
    expect(await client().submit(payment)).toEqual({ kind: 'retry', reason: expect.stringContaining('429') });
    expect((await atBridge()).payments).toHaveLength(0);
    expect(await client().submit(payment)).toMatchObject({ kind: 'accepted' });
    expect((await atBridge()).submits.map((s) => s.answeredStatus)).toEqual([429, 201]);
  });

  it('a submit that times out is retried with the same key: one payment at the bridge', async () => {
    await faults({ hangSubmits: { count: 1, ms: 5_000 } });
    const payment = order();
    const started = Date.now();
    expect(await client().submit(payment)).toEqual({ kind: 'retry', reason: expect.stringMatching(/timed out|no answer within/) });
    expect(Date.now() - started).toBeLessThan(CLIENT_TIMEOUT_MS + 1_000);
    // the bridge took the order before hanging, so the retry answers that payment as it now stands (settled or not)
    expect(await client().submit(payment)).toMatchObject({ kind: 'accepted', status: { id: payment.id, status: expect.stringMatching(/PENDING|SETTLED/) } });
    const seen = await atBridge();
    expect(seen.submits.map((s) => s.idempotencyKey)).toEqual([payment.id, payment.id]);
    expect(seen.payments).toHaveLength(1);
  });

  it('the same key with another body is a conflict, and the bridge keeps the first order', async () => {
    const payment = order();
    expect((await client().submit(payment)).kind).toBe('accepted');
    expect(await client().submit({ ...payment, amount: payment.amount + 1 })).toEqual({ kind: 'conflict', reason: expect.stringContaining(payment.id) });
    // the same order with its keys in another order is the same order
    const reordered = Object.fromEntries(Object.entries(payment).reverse()) as unknown as RailPaymentOrder;
    expect((await client().submit(reordered)).kind).toBe('accepted');
    const seen = await atBridge();
    expect(seen.submits.map((s) => s.answeredStatus)).toEqual([201, 409, 200]);
    expect(seen.payments).toHaveLength(1);
  });

  it('rejects an account by its number’s suffix at submit (nothing held) or at settlement (a REJECTED callback)', async () => {
    await faults({ rejectAccountSuffix: { suffix: '0002', reasonCode: 'ACCOUNT_CLOSED', reasonMessage: 'the account is closed' } });
    const refused = order('1230002');
    expect(await client().submit(refused)).toEqual({ kind: 'rejected', reasonCode: 'ACCOUNT_CLOSED', reasonMessage: 'the account is closed' });
    expect(await client().status(refused.id)).toEqual({ kind: 'unknown' });
    expect((await client().submit(order('1230003'))).kind).toBe('accepted');

    await faults({ rejectAccountSuffix: { suffix: '0002', reasonCode: 'NO_ACCOUNT', at: 'settlement' } });
    const later = order('4560002');
    expect(await client().submit(later)).toMatchObject({ kind: 'accepted', status: { status: 'PENDING' } });
    const [rejected] = await eventually(async () => callbacksOf(later.id).length > 0 && callbacksOf(later.id), { what: 'the REJECTED callback' });
    expect(rejected).toMatchObject({ status: 'REJECTED', reasonCode: 'NO_ACCOUNT', sequence: 2 });
  });

  it('duplicate and out-of-order callbacks (RETURNED, then an older PENDING) leave the payment RETURNED', async () => {
    await faults({ duplicateCallbacks: true, staleCallbacks: true });
    const payment = order();
    const submitted = await client().submit(payment);
    if (submitted.kind !== 'accepted') throw new Error(`not accepted: ${JSON.stringify(submitted)}`);
    await eventually(async () => callbacksOf(payment.id).length === 3, { what: 'SETTLED twice, then the stale PENDING' });
    const returned = await control('POST', `/_control/payments/${payment.id}/return`, { reasonCode: 'R01', reasonMessage: 'insufficient funds' });
    expect(returned.status).toBe(200);
    await eventually(async () => callbacksOf(payment.id).length === 6, { what: 'RETURNED twice, then the stale PENDING' });
    expect(received.filter((r) => r.refused)).toEqual([]);
    const { decisions, final } = applyAll([submitted.status, ...callbacksOf(payment.id)]);
    expect(decisions).toEqual([
      ['PENDING#1', true],
      ['SETTLED#2', true],
      ['SETTLED#2', false],
      ['PENDING#1', false],
      ['RETURNED#3', true],
      ['RETURNED#3', false],
      ['PENDING#1', false],
    ]);
    expect(final).toMatchObject({ status: 'RETURNED', sequence: 3 });
    expect(callbacksOf(payment.id)[3]).toMatchObject({ reasonCode: 'R01', reasonMessage: 'insufficient funds' });
  });

  it('a callback that arrives before the submit’s answer wins over the older status in that answer', async () => {
    await faults({ callbackBeforeAnswer: true });
    const payment = order();
    const submitted = await client().submit(payment);
    if (submitted.kind !== 'accepted') throw new Error(`not accepted: ${JSON.stringify(submitted)}`);
    const early = callbacksOf(payment.id); // already here when the answer came
    expect(early).toEqual([expect.objectContaining({ status: 'SETTLED', sequence: 2 })]);
    expect(submitted.status).toMatchObject({ status: 'PENDING', sequence: 1 });
    expect(applyAll([...early, submitted.status]).decisions).toEqual([['SETTLED#2', true], ['PENDING#1', false]]);
  });

  it('a callback signed with another secret is refused by the verifier (and the bridge sees 400)', async () => {
    const payment = order();
    expect((await client().submit(payment)).kind).toBe('accepted');
    await eventually(async () => callbacksOf(payment.id).length > 0, { what: 'the settlement callback' });
    // what arrived verifies with the shared secret only
    const otherSecret = `whsec_${randomBytes(24).toString('base64')}`;
    const body = JSON.stringify({ type: 'payment.updated', data: callbacksOf(payment.id)[0] });
    const headers = signRailCallback(otherSecret, 'x', Math.floor(Date.now() / 1000), body);
    const answer = await fetch(callbackUrl, { method: 'POST', headers, body });
    expect(answer.status).toBe(400);
    expect(received.at(-1)).toEqual({ webhookId: 'x', refused: expect.stringContaining('does not match') });
  });

  it('wrong credentials are a retry with a clear reason, and the bridge holds nothing', async () => {
    expect(await client({ apiKey: 'not-the-key-0000000000' }).submit(order())).toEqual({ kind: 'retry', reason: 'bridge refused our credentials' });
    expect(await client({ apiKey: 'not-the-key-0000000000' }).status('pay_x')).toEqual({ kind: 'retry', reason: 'bridge refused our credentials' });
    expect((await atBridge()).payments).toHaveLength(0);
  });

  it('through the egress client, a bridge on a private address is refused unless private networks are allowed', async () => {
    expect(await client({ allowPrivateNetworks: false }).submit(order())).toEqual({ kind: 'retry', reason: expect.stringContaining('refused: 127.0.0.1 is a') });
    expect((await atBridge()).submits).toHaveLength(0);
  });
});
