import { request } from 'node:http';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { OPERATIONS, OPERATOR_API_PREFIX } from '@payments/contracts';
import { API_VERSION } from '@payments/gateway';
import { createCustomerHolder, sendForm, tinyPdf } from './test-documents';
import { startTestPlatform, TestPlatform } from './test-platform';
import { ServedRoute, servedRoutes } from './test-routes';

/**
 * Hostile bytes at every route: bodies that claim a compression they do not have, compressed bodies, JSON nested
 * 100,000 levels deep, huge arrays, NUL and unpaired surrogates in the body, the query and path parameters, and
 * whitespace-only names. Never a 500, always the envelope on an error, and no event appended on a 4xx. Routes under
 * the API prefix and the operator API's (probed as an ADMIN operator) go through the gateway's input checks, so there
 * the exact 4xx is asserted too.
 */
interface Raw {
  status: number;
  body: any;
}

const nested = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);
const nestedObjects = (levels: number) => '{"a":'.repeat(levels) + '1' + '}'.repeat(levels);
const manyElements = `{"items":[${new Array(20_000).fill(0).join(',')}]}`;
const ENCODERS: Record<string, (body: Buffer) => Buffer> = { gzip: gzipSync, deflate: deflateSync, br: brotliCompressSync };

describe('hostile input at every route', () => {
  let t: TestPlatform;
  let origin: string;
  let routes: ServedRoute[];
  let countEvents: () => Promise<number>;
  let operatorAuth: string;

  beforeAll(async () => {
    t = await startTestPlatform();
    operatorAuth = (await t.createOperator('ADMIN', 'hostile-input admin')).auth;
    origin = new URL(t.url).origin;
    routes = servedRoutes(t.platform.gateway.server);
    const db = t.platform.identity.host.dataSource;
    const schemas: { schema: string }[] = await db.query(`SELECT table_schema AS schema FROM information_schema.tables WHERE table_name = 'events' ORDER BY 1`);
    expect(schemas.length).toBeGreaterThanOrEqual(4);
    const total = schemas.map(({ schema }) => `(SELECT count(*) FROM "${schema}".events)`).join(' + ');
    countEvents = async () => Number((await db.query(`SELECT (${total})::int AS n`))[0].n);
  });
  afterAll(() => t.stop());

  /** Raw HTTP (node:http, so GET can carry a body too): exact bytes, headers and path as given. */
  const send = (method: string, path: string, options: { body?: string | Buffer; headers?: Record<string, string> } = {}): Promise<Raw> =>
    new Promise((resolve, reject) => {
      const body = typeof options.body === 'string' ? Buffer.from(options.body) : options.body;
      // The operator API's routes are probed as an ADMIN operator (platform credentials stop at its guard).
      const authorization = path.startsWith(`${OPERATOR_API_PREFIX}/`) ? operatorAuth : t.tenant.sandbox;
      const headers: Record<string, string> = { authorization, ...(body ? { 'content-type': 'application/json', 'content-length': String(body.length) } : {}), ...options.headers };
      const req = request(`${origin}${path}`, { method, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let parsed: unknown = text;
          try {
            parsed = text ? JSON.parse(text) : undefined;
          } catch {
            // not JSON: the envelope assertion fails visibly
          }
          resolve({ status: res.statusCode ?? 0, body: parsed });
        });
      });
      req.on('error', reject);
      req.end(body);
    });

  /** Waits until no service appends events any more (a 2xx can set off follow-ups in other services). */
  const quiet = async () => {
    for (let last = await countEvents(), i = 0; i < 50; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      const now = await countEvents();
      if (now === last) return;
      last = now;
    }
  };

  /** Sends one request and checks the invariants: no 5xx, the envelope on an error, no event appended on a 4xx. */
  const probe = async (method: string, path: string, options: Parameters<typeof send>[2] = {}): Promise<Raw> => {
    const before = await countEvents();
    const res = await send(method, path, options);
    const where = `${method} ${path.slice(0, 120)}`;
    expect({ where, status: res.status < 500 ? 'below 500' : res.status, body: res.status < 500 ? undefined : res.body }).toEqual({ where, status: 'below 500', body: undefined });
    if (res.status < 400) await quiet();
    else {
      expect(res.body).toEqual(expect.objectContaining({ status: res.status, code: expect.any(String), message: expect.any(String) }));
      expect(JSON.stringify(res.body)).not.toMatch(/\bat .+\.(js|ts):\d+/);
      expect({ where, events: (await countEvents()) - before }).toEqual({ where, events: 0 });
    }
    return res;
  };

  // Agent Operations take an agent's bearer token: the probe's Basic credentials are refused (401) before any body is
  // read (auth-before-body.e2e), so there is no body check there to sweep.
  const agentRoutes = new Set(OPERATIONS.filter((op) => op.auth === 'agent').map((op) => `/${API_VERSION}${op.path.replace(/\{(\w+)\}/g, ':$1')}`));
  const checked = (route: ServedRoute) => route.path.startsWith(`/${API_VERSION}/`) || route.path.startsWith(`${OPERATOR_API_PREFIX}/`);
  const bodyChecked = (route: ServedRoute) => checked(route) && !agentRoutes.has(route.path);
  const fill = (route: ServedRoute, value = 'x', only?: string) => route.path.replace(/:(\w+)/g, (_, name: string) => (only === undefined || only === name ? value : 'x'));
  const params = (route: ServedRoute) => [...route.path.matchAll(/:(\w+)/g)].map((m) => m[1]);

  /** 400 INVALID_INPUT; with a field, `details.errors[0]` names it (and its message matches), else the message does. */
  const expectInvalid = (res: Raw, where: string, field?: string, message?: RegExp) => {
    expect({ where, status: res.status, code: res.body?.code }).toEqual({ where, status: 400, code: 'INVALID_INPUT' });
    const error = field === undefined ? { message: res.body.message } : res.body.details?.errors?.[0];
    expect({ where, ...error }).toEqual({ where, ...(field === undefined ? {} : { field, constraint: expect.any(Object) }), message: message ? expect.stringMatching(message) : expect.any(String) });
  };

  it('serves enough routes to make the sweep meaningful', () => {
    expect(routes.filter(checked).length).toBeGreaterThanOrEqual(60);
  });

  it('Content-Encoding: a body that does not decode is 400, an unknown encoding 415, a compressed body is read as the plain one', async () => {
    for (const route of routes) {
      const path = fill(route);
      const where = `${route.method} ${route.path}`;
      for (const encoding of Object.keys(ENCODERS)) {
        const res = await probe(route.method, path, { body: '{}', headers: { 'content-encoding': encoding } });
        if (bodyChecked(route)) expectInvalid(res, `${where} (plain body as ${encoding})`, undefined, new RegExp(`not valid ${encoding}`));
      }
      const unsupported = await probe(route.method, path, { body: '{}', headers: { 'content-encoding': 'compress' } });
      if (bodyChecked(route)) expect({ where, status: unsupported.status, code: unsupported.body?.code }).toEqual({ where, status: 415, code: 'UNSUPPORTED_MEDIA_TYPE' });

      const plain = await probe(route.method, path, { body: '{}' });
      for (const [encoding, encode] of Object.entries(ENCODERS)) {
        const res = await probe(route.method, path, { body: encode(Buffer.from('{}')), headers: { 'content-encoding': encoding } });
        const outcome = (r: Raw) => ({ where: `${where} (${encoding})`, status: r.status, ...(r.status >= 400 ? { code: r.body?.code, message: r.body?.message } : {}) });
        expect(outcome(res)).toEqual(outcome(plain));
      }
    }
  }, 600_000);

  it('decodes gzip, deflate and br bodies for real, and bounds the decompressed size (zip bomb → 413)', async () => {
    for (const [encoding, encode] of Object.entries(ENCODERS)) {
      const body = encode(Buffer.from(JSON.stringify({ name: `compressed ${encoding}`, permissions: ['VIEW'] })));
      const res = await probe('POST', `/${API_VERSION}/tokens`, { body, headers: { 'content-encoding': encoding } });
      expect({ encoding, status: res.status, name: res.body?.name }).toEqual({ encoding, status: 201, name: `compressed ${encoding}` });
    }
    const bomb = Buffer.alloc(50 * 1024 * 1024, ' ');
    for (const [encoding, encode] of Object.entries(ENCODERS)) {
      const res = await probe('POST', `/${API_VERSION}/tokens`, { body: encode(bomb), headers: { 'content-encoding': encoding } });
      expect({ encoding, status: res.status, code: res.body?.code }).toEqual({ encoding, status: 413, code: 'PAYLOAD_TOO_LARGE' });
    }
  }, 120_000);

  it('bounds nesting depth and array lengths (5,000 and 100,000 levels, 20,000 elements) without overflowing the stack', async () => {
    const bodies: [string, string][] = [
      ['5,000 nested arrays', nested(5_000)],
      ['100,000 nested arrays', nested(100_000)],
      ['5,000 nested objects', nestedObjects(5_000)],
      ['20,000 elements', manyElements],
      ['20,000 elements at the top', `[${new Array(20_000).fill('"a"').join(',')}]`],
    ];
    for (const route of routes) {
      for (const [label, body] of bodies) {
        const res = await probe(route.method, fill(route), { body });
        if (bodyChecked(route)) expectInvalid(res, `${route.method} ${route.path} (${label})`);
      }
    }
  }, 600_000);

  it('refuses NUL and unpaired surrogates in body strings and keys, naming the field', async () => {
    const bodies: [string, string, string][] = [
      ['NUL', JSON.stringify({ name: 'a\u0000b' }), 'name'],
      ['lone high surrogate', '{"name":"a\\ud800b"}', 'name'],
      ['lone low surrogate, nested', '{"address":{"line1":"\\udc00x"}}', 'address.line1'],
      ['surrogate pair reversed, in an array', '{"permissions":["VIEW","\\udc00\\ud800"]}', 'permissions.1'],
      ['NUL in a key', '{"na\\u0000me":"x"}', 'na\ufffdme'],
    ];
    for (const route of routes) {
      for (const [label, body, field] of bodies) {
        const res = await probe(route.method, fill(route), { body });
        if (bodyChecked(route)) expectInvalid(res, `${route.method} ${route.path} (${label})`, field, /NUL|surrogate/);
      }
    }
  }, 600_000);

  it('refuses NUL and invalid UTF-8 in query strings and path parameters, naming them', async () => {
    const values = ['%00', 'a%00b', '%ED%A0%80', '%ED%B0%80x', '%FF'];
    for (const route of routes) {
      for (const value of values) {
        const where = `${route.method} ${route.path}?name=${value}`;
        const res = await probe(route.method, `${fill(route)}?limit=10&name=${value}`);
        if (checked(route)) expectInvalid(res, where, 'name');
        for (const param of params(route)) {
          const inPath = await probe(route.method, fill(route, value, param));
          if (checked(route)) expectInvalid(inPath, `${route.method} ${route.path} (:${param}=${value})`, param);
        }
      }
    }
  }, 600_000);

  it('answers what reached PostgreSQL before (list filters, stored text) with a 400 naming the field', async () => {
    const filters = ['/tokens?name', '/customers?platformCustomerId', '/customers?umaAddress', '/transactions?customerId', '/transactions?accountId', '/documents?documentHolder', '/customers/internal-accounts?customerId', '/customers/external-accounts?customerId'];
    for (const filter of filters) {
      const field = filter.split('?')[1];
      for (const value of ['a%00b', '%ED%A0%80']) expectInvalid(await probe('GET', `/${API_VERSION}${filter}=${value}`), `GET ${filter}=${value}`, field);
    }
    const bodies: [string, string, string][] = [
      ['/tokens', '{"name":"a\\u0000b","permissions":["VIEW"]}', 'name'],
      ['/tokens', '{"name":"a\\ud800b","permissions":["VIEW"]}', 'name'],
      ['/customers', '{"customerType":"INDIVIDUAL","fullName":"a\\u0000b"}', 'fullName'],
      ['/customers', '{"customerType":"INDIVIDUAL","fullName":"Ada","address":{"line1":"\\udfff","city":"X","postalCode":"1","country":"US"}}', 'address.line1'],
    ];
    for (const [path, body, field] of bodies) expectInvalid(await probe('POST', `/${API_VERSION}${path}`, { body }), `POST ${path} ${body}`, field, /NUL|surrogate/);
  });

  it('multipart uploads: a compressed one is 415, NUL in a text field a 400', async () => {
    const holder = await createCustomerHolder(t);
    await quiet();
    const before = await countEvents();
    const fields = { documentHolder: holder, documentType: 'PASSPORT', country: 'DE' };
    const file = { name: 'passport.pdf', bytes: tinyPdf() };
    const compressed = await sendForm(t, 'POST', '/documents', fields, [file], { headers: { 'content-encoding': 'gzip' } });
    expect({ status: compressed.status, code: compressed.body?.code }).toEqual({ status: 415, code: 'UNSUPPORTED_MEDIA_TYPE' });
    const nul = await sendForm(t, 'POST', '/documents', { ...fields, documentNumber: 'a\u0000b' }, [file]);
    expect({ status: nul.status, code: nul.body?.code, field: nul.body?.details?.errors?.[0]?.field }).toEqual({ status: 400, code: 'INVALID_INPUT', field: 'documentNumber' });
    expect(await countEvents()).toBe(before);
  });

  it('refuses whitespace-only names', async () => {
    const blank = ' \t\u00a0 ';
    const customer = (await probe('POST', `/${API_VERSION}/customers`, { body: JSON.stringify({ customerType: 'INDIVIDUAL', fullName: 'Named Holder' }) })).body;
    expect(customer.id).toEqual(expect.any(String));
    const owner = { customerId: customer.id, roles: ['UBO'], ownershipPercentage: 30, personalInfo: { firstName: 'Grace', lastName: 'Hopper', birthDate: '1970-12-09', nationality: 'US', address: { line1: '1 Main St', city: 'Springfield', state: 'IL', postalCode: '62701', country: 'US' }, idType: 'SSN', identifier: '123-45-6789' } };
    const cases: [string, string, unknown, string][] = [
      ['POST', '/tokens', { name: blank, permissions: ['VIEW'] }, 'name'],
      ['POST', '/customers', { customerType: 'INDIVIDUAL', fullName: blank }, 'fullName'],
      ['PATCH', `/customers/${customer.id}`, { fullName: '   ' }, 'fullName'],
      ['POST', '/customers', { customerType: 'BUSINESS', businessInfo: { legalName: blank, country: 'US', incorporatedOn: '2015-06-01', taxId: '12-3456789' } }, 'businessInfo.legalName'],
      ['POST', '/beneficial-owners', { ...owner, personalInfo: { ...owner.personalInfo, firstName: blank } }, 'personalInfo.firstName'],
      ['POST', '/beneficial-owners', { ...owner, personalInfo: { ...owner.personalInfo, middleName: '\n' } }, 'personalInfo.middleName'],
      ['POST', '/beneficial-owners', { ...owner, personalInfo: { ...owner.personalInfo, lastName: blank } }, 'personalInfo.lastName'],
      ['PATCH', '/beneficial-owners/BeneficialOwner:00000000-0000-7000-8000-000000000000', { personalInfo: { lastName: ' ' } }, 'personalInfo.lastName'],
      ['POST', '/invitations', { inviterUma: '$someone@sandbox.uma.money', firstName: blank }, 'firstName'],
    ];
    for (const [method, path, body, field] of cases) {
      const res = await probe(method, `/${API_VERSION}${path}`, { body: JSON.stringify(body) });
      expectInvalid(res, `${method} ${path}`, field, /blank|whitespace/);
    }
    for (const route of routes) await probe(route.method, fill(route), { body: JSON.stringify({ name: blank, fullName: blank }) });
  }, 300_000);
});
