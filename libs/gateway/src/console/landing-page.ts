import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { OPERATOR_API_PREFIX } from '@payments/contracts';
import { sendPage } from '../http/html-page';

/** The console's and landing page's policy: nothing but this origin's own files, never framed. */
export const CONSOLE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; connect-src 'self'; manifest-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

const STYLE =
  'body{font-family:system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem;color:#1b1b1b;line-height:1.5}' +
  'a{color:#0b57d0}li{margin:.4rem 0}code{background:#f1f1f1;padding:0 .25rem;border-radius:3px}';

/**
 * GET /: what this server is and where to go (the console, both API references, health). The health link is the
 * ops port's when the gateway serves it on this one (embedded mode), else named only.
 */
export function mountLandingPage(server: FastifyInstance, apiVersion: string, options: { consoleBuilt: boolean }): void {
  const body = `<main>
<h1>payments-platform</h1>
<p>A self-hostable payments API: customers and KYC, accounts, transfers, quotes, cards, agents, stablecoins and webhooks.</p>
<ul>
<li><a href="/console">Console</a>: sign in with platform API credentials (sandbox or production) or operator credentials.${options.consoleBuilt ? '' : ' <strong>Not built on this server</strong>: run <code>npm run build</code>.'}</li>
<li><a href="/docs">API reference</a> (<a href="/openapi.json">OpenAPI document</a>), under <code>/${apiVersion}</code>.</li>
<li><a href="${OPERATOR_API_PREFIX}/docs">Operator API reference</a> (<a href="${OPERATOR_API_PREFIX}/openapi.json">OpenAPI document</a>), under <code>${OPERATOR_API_PREFIX}</code>.</li>
<li>Health: <code>/healthz</code> and <code>/readyz</code> on the ops port (<code>GATEWAY_OPS_PORT</code>); metrics at <code>/metrics</code>.</li>
</ul>
</main>`;
  // The page's one inline style, allowed by its hash and nothing else.
  const styleHash = createHash('sha256').update(STYLE).digest('base64');
  const policy = `default-src 'none'; style-src 'sha256-${styleHash}'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`;
  server.get('/', (_request, reply) => {
    void reply.headers({ 'Content-Security-Policy': policy, 'X-Content-Type-Options': 'nosniff', 'Cache-Control': 'no-cache' });
    sendPage(reply, 200, 'payments-platform', body, STYLE);
  });
}
