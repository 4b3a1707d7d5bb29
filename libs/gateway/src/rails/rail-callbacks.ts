import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, RAIL_CALLBACKS_PATH, RailCallbacksRpc } from '@payments/contracts';
import type { GatewayRouteConfig } from '../http/route-config';
import type { ServiceClient } from '../rpc/service-client';

/** A status update is a few hundred bytes; anything near this is not one. */
const MAX_BODY = '64kb';
const CONNECTOR_ID = /^[a-z0-9][a-z0-9-]{0,39}$/;

/**
 * Rail bridges' callbacks (the generic HTTP connector): read as raw bytes of any type (its route config), because the
 * signature is over the exact bytes sent. No platform credential: payments verifies the Standard Webhooks signature with the
 * connector's secret before reading anything. Answers 204 (also for a duplicate), 400 for a bad signature or body,
 * 404 for a connector this deployment does not have.
 */
export function mountRailCallbacks(server: FastifyInstance, payments: ServiceClient): void {
  const config: GatewayRouteConfig = { rawBody: { limit: MAX_BODY } };
  server.post(`${RAIL_CALLBACKS_PATH}/:connectorId`, { config }, (request, reply) => receive(payments, request, reply));
}

const header = (request: FastifyRequest, name: string) => (typeof request.headers[name] === 'string' ? (request.headers[name] as string) : undefined);

async function receive(payments: ServiceClient, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const connectorId = String((request.params as { connectorId: string }).connectorId);
  const send = (status: number, code?: string, message?: string) => void (code ? reply.code(status).send({ status, code, message }) : reply.code(status).send());
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
