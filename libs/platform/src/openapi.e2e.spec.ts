import { API_VERSION } from '@payments/gateway';
import { http, validateOpenApi } from '@payments/testing';
import { startTestPlatform, TestPlatform } from './test-platform';
import { servedRoutes } from './test-routes';

type Operation = { summary?: string; requestBody?: { content: Record<string, { schema: { $ref: string } }> } };
type Document = { openapi: string; servers: { url: string }[]; paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, any> } };

/**
 * GET /openapi.json and GET /docs on the whole platform, as `npm start` runs it: the document must be valid
 * OpenAPI 3.1, cover every route Express really serves (so a route served without a declaration fails here),
 * and the reference page must load only from this server.
 */
describe('OpenAPI document and API reference (real HTTP)', () => {
  let t: TestPlatform;
  let root: string;
  let document: Document;

  beforeAll(async () => {
    t = await startTestPlatform();
    root = new URL(t.url).origin;
    const response = await http<Document>('GET', `${root}/openapi.json`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    document = response.body;
  });
  afterAll(() => t?.stop());

  it('serves a valid OpenAPI 3.1 document without credentials', () => {
    expect(document.openapi).toBe('3.1.0');
    expect(JSON.stringify(document)).not.toMatch(/"nullable":|"exclusive(Min|Max)imum":(true|false)/); // 3.0-only forms
    const result = validateOpenApi(document);
    if (!result.valid) console.error(JSON.stringify(result.errors, null, 2));
    expect(result.valid).toBe(true);
  });

  it('documents every route Express serves under the version prefix (the server URL), with its method and a summary', () => {
    expect(document.servers).toEqual([{ url: `/${API_VERSION}` }]);
    const served = versionedRoutes(t);
    expect(served.length).toBeGreaterThan(0);
    const missing = served.filter(({ path, method }) => !document.paths[path]?.[method]?.summary);
    expect(missing).toEqual([]); // a route here is served without being declared (libs/contracts/src/operations)

    const documented = Object.entries(document.paths).flatMap(([path, item]) => Object.keys(item).map((method) => `${method} ${path}`));
    expect(documented.sort()).toEqual(served.map(({ path, method }) => `${method} ${path}`).sort());
  });

  it('serves the reference page at /docs with assets from this server only', async () => {
    const page = await http<string>('GET', `${root}/docs`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.body).not.toMatch(/https?:|\/\/[a-z]/i);
    const urls = [...page.body.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1]);
    expect(urls.length).toBeGreaterThanOrEqual(3);
    for (const url of urls) {
      expect(url).toMatch(/^\/[^/]/);
      const asset = await http<string>('GET', `${root}${url}`);
      expect({ url, status: asset.status }).toEqual({ url, status: 200 });
    }
    const init = await http<string>('GET', `${root}/docs/init.js`);
    expect(init.body).toContain('"/openapi.json"');
    expect(init.body).toContain('validatorUrl: null');
    // Only the files the page needs: not the package's demo page, which points at the public petstore.
    expect((await http('GET', `${root}/docs/assets/index.html`)).status).toBe(404);
  });

  it('describes PATCH /config with a closed request schema generated from the DTO', () => {
    const operation = document.paths['/config'].patch;
    const schema = resolve(document, operation.requestBody!.content['application/json'].schema.$ref);
    expect(schema.additionalProperties).toBe(false);
    expect(Object.keys(schema.properties)).toEqual(expect.arrayContaining(['webhookEndpoint', 'supportedCurrencies']));
    expect(schema.properties.webhookEndpoint.type).toEqual(['string', 'null']); // null clears the endpoint
    const currency = resolve(document, schema.properties.supportedCurrencies.items.$ref);
    expect(currency.additionalProperties).toBe(false);
    expect(currency.required).toEqual(expect.arrayContaining(['currencyCode', 'minAmount', 'maxAmount']));
    // embeddedWalletConfig: a partial merge, so nothing in it is required, nothing is nullable and unknown fields are refused.
    const wallet = resolve(document, schema.properties.embeddedWalletConfig.$ref);
    expect(wallet.additionalProperties).toBe(false);
    expect(wallet.required ?? []).toEqual([]);
    expect(wallet.properties.otpLength).toMatchObject({ type: 'integer', minimum: 4, maximum: 12 });
    expect(wallet.properties.expirationSeconds).toMatchObject({ type: 'integer', minimum: 1, maximum: 86400 });
    expect(wallet.properties.sendFromEmailAddress).toMatchObject({ type: 'string', format: 'email', maxLength: 255 });
    const errors = operation as { responses: Record<string, { content?: Record<string, { schema: { $ref: string } }> }> };
    expect(errors.responses['400'].content!['application/json'].schema.$ref).toBe('#/components/schemas/Error');
  });
});

/** What the running Express router answers under /<version>, in OpenAPI's form relative to it, e.g. `get /tokens/{tokenId}`. */
function versionedRoutes(t: TestPlatform): { path: string; method: string }[] {
  return servedRoutes(t.platform.gateway.server)
    .filter(({ path }) => path.startsWith(`/${API_VERSION}/`))
    .map(({ method, path }) => ({ method: method.toLowerCase(), path: path.slice(API_VERSION.length + 1).replace(/:(\w+)/g, '{$1}') }));
}

function resolve(document: Document, ref: string): any {
  return document.components.schemas[ref.replace('#/components/schemas/', '')];
}
