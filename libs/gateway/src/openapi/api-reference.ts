import { readFile } from 'node:fs/promises';
import { dirname, extname, join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { OPERATIONS, OPERATOR_API_PREFIX, OPERATOR_OPERATIONS } from '@payments/contracts';
import { buildOpenApiDocument, OPERATOR_API } from './openapi-document';

export const OPENAPI_PATH = '/openapi.json';
export const DOCS_PATH = '/docs';
const ASSETS_PATH = `${DOCS_PATH}/assets`;
const INIT_PATH = `${DOCS_PATH}/init.js`;

// Only what the page loads (and the source maps devtools ask for): the package also ships a demo index.html
// that points at the public petstore, which has no business being served here.
const ASSET_TYPES: Record<string, string> = { '.css': 'text/css; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.png': 'image/png', '.map': 'application/json' };
const ASSETS = new Set(['swagger-ui.css', 'swagger-ui-bundle.js', 'favicon-32x32.png', 'favicon-16x16.png', 'swagger-ui.css.map', 'swagger-ui-bundle.js.map']);

/**
 * GET /openapi.json and the interactive reference at GET /docs, at the server root and without credentials.
 * Plain routes beside the operations, so neither the Basic-auth guard nor the API's prefix applies. Each document is
 * built once, when first asked for (about 300 ms of CPU, which every start, restart and new replica would otherwise
 * spend before serving); swagger-ui comes from node_modules (read once, when first asked for), so the page works offline
 * and calls nothing outside this server.
 */
export function mountApiReference(server: FastifyInstance, apiVersion: string): void {
  mountDocument(server, '', () => buildOpenApiDocument(OPERATIONS, apiVersion), 'Payments Platform API reference');
  // The operator API's own document and page: what an operator's tooling is generated from, beside the platform's.
  mountDocument(server, OPERATOR_API_PREFIX, () => buildOpenApiDocument(OPERATOR_OPERATIONS, 'v1', OPERATOR_API), 'Payments Platform operator API reference');
  const root = dirname(require.resolve('swagger-ui-dist/package.json'));
  const read = new Map<string, Promise<Buffer>>();
  for (const asset of ASSETS) {
    server.get(`${ASSETS_PATH}/${asset}`, async (_request, reply) => {
      if (!read.has(asset)) read.set(asset, readFile(join(root, asset)));
      const bytes = await read.get(asset)!;
      return reply.type(ASSET_TYPES[extname(asset)]).header('Cache-Control', 'public, max-age=3600').send(bytes);
    });
  }
}

/** `<at>/openapi.json`, `<at>/docs` and its initializer (the page's assets are shared, under /docs/assets). */
function mountDocument(server: FastifyInstance, at: string, build: () => unknown, title: string): void {
  let body: string | undefined;
  const html = DOCS_HTML.replace('<title>Payments Platform API reference</title>', `<title>${title}</title>`).replace(`src="${INIT_PATH}"`, `src="${at}${INIT_PATH}"`);
  const init = INIT_JS.replace(JSON.stringify(OPENAPI_PATH), JSON.stringify(`${at}${OPENAPI_PATH}`));
  server.get(`${at}${OPENAPI_PATH}`, (_request, reply) => reply.type('application/json; charset=utf-8').header('Cache-Control', 'no-cache').send((body ??= JSON.stringify(build(), null, 2))));
  server.get(`${at}${DOCS_PATH}`, (_request, reply) => reply.type('text/html; charset=utf-8').send(html));
  server.get(`${at}${INIT_PATH}`, (_request, reply) => reply.type('text/javascript; charset=utf-8').send(init));
}

// The initializer is a file rather than an inline script, so a `script-src 'self'` policy can be added later.
const DOCS_HTML = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Payments Platform API reference</title>
  <link rel="stylesheet" href="${ASSETS_PATH}/swagger-ui.css">
  <link rel="icon" type="image/png" href="${ASSETS_PATH}/favicon-32x32.png" sizes="32x32">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="${ASSETS_PATH}/swagger-ui-bundle.js"></script>
  <script src="${INIT_PATH}"></script>
</body>
</html>
`;

// validatorUrl null: no badge that sends the document to validator.swagger.io. queryConfigEnabled false: a
// `?url=` link cannot make the page load someone else's document.
const INIT_JS = `window.ui = SwaggerUIBundle({
  url: ${JSON.stringify(OPENAPI_PATH)},
  dom_id: '#swagger-ui',
  deepLinking: true,
  validatorUrl: null,
  queryConfigEnabled: false,
  presets: [SwaggerUIBundle.presets.apis],
});
`;
