import type { FastifyInstance } from 'fastify';
import { HttpErrorFilter } from '../errors/http-error.filter';
import { gatewayFastify } from './gateway-http';

describe('the request checks over HTTP: 405 with Allow when the path is served under other methods only', () => {
  let app: FastifyInstance;
  let base: string;
  beforeAll(async () => {
    app = gatewayFastify();
    const errors = new HttpErrorFilter(); // as Nest sets it, with the gateway's filter
    app.setErrorHandler((error, _request, reply) => void reply.code(errors.toEnvelope(error).status).send(errors.toEnvelope(error)));
    const ok = async () => ({ ok: true });
    app.get('/v1/customers/:customerId', ok);
    app.patch('/v1/customers/:customerId', ok);
    app.post('/v1/customers', ok);
    app.get('/v1/customers/end-user-terms', ok);
    app.get('/v1/:anything/deep', ok); // a parameter among the leading segments
    app.get('/docs', ok);
    base = await app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(() => app.close());

  const call = async (method: string, path: string, init: RequestInit = {}) => {
    const response = await fetch(`${base}${path}`, { method, ...init });
    return { status: response.status, allow: response.headers.get('allow'), body: method === 'HEAD' ? undefined : await response.json() };
  };

  it('lets a served method through and answers 405 naming the others, in the envelope', async () => {
    expect(await call('GET', '/v1/customers/Customer:1')).toEqual({ status: 200, allow: null, body: { ok: true } });
    expect(await call('DELETE', '/v1/customers/Customer:1')).toEqual({ status: 405, allow: 'GET, HEAD, PATCH', body: { status: 405, code: 'METHOD_NOT_ALLOWED', message: 'DELETE is not allowed on this path' } });
    expect((await call('DELETE', '/v1/customers')).allow).toBe('POST');
    expect((await call('POST', '/v1/customers/end-user-terms')).allow).toBe('GET, HEAD, PATCH');
    expect((await call('POST', '/docs')).allow).toBe('GET, HEAD');
    expect((await call('POST', '/v1/whatever/deep')).allow).toBe('GET, HEAD');
  });

  it('leaves a path no route serves to the 404, whatever its spelling', async () => {
    expect((await call('DELETE', '/v1/Customers/Customer:1')).status).toBe(404);
    expect((await call('DELETE', '/v1/customers/a/b')).status).toBe(404);
    expect((await call('DELETE', '/v1/customer%73/x')).status).toBe(404);
    expect((await call('GET', '/v1/customer%73/x')).status).toBe(404); // the router decodes it to a route; served under one spelling only
    expect((await call('GET', '/v1/customers/%43ustomer:1')).status).toBe(200); // a parameter may be encoded at will
    expect(await call('GET', '/v1/customers/Customer:1/')).toEqual({ status: 404, allow: null, body: { status: 404, code: 'NOT_FOUND', message: 'no such resource or route' } });
    expect((await call('GET', '/v1/customers/.')).status).toBe(404);
    expect((await call('GET', '/v1//customers')).status).toBe(404);
  });

  it('names the path parameter a malformed escape is in, and refuses bodies that are not JSON', async () => {
    expect((await call('GET', '/v1/customers/%FF')).body).toMatchObject({ status: 400, code: 'INVALID_INPUT', details: { errors: [{ field: 'customerId' }] } });
    expect((await call('GET', '/v1/customers/a%00b')).body).toMatchObject({ status: 400, details: { errors: [{ field: 'customerId' }] } });
    expect((await call('POST', '/v1/customers', { body: 'x=1', headers: { 'content-type': 'application/x-www-form-urlencoded' } })).body).toMatchObject({ status: 415, code: 'UNSUPPORTED_MEDIA_TYPE' });
    expect((await call('POST', '/v1/customers', { body: '{"a":', headers: { 'content-type': 'application/json' } })).body).toMatchObject({ status: 400, code: 'INVALID_INPUT', message: 'the request body is not valid JSON' });
    expect((await call('POST', '/v1/customers', { body: '{"a":"\\u0000"}', headers: { 'content-type': 'application/json' } })).body).toMatchObject({ status: 400, details: { errors: [{ field: 'a' }] } });
  });
});
