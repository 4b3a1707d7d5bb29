import type { FastifyInstance, FastifyReply as Response, FastifyRequest as Request } from 'fastify';
import { ApiError, KycLinksRpc } from '@payments/contracts';
import { sendPage, tokenPageHeaders } from '../http/html-page';
import type { ServiceClient } from '../rpc/service-client';

export const KYC_PAGE_PATH = '/kyc';

/** Nothing on the page loads from elsewhere, it may not be framed, and the token in its URL is never sent on as a Referer. */
const HEADERS = tokenPageHeaders('none');

/**
 * The hosted KYC page behind `kycUrl`: GET /kyc/{token} at the server root, without Basic auth (the token is the
 * credential). The sandbox stands in for the provider's flow: opening the page completes it, marks the link used
 * (a second open is 410) and redirects to the link's redirectUri, if any. A plain route rather than an operation:
 * it is not part of the versioned API (no OpenAPI entry, no tenancy row), and HEAD (link previews) answers without
 * using the link up.
 */
export function mountKycLinkPage(server: FastifyInstance, identity: ServiceClient): void {
  server.route({ method: ['GET', 'HEAD'], url: `${KYC_PAGE_PATH}/:token`, handler: (request, response) => open(identity, request, response) });
}

async function open(identity: ServiceClient, request: Request, response: Response): Promise<void> {
  response.headers(HEADERS);
  if (request.method === 'HEAD') return void response.code(200).type('text/html; charset=utf-8').send();
  try {
    const opened = await identity.call(KycLinksRpc.open, { body: { token: String((request.params as { token: string }).token) } });
    if (opened.redirectUri) return void response.redirect(opened.redirectUri, 303);
    page(response, 200, 'Verification complete', 'This sandbox page stands in for the identity provider. Nothing was collected; you can close this window.');
  } catch (error) {
    const status = error instanceof ApiError ? error.status : 500;
    if (status === 410) return page(response, 410, 'Link no longer valid', 'This verification link has been used or has expired. Ask for a new one.');
    if (status === 404) return page(response, 404, 'Link not found', 'This verification link does not exist.');
    page(response, 503, 'Try again later', 'The verification service is not available right now.');
  }
}

function page(response: Response, status: number, title: string, text: string): void {
  sendPage(response, status, title, `<h1>${title}</h1><p>${text}</p>`);
}
