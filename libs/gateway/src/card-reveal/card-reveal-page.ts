import type { FastifyInstance, FastifyReply as Response, FastifyRequest as Request } from 'fastify';
import { ApiError, CardRevealDetails, CardsRpc } from '@payments/contracts';
import { sendPage, tokenPageHeaders } from '../http/html-page';
import type { ServiceClient } from '../rpc/service-client';

export const CARD_REVEAL_PATH = '/card-reveal';

/**
 * The page behind a card's `panEmbedUrl` (POST /cards/{id}/reveal): it is made to be framed by the platform's app, so
 * frame-ancestors is open, but nothing on it loads from elsewhere, it is never cached, and the token in its URL is
 * never sent on as a Referer. The PAN and CVV exist only in this response (derived by cards, never stored or logged).
 */
const HEADERS: Record<string, string> = { ...tokenPageHeaders('any'), Pragma: 'no-cache', 'X-Robots-Tag': 'noindex' };
const STYLE = 'body{font-family:system-ui,sans-serif;margin:1rem;color:#222}dt{font-size:.8rem;color:#666}dd{margin:0 0 .75rem;font:1.2rem ui-monospace,monospace}';
const page = (response: Response, status: number, title: string, body: string) => sendPage(response, status, title, body, STYLE);

export function mountCardRevealPage(server: FastifyInstance, cards: ServiceClient): void {
  server.route({ method: ['GET', 'HEAD'], url: `${CARD_REVEAL_PATH}/:token`, handler: (request, response) => open(cards, request, response) });
}

async function open(cards: ServiceClient, request: Request, response: Response): Promise<void> {
  // A link works once (cards spends it on GET). HEAD answers as GET would (no body is sent), without spending
  // it: a link preview or checker sees a live link as 200 and a dead or used one as 404, and leaves it usable.
  response.headers(HEADERS);
  try {
    const token = String((request.params as { token: string }).token);
    if (request.method === 'HEAD') {
      await cards.call(CardsRpc.checkReveal, { token });
      return page(response, 200, 'Card details', '');
    }
    const details = await cards.call(CardsRpc.openReveal, { token });
    page(response, 200, 'Card details', card(details));
  } catch (error) {
    const status = error instanceof ApiError ? error.status : 500;
    if (status === 404) return page(response, 404, 'Link not valid', '<p>This card details link has expired or is not valid (each link works once). Ask for a new one.</p>');
    page(response, 503, 'Try again later', '<p>Card details are not available right now.</p>');
  }
}

const group = (pan: string) => pan.replace(/(\d{4})(?=\d)/g, '$1 ');

function card(d: CardRevealDetails): string {
  const expiry = `${String(d.expMonth).padStart(2, '0')}/${String(d.expYear % 100).padStart(2, '0')}`;
  return `<dl><dt>Card number</dt><dd id="pan">${group(d.pan)}</dd><dt>Expires</dt><dd id="expiry">${expiry}</dd><dt>CVV</dt><dd id="cvv">${d.cvv}</dd></dl>`;
}
