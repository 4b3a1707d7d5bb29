import type { INestApplication } from '@nestjs/common';
import { type Express, type Request, type Response, raw, Router } from 'express';
import { ApiError, RAIL_CALLBACKS_PATH, RailCallbacksRpc } from '@payments/contracts';
import type { ServiceClient } from '../rpc/service-client';

/** A status update is a few hundred bytes; anything near this is not one. */
const MAX_BODY = '64kb';
const CONNECTOR_ID = /^[a-z0-9][a-z0-9-]{0,39}$/;

/**
 * Rail bridges' callbacks (the generic HTTP connector): mounted before the JSON parser, because the signature is over
 * the exact bytes sent. No platform credential: payments verifies the Standard Webhooks signature with the
 * connector's secret before reading anything. Answers 204 (also for a duplicate), 400 for a bad signature or body,
 * 404 for a connector this deployment does not have.
 */
export function mountRailCallbacks(app: INestApplication, payments: ServiceClient): void {
  const router = Router();
  router.post('/:connectorId', raw({ type: () => true, limit: MAX_BODY }), (request: Request, response: Response) => void receive(payments, request, response));
  (app.getHttpAdapter().getInstance() as Express).use(RAIL_CALLBACKS_PATH, router);
}

const header = (request: Request, name: string) => (typeof request.headers[name] === 'string' ? (request.headers[name] as string) : undefined);

async function receive(payments: ServiceClient, request: Request, response: Response): Promise<void> {
  const connectorId = String(request.params.connectorId);
  const send = (status: number, code?: string, message?: string) => (code ? response.status(status).json({ status, code, message }) : response.status(status).end());
  if (!CONNECTOR_ID.test(connectorId)) return void send(404, 'NOT_FOUND', 'no such rail connector');
  const body = Buffer.isBuffer(request.body) ? request.body.toString('utf8') : '';
  try {
    await payments.call(RailCallbacksRpc.receive, {
      connectorId,
      headers: { 'webhook-id': header(request, 'webhook-id'), 'webhook-timestamp': header(request, 'webhook-timestamp'), 'webhook-signature': header(request, 'webhook-signature') },
      body,
    });
    send(204);
  } catch (error) {
    if (error instanceof ApiError && error.status < 500) return void send(error.status, error.code, error.message);
    send(503, 'UNAVAILABLE', 'try again later');
  }
}
