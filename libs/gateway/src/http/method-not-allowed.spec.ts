import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { canonicalExpress } from './canonical-routing';
import { methodNotAllowed } from './method-not-allowed';

describe('methodNotAllowed: 405 with Allow when the path is served under other methods only', () => {
  let server: Server;
  let base: string;

  beforeAll(async () => {
    const app = canonicalExpress();
    app.use(methodNotAllowed(() => app));
    const ok = (_req: unknown, res: { json(body: unknown): void }) => res.json({ ok: true });
    app.get('/v1/customers/:customerId', ok);
    app.patch('/v1/customers/:customerId', ok);
    app.post('/v1/customers', ok);
    app.get('/v1/customers/end-user-terms', ok);
    app.get('/v1/:anything/deep', ok); // a parameter among the leading segments: tried for every path
    app.get('/docs', ok);
    server = app.listen(0);
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    app.delete('/late/added', ok); // after the first requests are indexed below: still covered
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  const call = async (method: string, path: string) => {
    const response = await fetch(`${base}${path}`, { method });
    return { status: response.status, allow: response.headers.get('allow') };
  };

  it('lets a served method through and answers 405 naming the others', async () => {
    expect(await call('GET', '/v1/customers/Customer:1')).toEqual({ status: 200, allow: null });
    expect(await call('DELETE', '/v1/customers/Customer:1')).toEqual({ status: 405, allow: 'GET, HEAD, PATCH' });
    expect(await call('DELETE', '/v1/customers')).toEqual({ status: 405, allow: 'POST' });
    expect(await call('POST', '/v1/customers/end-user-terms')).toEqual({ status: 405, allow: 'GET, HEAD, PATCH' });
    expect(await call('POST', '/docs')).toEqual({ status: 405, allow: 'GET, HEAD' });
    expect(await call('POST', '/v1/whatever/deep')).toEqual({ status: 405, allow: 'GET, HEAD' });
  });

  it('leaves a path no route serves to the 404, whatever its spelling', async () => {
    expect((await call('DELETE', '/v1/Customers/Customer:1')).status).toBe(404);
    expect((await call('DELETE', '/v1/customers/a/b')).status).toBe(404);
    expect((await call('DELETE', '/v1/customer%73/x')).status).toBe(404);
  });

  it('covers routes added after requests were answered', async () => {
    expect(await call('GET', '/late/added')).toEqual({ status: 405, allow: 'DELETE' });
  });
});
