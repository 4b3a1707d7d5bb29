import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { http, HttpResult } from '@payments/testing';
import { startTestPlatform, TestPlatform, TestTenant } from './test-platform';

/**
 * The console's server side over real HTTP: sign-in and its cookie, the CSRF check on every write, the API reached
 * through the session with the same tenancy, mode and role rules as any client, sign-out, and its static files. The
 * browser itself is driven in apps/console/e2e.
 */
describe('console sessions and the API through them', () => {
  let t: TestPlatform;
  let origin: string;
  let other: TestTenant & { platformId: string };
  let consoleDir: string;
  const previousDir = process.env.CONSOLE_DIR;

  beforeAll(async () => {
    // Built files of our own: what is served is tested apart from whether `vite build` ran.
    consoleDir = mkdtempSync(join(tmpdir(), 'pp-console-files-'));
    mkdirSync(join(consoleDir, 'assets'));
    writeFileSync(join(consoleDir, 'index.html'), '<!doctype html><title>console</title><script type="module" src="/console/assets/app-1.js"></script>');
    writeFileSync(join(consoleDir, 'assets', 'app-1.js'), 'console.log(1)');
    process.env.CONSOLE_DIR = consoleDir;
    t = await startTestPlatform({ TRUST_PROXY: '1' });
    origin = new URL(t.url).origin;
    other = (await t.createTenant('Console other')) as TestTenant & { platformId: string };
  }, 60_000);

  afterAll(async () => {
    await t?.stop();
    process.env.CONSOLE_DIR = previousDir;
    if (previousDir === undefined) delete process.env.CONSOLE_DIR;
    rmSync(consoleDir, { recursive: true, force: true });
  });

  const raw = (method: string, path: string, options: { body?: unknown; rawBody?: string; headers?: Record<string, string> } = {}) => http(method, `${origin}${path}`, options);

  interface Signed {
    cookie: string;
    csrf: string;
    setCookie: string;
    body: { principal: Record<string, string>; csrfToken: string; expiresAt: string };
  }

  async function signIn(audience: 'platform' | 'operator', clientId: string, clientSecret: string, headers: Record<string, string> = {}): Promise<Signed> {
    const res = await raw('POST', '/console/session', { body: { audience, clientId, clientSecret }, headers });
    expect(res.status).toBe(201);
    const setCookie = res.headers.get('set-cookie')!;
    return { cookie: setCookie.split(';')[0], csrf: res.body.csrfToken, setCookie, body: res.body };
  }

  const withSession = (s: Signed, method: string, path: string, options: { body?: unknown; csrf?: string | null; headers?: Record<string, string> } = {}) =>
    raw(method, `/console/api${path}`, {
      body: options.body,
      headers: { cookie: s.cookie, ...(options.csrf === null ? {} : { 'x-csrf-token': options.csrf ?? s.csrf }), ...(method === 'POST' ? { 'idempotency-key': `k-${Math.random()}` } : {}), ...options.headers },
    });

  const expectEnvelope = (res: HttpResult, status: number, code: string) => expect({ status: res.status, code: res.body?.code }).toEqual({ status, code });

  it('GET / is a small page naming the console, both API references and health, under a strict policy', async () => {
    const res = await raw('GET', '/');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    expect(res.headers.get('content-security-policy')).toMatch(/^default-src 'none'; style-src 'sha256-[A-Za-z0-9+/=]+'/);
    for (const href of ['/console', '/docs', '/operator/v1/docs', '/openapi.json']) expect(res.body).toContain(`href="${href}"`);
    expect(res.body).toContain('/healthz');
  });

  it('signs in with platform credentials: an HttpOnly SameSite=Strict cookie, the mode, a CSRF token; no secret anywhere but sealed', async () => {
    const sandbox = t.bootstrap.SANDBOX;
    const s = await signIn('platform', sandbox.clientId, sandbox.clientSecret);
    expect(s.setCookie).toMatch(/^console_session=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Strict$/);
    expect(s.body.principal).toEqual({ audience: 'platform', platformId: expect.stringMatching(/^Platform:/), mode: 'SANDBOX', clientId: sandbox.clientId });
    expect(JSON.stringify(s.body)).not.toContain(sandbox.clientSecret);
    const rows: { session_hash: string; sealed_secret: string }[] = await rowsOf(`SELECT session_hash, sealed_secret FROM gateway.console_sessions`);
    const value = s.cookie.split('=')[1];
    expect(rows.some((r) => r.session_hash === value || r.sealed_secret.includes(sandbox.clientSecret))).toBe(false);
    expect(rows.every((r) => r.sealed_secret.startsWith('v1:'))).toBe(true);
    expect((await raw('GET', '/console/session', { headers: { cookie: s.cookie } })).body.csrfToken).toBe(s.csrf);
  });

  it('over TLS (X-Forwarded-Proto behind a trusted proxy) the cookie is __Host- and Secure', async () => {
    const s = await signIn('platform', t.bootstrap.SANDBOX.clientId, t.bootstrap.SANDBOX.clientSecret, { 'x-forwarded-proto': 'https' });
    expect(s.setCookie).toMatch(/^__Host-console_session=[^;]+; Path=\/; HttpOnly; Secure; SameSite=Strict$/);
    expect((await withSession(s, 'GET', '/config')).status).toBe(200);
  });

  it('refuses wrong credentials with the envelope, no cookie and no Basic challenge (a browser would prompt)', async () => {
    const res = await raw('POST', '/console/session', { body: { audience: 'platform', clientId: t.bootstrap.SANDBOX.clientId, clientSecret: 'wrong' } });
    expectEnvelope(res, 401, 'UNAUTHORIZED');
    expect(res.headers.get('set-cookie')).toBeNull();
    expect(res.headers.get('www-authenticate')).toBeNull();
    // Operator credentials are no platform's, and the reverse.
    const operator = await t.createOperator('VIEWER', 'Vic');
    expectEnvelope(await raw('POST', '/console/session', { body: { audience: 'platform', clientId: operator.clientId, clientSecret: operator.clientSecret } }), 401, 'UNAUTHORIZED');
    expectEnvelope(await raw('POST', '/console/session', { body: { audience: 'operator', clientId: t.bootstrap.SANDBOX.clientId, clientSecret: t.bootstrap.SANDBOX.clientSecret } }), 401, 'UNAUTHORIZED');
  });

  it.each([
    ['no body', undefined],
    ['an unknown audience', { audience: 'admin', clientId: 'a', clientSecret: 'b' }],
    ['a client id with a colon', { audience: 'platform', clientId: 'a:b', clientSecret: 'c' }],
    ['a secret that is not a string', { audience: 'platform', clientId: 'a', clientSecret: 7 }],
    ['an oversized secret', { audience: 'platform', clientId: 'a', clientSecret: 'x'.repeat(600) }],
  ])('refuses a sign-in with %s: 400 naming the problem', async (_what, body) => {
    const res = await raw('POST', '/console/session', body === undefined ? { headers: { 'content-type': 'application/json' } } : { body });
    expectEnvelope(res, 400, 'INVALID_INPUT');
  });

  it('without a session, or with a forged or ended one, the console API is 401 with no challenge', async () => {
    for (const cookie of [undefined, 'console_session=forged', `console_session=${'A'.repeat(43)}`, `console_session=${'x'.repeat(5000)}`]) {
      const res = await raw('GET', '/console/api/config', { headers: cookie ? { cookie } : {} });
      expectEnvelope(res, 401, 'UNAUTHORIZED');
      expect(res.headers.get('www-authenticate')).toBeNull();
    }
  });

  it('every write needs the session’s CSRF token; reads do not; the API answers as it would the credential', async () => {
    const s = await signIn('platform', t.bootstrap.SANDBOX.clientId, t.bootstrap.SANDBOX.clientSecret);
    const direct = await t.call('GET', '/config');
    const viaConsole = await withSession(s, 'GET', '/config', { csrf: null });
    expect(viaConsole.status).toBe(200);
    expect(viaConsole.body).toEqual(direct.body);
    expect(viaConsole.headers.get('cache-control')).toBe('no-store');
    const body = { customerType: 'INDIVIDUAL', fullName: 'Csrf Check' };
    expectEnvelope(await withSession(s, 'POST', '/customers', { body, csrf: null }), 403, 'FORBIDDEN');
    expectEnvelope(await withSession(s, 'POST', '/customers', { body, csrf: 'x'.repeat(43) }), 403, 'FORBIDDEN');
    expectEnvelope(await withSession(s, 'PATCH', '/config', { body: { umaDomain: 'x.example.com' }, csrf: null }), 403, 'FORBIDDEN');
    const created = await withSession(s, 'POST', '/customers', { body });
    expect(created.status).toBe(201);
    // The API's own validation and envelope, untouched.
    expectEnvelope(await withSession(s, 'POST', '/customers', { body: { customerType: 'NOBODY' } }), 400, 'INVALID_INPUT');
    // Another session's token is not this one's.
    const second = await signIn('platform', t.bootstrap.SANDBOX.clientId, t.bootstrap.SANDBOX.clientSecret);
    expectEnvelope(await withSession(s, 'POST', '/customers', { body, csrf: second.csrf }), 403, 'FORBIDDEN');
  });

  it('keeps tenants and modes apart: another platform’s ids are 404, sandbox routes do not exist for a production session', async () => {
    const mine = await signIn('platform', t.bootstrap.SANDBOX.clientId, t.bootstrap.SANDBOX.clientSecret);
    const theirs = (await t.call('POST', '/customers', { auth: other.sandbox, body: { customerType: 'INDIVIDUAL', fullName: 'Not Yours' } })).body.id;
    expect((await withSession(mine, 'GET', `/customers/${encodeURIComponent(theirs)}`)).status).toBe(404);
    const production = await signIn('platform', t.bootstrap.PRODUCTION.clientId, t.bootstrap.PRODUCTION.clientSecret);
    expect(production.body.principal.mode).toBe('PRODUCTION');
    const account = (await withSession(mine, 'GET', '/customers/internal-accounts?limit=1')).body.data[0]?.id ?? 'InternalAccount:00000000-0000-0000-0000-000000000000';
    const fund = await withSession(production, 'POST', `/sandbox/internal-accounts/${encodeURIComponent(account)}/fund`, { body: { amount: 100 } });
    expectEnvelope(fund, 404, 'NOT_FOUND');
    // A platform session reaches the platform API only: the operator API's paths are no platform routes.
    expect((await withSession(mine, 'GET', '/kyc-reviews')).status).toBe(404);
  });

  it('an operator session reaches the operator API with the operator’s role, and nothing of a platform', async () => {
    const viewer = await t.createOperator('VIEWER', 'Viola');
    const s = await signIn('operator', viewer.clientId, viewer.clientSecret);
    expect(s.body.principal).toMatchObject({ audience: 'operator', name: 'Viola', role: 'VIEWER' });
    expect((await withSession(s, 'GET', '/kyc-reviews')).status).toBe(200);
    expectEnvelope(await withSession(s, 'PUT', '/rates/USD/EUR', { body: { rate: 0.9 } }), 403, 'FORBIDDEN'); // VIEWER cannot set rates
    expect((await withSession(s, 'GET', '/config')).status).toBe(404);
  });

  it('no path escapes the API it is bound to', async () => {
    const s = await signIn('platform', t.bootstrap.SANDBOX.clientId, t.bootstrap.SANDBOX.clientSecret);
    // Sent byte for byte (fetch would resolve the dot segments itself before sending).
    for (const path of ['/console/api/../../operator/v1/me', '/console/api/%2e%2e/%2e%2e/operator/v1/me', '/console/api/.%2E/.%2e/operator/v1/me', '/console/api//operator/v1/me', '/console/api/%2Foperator%2Fv1%2Fme', '/console/api/customers/%2e%2e/%2e%2e/%2e%2e/operator/v1/me']) {
      const res = await rawPath(path, s.cookie);
      expect({ path, status: res.status }).toEqual({ path, status: 404 });
      expect(JSON.parse(res.body).code).toBe('NOT_FOUND');
    }
  });

  it('a deleted token ends what its sessions can do at once', async () => {
    const token = (await t.call('POST', '/tokens', { body: { name: 'console-session', permissions: ['VIEW'] } })).body;
    const s = await signIn('platform', token.clientId, token.clientSecret);
    expect((await withSession(s, 'GET', '/config')).status).toBe(200);
    expect((await t.call('DELETE', `/tokens/${token.id}`)).status).toBe(204);
    expectEnvelope(await withSession(s, 'GET', '/config'), 401, 'UNAUTHORIZED');
  });

  it('signing out needs the CSRF token, clears the cookie and ends the session on the server', async () => {
    const s = await signIn('platform', t.bootstrap.SANDBOX.clientId, t.bootstrap.SANDBOX.clientSecret);
    expectEnvelope(await raw('DELETE', '/console/session', { headers: { cookie: s.cookie } }), 403, 'FORBIDDEN');
    const out = await raw('DELETE', '/console/session', { headers: { cookie: s.cookie, 'x-csrf-token': s.csrf } });
    expect(out.status).toBe(204);
    expect(out.headers.get('set-cookie')).toMatch(/^console_session=; Max-Age=0; Path=\/; HttpOnly; SameSite=Strict$/);
    expectEnvelope(await withSession(s, 'GET', '/config'), 401, 'UNAUTHORIZED');
    expectEnvelope(await raw('GET', '/console/session', { headers: { cookie: s.cookie } }), 401, 'UNAUTHORIZED');
  });

  it('serves the built files: the app for its own paths, hashed assets cached for good, a missing file 404, all under the CSP', async () => {
    for (const path of ['/console', '/console/customers/Customer:1', '/console/transactions']) {
      const res = await raw('GET', path);
      expect(res.status).toBe(200);
      expect(res.body).toContain('<title>console</title>');
      expect(res.headers.get('cache-control')).toBe('no-cache');
      expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
      expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    }
    const asset = await raw('GET', '/console/assets/app-1.js');
    expect(asset.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expectEnvelope(await raw('GET', '/console/assets/missing.js'), 404, 'NOT_FOUND');
    expectEnvelope(await raw('GET', '/console/favicon.ico'), 404, 'NOT_FOUND');
    expect((await raw('GET', '/console/../package.json')).status).toBe(404);
  });

  /** A GET whose path goes out exactly as written. */
  function rawPath(path: string, cookie: string): Promise<{ status: number; body: string }> {
    const { hostname, port } = new URL(origin);
    return new Promise((resolve, reject) => {
      const req = request({ host: hostname, port, path, method: 'GET', headers: { cookie } }, (res) => {
        let body = '';
        res.on('data', (c) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode!, body }));
      });
      req.on('error', reject);
      req.end();
    });
  }

  async function rowsOf(sql: string) {
    return t.platform.identity.host.dataSource.query(sql);
  }
});
