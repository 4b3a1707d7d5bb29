import { request } from 'node:http';
import { gzipSync } from 'node:zlib';
import { OPERATOR_API_PREFIX } from '@payments/contracts';
import { API_VERSION } from '@payments/gateway';
import { startTestPlatform, TestPlatform } from './test-platform';

interface Raw {
  status: number;
  body: any;
  /** Set when the server closed the connection instead of answering. */
  reset?: boolean;
  ms: number;
}

/**
 * Nobody's body is read before they are known: credentials, the console session and its CSRF token are checked from
 * the headers, so an anonymous client cannot make the gateway inflate or buffer anything; an authenticated body is
 * held to the limits on its compressed and its decoded bytes. And the console's proxy serves only plain
 * `/`-separated paths under the API a session belongs to. All over real HTTP to a started platform.
 */
describe('authenticated before any body is read', () => {
  let t: TestPlatform;
  let origin: string;
  let operatorAuth: string;

  beforeAll(async () => {
    t = await startTestPlatform();
    origin = new URL(t.url).origin;
    operatorAuth = (await t.createOperator('ADMIN', 'auth-before-body admin')).auth;
  }, 60_000);
  afterAll(() => t?.stop());

  /** Exact path, headers and bytes (node:http: no path normalisation); a reset or an early answer both count. */
  const send = (method: string, path: string, headers: Record<string, string>, body?: Buffer | (() => AsyncIterable<Buffer>)): Promise<Raw> =>
    new Promise((resolve) => {
      const started = Date.now();
      const { hostname, port } = new URL(origin);
      let answered = false;
      const req = request({ host: hostname, port, path, method, headers, agent: false }, (res) => {
        let text = '';
        res.on('data', (c) => (text += c));
        res.on('end', () => {
          answered = true;
          resolve({ status: res.statusCode!, body: text ? JSON.parse(text) : undefined, ms: Date.now() - started });
          req.destroy(); // the rest of a streamed body is not sent once the answer is in
        });
        res.on('error', () => resolve({ status: res.statusCode!, body: undefined, ms: Date.now() - started }));
      });
      req.on('error', () => resolve({ status: 0, body: undefined, reset: true, ms: Date.now() - started }));
      if (body === undefined) return void req.end();
      if (Buffer.isBuffer(body)) return void req.end(body);
      void (async () => {
        try {
          for await (const chunk of body()) {
            if (answered || req.destroyed) return;
            if (!req.write(chunk)) await new Promise((r) => req.once('drain', r));
          }
          req.end();
        } catch {
          // the server closed the connection: the answer (or the reset) is what the test reads
        }
      })();
    });

  /** The most this process's buffers and heap grew over `baseline` while `run` ran (sampled every 5 ms). */
  async function peakGrowth(run: () => Promise<unknown>): Promise<number> {
    global.gc?.();
    const used = () => {
      const m = process.memoryUsage();
      return m.heapUsed + m.arrayBuffers;
    };
    const baseline = used();
    let peak = baseline;
    const sampler = setInterval(() => (peak = Math.max(peak, used())), 5);
    try {
      await run();
    } finally {
      clearInterval(sampler);
    }
    return Math.max(peak, used()) - baseline;
  }

  async function signIn(): Promise<{ cookie: string; csrf: string }> {
    const answer = await fetch(`${origin}/console/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ audience: 'platform', clientId: t.bootstrap.SANDBOX.clientId, clientSecret: t.bootstrap.SANDBOX.clientSecret }) });
    expect(answer.status).toBe(201);
    return { cookie: answer.headers.get('set-cookie')!.split(';')[0], csrf: ((await answer.json()) as { csrfToken: string }).csrfToken };
  }

  const bomb = gzipSync(Buffer.alloc(16 * 1024 * 1024, ' '), { level: 9 }); // ~16 KB on the wire, 16 MB decoded

  it('an anonymous gzip bomb to the console API is 401, eight at once, without the gateway inflating any of them', async () => {
    expect(bomb.length).toBeLessThan(20 * 1024);
    let answers: Raw[] = [];
    const growth = await peakGrowth(async () => {
      answers = await Promise.all(
        Array.from({ length: 8 }, () => send('POST', '/console/api/customers', { 'content-type': 'application/json', 'content-encoding': 'gzip', 'content-length': String(bomb.length), 'x-csrf-token': 'x'.repeat(43) }, bomb)),
      );
    });
    for (const answer of answers) expect({ status: answer.status, code: answer.body?.code }).toEqual({ status: 401, code: 'UNAUTHORIZED' });
    expect(growth).toBeLessThan(32 * 1024 * 1024);
  }, 60_000);

  it('a signed-in console write without its CSRF token is 403 before its body is read; with it, a bomb stops at the decoded limit (413)', async () => {
    const s = await signIn();
    const headers = { cookie: s.cookie, 'content-type': 'application/json', 'content-encoding': 'gzip', 'content-length': String(bomb.length), 'idempotency-key': `bomb-${Date.now()}` };
    let answers: Raw[] = [];
    const growth = await peakGrowth(async () => {
      answers = await Promise.all(Array.from({ length: 8 }, () => send('POST', '/console/api/customers', headers, bomb)));
    });
    for (const answer of answers) expect({ status: answer.status, code: answer.body?.code }).toEqual({ status: 403, code: 'FORBIDDEN' });
    expect(growth).toBeLessThan(32 * 1024 * 1024);
    const withCsrf = await send('POST', '/console/api/customers', { ...headers, 'x-csrf-token': s.csrf }, bomb);
    expect(withCsrf).toMatchObject({ status: 413, body: { status: 413, code: 'PAYLOAD_TOO_LARGE', message: expect.any(String) } });
  }, 60_000);

  it('an anonymous 20 MB multipart to /operator/v1/rails/imports is refused from its headers: 401 (or a reset) at once, nothing buffered', async () => {
    const boundary = 'x-boundary';
    const megabyte = Buffer.alloc(1024 * 1024, 'A');
    let sent = 0;
    const body = async function* () {
      yield Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="return.ach"\r\nContent-Type: text/plain\r\n\r\n`);
      for (let i = 0; i < 20; i++) {
        sent += megabyte.length;
        yield megabyte;
      }
      yield Buffer.from(`\r\n--${boundary}--\r\n`);
    };
    let answer: Raw | undefined;
    const growth = await peakGrowth(async () => {
      answer = await send('POST', `${OPERATOR_API_PREFIX}/rails/imports`, { 'content-type': `multipart/form-data; boundary=${boundary}`, 'transfer-encoding': 'chunked', 'idempotency-key': 'anonymous-upload' }, body);
    });
    if (!answer!.reset) expect({ status: answer!.status, code: answer!.body?.code }).toEqual({ status: 401, code: 'UNAUTHORIZED' });
    expect(growth).toBeLessThan(4 * 1024 * 1024);
    expect(answer!.ms).toBeLessThan(5_000);
    // Wrong credentials are no better than none.
    const wrong = await send('POST', `${OPERATOR_API_PREFIX}/rails/imports`, { authorization: 'Basic ' + Buffer.from('nobody:nothing').toString('base64'), 'content-type': `multipart/form-data; boundary=${boundary}`, 'transfer-encoding': 'chunked', 'idempotency-key': 'wrong-upload' }, body);
    if (!wrong.reset) expect(wrong.status).toBe(401);
    expect(sent).toBeLessThan(20 * 1024 * 1024); // the answer came before the whole body was sent
  }, 60_000);

  it('an authenticated body over the limit is 413 in the envelope, compressed or not', async () => {
    const big = Buffer.from(JSON.stringify({ name: 'x'.repeat(2 * 1024 * 1024), permissions: ['VIEW'] }));
    const plain = await send('POST', `/${API_VERSION}/tokens`, { authorization: t.tenant.sandbox, 'content-type': 'application/json', 'content-length': String(big.length), 'idempotency-key': 'big-plain' }, big);
    expect(plain.body).toEqual({ status: 413, code: 'PAYLOAD_TOO_LARGE', message: expect.any(String) });
    const compressed = await send('POST', `/${API_VERSION}/tokens`, { authorization: t.tenant.sandbox, 'content-type': 'application/json', 'content-encoding': 'gzip', 'content-length': String(bomb.length), 'idempotency-key': 'big-gzip' }, bomb);
    expect(compressed.body).toEqual({ status: 413, code: 'PAYLOAD_TOO_LARGE', message: expect.any(String) });
    const operator = await send('POST', `${OPERATOR_API_PREFIX}/rails/imports`, { authorization: operatorAuth, 'content-type': 'application/json', 'content-length': String(big.length), 'idempotency-key': 'big-operator' }, big);
    expect(operator.body).toMatchObject({ status: 413, code: 'PAYLOAD_TOO_LARGE' });
  }, 60_000);

  it('the console proxy serves plain segments only: backslashes, dot segments and encoded slashes never reach another API', async () => {
    const s = await signIn();
    const escapes = [
      '/console/api/\\..\\..\\operator\\v1\\me',
      '/console/api/%5C..%5C..%5Coperator%5Cv1%5Cme',
      '/console/api/%5c%2e%2e%5c%2e%2e%5coperator%5cv1%5cme',
      '/console/api/customers\\..\\..\\..\\operator\\v1\\me',
      '/console/api/x/%2E%2E/%2e%2e/%2e%2e/operator/v1/me',
      '/console/api/config%2F..%2F..%2Foperator%2Fv1%2Fme',
      '/console/api/.%2e/operator/v1/me',
      '/console/api//operator/v1/me',
      '/console/api/config/',
    ];
    for (const path of escapes) {
      const res = await send('GET', path, { cookie: s.cookie });
      // The operator guard would answer 401 "invalid client credentials" (it was reached with the platform credential).
      expect({ path, status: res.status, code: res.body?.code }).toEqual({ path, status: 404, code: 'NOT_FOUND' });
    }
    // A parameter may still be percent-encoded as any client would (a ':' in an id).
    expect((await send('GET', '/console/api/config', { cookie: s.cookie })).status).toBe(200);
    expect((await send('GET', '/console/api/customers/Customer%3Anone', { cookie: s.cookie })).status).toBe(404);
  }, 60_000);
});
