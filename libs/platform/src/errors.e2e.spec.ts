import { basicAuth, http } from '@payments/testing';
import { startTestPlatform, TestPlatform } from './test-platform';

const envelope = (status: number, code: string) => ({ status, code, message: expect.any(String) });

describe('errors through the gateway: always the envelope, never a stack', () => {
  let t: TestPlatform;
  beforeAll(async () => {
    t = await startTestPlatform({ RATE_LIMIT_PER_SECOND: '1', RATE_LIMIT_BURST: '1000' });
  });
  afterAll(() => t.stop());

  it('401 with WWW-Authenticate for missing, malformed and wrong credentials', async () => {
    for (const auth of [undefined, 'Bearer abc', 'Basic !!!', basicAuth('nobody', 'nothing'), 'Basic ' + Buffer.from('no-colon').toString('base64')]) {
      const res = await http('GET', `${t.url}/config`, auth ? { auth } : {});
      expect(res.body).toEqual(envelope(401, 'UNAUTHORIZED'));
      expect(res.headers.get('www-authenticate')).toMatch(/^Basic/);
    }
  });

  it('404 for unknown routes and 405 (JSON, with Allow) for a wrong method', async () => {
    expect((await t.call('GET', '/nope')).body).toEqual(envelope(404, 'NOT_FOUND'));
    expect((await http('GET', `${t.url.replace('/2025-10-13', '')}/2019-01-01/config`)).status).toBe(404);
    const put = await t.call('PUT', '/config', { body: {} });
    expect(put.body).toEqual(envelope(405, 'METHOD_NOT_ALLOWED'));
    expect(put.headers.get('allow')).toBe('GET, HEAD, PATCH');
    const del = await t.call('DELETE', '/tokens');
    expect(del.status).toBe(405);
    expect(del.headers.get('allow')).toBe('GET, HEAD, POST');
    expect((await t.call('POST', '/tokens/Token:0190d1a6-0000-7000-8000-000000000000')).status).toBe(405);
  });

  it('400 for malformed JSON, 415 for a non-JSON body, 413 for an oversized body', async () => {
    const malformed = await t.call('PATCH', '/config', { rawBody: '{"umaDomain": ', headers: { 'content-type': 'application/json' } });
    expect(malformed.body).toEqual(envelope(400, 'INVALID_INPUT'));
    const text = await t.call('PATCH', '/config', { rawBody: 'umaDomain=x', headers: { 'content-type': 'text/plain' } });
    expect(text.body).toEqual(envelope(415, 'UNSUPPORTED_MEDIA_TYPE'));
    const form = await t.call('POST', '/tokens', { rawBody: 'name=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(form.status).toBe(415);
    const huge = await t.call('PATCH', '/config', { body: { umaDomain: 'x'.repeat(1_100_000) } });
    expect(huge.body).toEqual(envelope(413, 'PAYLOAD_TOO_LARGE'));
    const notAnObject = await t.call('POST', '/tokens', { rawBody: '"just a string"', headers: { 'content-type': 'application/json' } });
    expect(notAnObject.status).toBe(400);
  });

  it('400 INVALID_INPUT names unknown and invalid fields in details.errors', async () => {
    const res = await t.call('PATCH', '/config', { body: { webhookEndpoint: 'ftp://x', supportedCurrencies: [{ currencyCode: 'usd' }], extra: 1 } });
    expect(res.status).toBe(400);
    const fields = res.body.details.errors.map((e: { field: string }) => e.field);
    expect(fields).toEqual(expect.arrayContaining(['extra', 'webhookEndpoint', 'supportedCurrencies.0.currencyCode', 'supportedCurrencies.0.minAmount']));
    expect(res.body.details.errors.find((e: { field: string }) => e.field === 'extra').message).toMatch(/unknown field/);
    for (const field of ['supportedCurrencies', 'umaDomain']) {
      const nulled = await t.call('PATCH', '/config', { body: { [field]: null } });
      expect(nulled.status).toBe(400);
      expect(nulled.body.details.errors[0].field).toBe(field);
    }
  });

  it('400 details.errors[].constraint carries the rule and its parameter, typed as the published FieldConstraint', async () => {
    const errorsOf = async (body: Record<string, unknown>) => {
      const res = await t.call('POST', '/customers', { body: { customerType: 'INDIVIDUAL', fullName: 'Ada Constraint', ...body } });
      expect(res.body).toMatchObject({ status: 400, code: 'INVALID_INPUT' });
      return Object.fromEntries(res.body.details.errors.map((e: { field: string; constraint: unknown }) => [e.field, e.constraint]));
    };
    expect(await errorsOf({ platformCustomerId: 'x'.repeat(129) })).toEqual({ platformCustomerId: { maxLength: 128 } });
    expect(await errorsOf({ address: { line1: '', city: 'C', postalCode: '1', country: 'US' } })).toEqual({ 'address.line1': { minLength: 1 } });
    expect(await errorsOf({ purposeOfAccount: 'NOPE' })).toEqual({ purposeOfAccount: { enum: expect.arrayContaining(['P2P_TRANSFERS']) } });
    expect(await errorsOf({ umaAddress: 'not an address' })).toEqual({ umaAddress: { pattern: expect.any(String) } });
    expect(await errorsOf({ email: 'not-an-email' })).toEqual({ email: { format: 'email' } });
    expect(await errorsOf({ address: { line1: 'x'.repeat(201), city: 'C', postalCode: '1', country: 'US' } })).toEqual({ 'address.line1': { maxLength: 200 } });
    expect(await errorsOf({ extra: 1 })).toEqual({ extra: { whitelistValidation: true } }); // a rule without a parameter
  });

  it('400 for a body that is JSON but not an object (an array, a string), before any rule runs', async () => {
    const send = (rawBody: string) => t.call('POST', '/invitations', { rawBody, headers: { 'content-type': 'application/json' } });
    for (const rawBody of ['[]', '[{"inviterUma":"$a@example.com"}]']) {
      expect({ rawBody, body: (await send(rawBody)).body }).toMatchObject({ rawBody, body: { status: 400, code: 'INVALID_INPUT', details: { errors: [{ field: 'body' }] } } });
    }
    for (const rawBody of ['"text"', '42']) expect({ rawBody, body: (await send(rawBody)).body }).toMatchObject({ rawBody, body: { status: 400, code: 'INVALID_INPUT' } }); // strict JSON parser
  });

  it('503 SERVICE_UNAVAILABLE with Retry-After when a service is down, with nothing internal in the message', async () => {
    await t.platform.identityServer.app.close();
    const res = await t.call('GET', '/tokens');
    expect(res.body).toEqual({ status: 503, code: 'SERVICE_UNAVAILABLE', message: 'the identity service is unavailable', details: { retryAfterSeconds: 2 } });
    expect(res.headers.get('retry-after')).toBe('2');
    await t.restart();
    expect((await t.call('GET', '/config')).status).toBe(200);
  });
});

describe('rate limiting per credential', () => {
  let t: TestPlatform;
  beforeAll(async () => {
    t = await startTestPlatform({ RATE_LIMIT_PER_SECOND: '1', RATE_LIMIT_BURST: '3' });
  });
  afterAll(() => t.stop());

  it('answers 429 RATE_LIMITED with Retry-After once the burst is spent, for that credential only', async () => {
    const results = [];
    for (let i = 0; i < 5; i++) results.push(await t.call('GET', '/config'));
    expect(results.slice(0, 3).map((r) => r.status)).toEqual([200, 200, 200]);
    const limited = results[4];
    expect(limited.body).toEqual({ ...envelope(429, 'RATE_LIMITED'), details: { retryAfterSeconds: expect.any(Number) } });
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect((await t.call('GET', '/config', { auth: t.tenant.production })).status).toBe(200);
  });
});
