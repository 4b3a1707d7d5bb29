import type { FastifyReply } from 'fastify';

/**
 * The headers of a page whose URL carries a token that is its only credential (the KYC and card reveal pages): never
 * cached, the token never sent on as a Referer, nothing loaded from elsewhere. `framing`: who may put it in a frame.
 */
export function tokenPageHeaders(framing: 'none' | 'any'): Record<string, string> {
  return {
    'Cache-Control': 'no-store',
    'Content-Security-Policy': `default-src 'none'; style-src 'unsafe-inline'; frame-ancestors ${framing === 'none' ? "'none'" : '*'}`,
    'Referrer-Policy': 'no-referrer',
    'X-Content-Type-Options': 'nosniff',
  };
}

/** A small self-contained HTML page; `body` is trusted markup the caller built (no request input in it). */
export function sendPage(response: FastifyReply, status: number, title: string, body: string, style = 'body{font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem;color:#222}'): void {
  void response.code(status).type('text/html; charset=utf-8').send(`<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title>
<style>${style}</style></head>
<body>${body}</body>
</html>
`);
}
