import fc from 'fast-check';
import { API_VERSION } from '@payments/gateway';
import { startTestPlatform, TestPlatform } from './test-platform';
import { servedRoutes } from './test-routes';

/**
 * Random input at every endpoint: JSON of any shape, wrong types, huge and unicode strings, negative and fractional
 * numbers, odd path parameters. Never a 500, always the envelope on an error, and no state change on a 4xx.
 */
const hostile = fc.oneof(
  fc.jsonValue(),
  fc.string({ unit: 'grapheme', maxLength: 200 }),
  fc.string({ minLength: 5_000, maxLength: 20_000 }),
  fc.integer({ min: -1e12, max: 1e12 }),
  fc.double({ noNaN: false }),
  fc.constantFrom(-1, 0.5, -0.01, Number.MAX_SAFE_INTEGER + 2, 1e308, '', null, true, [], {}, '💸', '\u0000', '../../etc', 'Token:'),
);
const knownFields = ['name', 'permissions', 'webhookEndpoint', 'supportedCurrencies', 'umaDomain', 'currencyCode', 'minAmount', 'maxAmount', 'limit', 'cursor'];
const bodies = fc.oneof(
  hostile,
  fc.constantFrom(...knownFields).map((field) => ({ [field]: null })),
  fc.dictionary(fc.constantFrom(...knownFields), hostile, { maxKeys: 5 }),
  fc.record({ name: hostile, permissions: fc.oneof(hostile, fc.array(fc.constantFrom('VIEW', 'TRANSACT', 'MANAGE', 'ROOT', ''), { maxLength: 5 })) }),
  fc.record({ supportedCurrencies: fc.array(fc.dictionary(fc.constantFrom('currencyCode', 'minAmount', 'maxAmount', 'requiredCounterpartyFields', 'enabledTransactionTypes'), hostile), { maxLength: 3 }) }),
);
const pathParams = fc.oneof(fc.string({ unit: 'grapheme', maxLength: 80 }), fc.uuid().map((u) => `Token:${u}`), fc.constantFrom('%', '..', 'Token:00000000-0000-0000-0000-000000000000'));

describe('fuzzing every endpoint', () => {
  let t: TestPlatform;
  beforeAll(async () => {
    t = await startTestPlatform();
  });
  afterAll(() => t.stop());

  const eventCount = async () => Number((await t.platform.identity.host.dataSource.query(`SELECT count(*)::int AS n FROM identity.events`))[0].n);

  it('answers every random request with a 2xx or a 4xx envelope, and a 4xx changes nothing', async () => {
    const routes = servedRoutes(t.platform.gateway.server).map((r) => ({ ...r, path: r.path.replace(`/${API_VERSION}`, '') }));
    expect(routes.length).toBeGreaterThanOrEqual(6);
    for (const route of routes) {
      await fc.assert(
        fc.asyncProperty(bodies, pathParams, fc.string({ maxLength: 40 }), async (body, param, query) => {
          const path = route.path.replace(/:[A-Za-z]+/g, () => encodeURIComponent(param)) + (route.method === 'GET' ? `?${query}` : '');
          const before = await eventCount();
          const res = await t.call(route.method, path, route.method === 'GET' || route.method === 'DELETE' ? {} : { body });
          expect(res.status).toBeLessThan(500);
          if (res.status >= 400) {
            expect(res.body).toEqual(expect.objectContaining({ status: res.status, code: expect.any(String), message: expect.any(String) }));
            expect(JSON.stringify(res.body)).not.toMatch(/\bat .+\.(js|ts):\d+/); // no stack trace
            expect(await eventCount()).toBe(before);
          }
        }),
        { numRuns: 60 },
      );
    }
  }, 300_000);
});
