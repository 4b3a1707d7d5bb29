import type { FastifyInstance } from 'fastify';
import { AccountsRpc, AgentsRpc, CardsRpc, IdentityRpc, PaymentsRpc, QuotingRpc, WebhooksRpc, WalletAuthRpc } from '@payments/contracts';
import type { SqlExecutor } from '@payments/eventsourcing';
import type { EventBus } from '@payments/messaging';
import { busCheck, createOpsHandlers, databaseCheck, OPS_PATHS, ReadinessChecks } from '@payments/runtime';
import type { ServiceClient } from '../rpc/service-client';
import { GatewayMetrics } from './gateway-metrics';
import { recordHttpMetrics } from './http-metrics';

export interface GatewayOpsOptions {
  metrics: GatewayMetrics;
  identity: ServiceClient;
  accounts: ServiceClient;
  quoting: ServiceClient;
  payments: ServiceClient;
  webhooks: ServiceClient;
  walletAuth: ServiceClient;
  cards: ServiceClient;
  agents: ServiceClient;
  /** The gateway's own database (idempotency records). */
  database: SqlExecutor;
  /** Checked only when the gateway subscribes to the bus. */
  bus?: Pick<EventBus, 'ping'>;
  checkTimeoutMs?: number;
}

/**
 * The gateway's ops: its readiness checks (its database, the bus, every service answering) and its registry, served
 * on the ops port (GATEWAY_OPS_PORT), never on the public API port: /readyz fans out to every service and /metrics
 * describes the whole traffic. On the API port only /healthz stays, at the server root and without credentials, for
 * load balancers; a plain route, so neither the Basic-auth guard nor the 404 handler sees it. The HTTP metrics see
 * every request, including those the request checks refuse.
 */
export function mountGatewayOps(server: FastifyInstance, options: GatewayOpsOptions): { checks: ReadinessChecks } {
  recordHttpMetrics(server, options.metrics);
  const checks: ReadinessChecks = {
    database: databaseCheck(options.database),
    ...(options.bus ? { bus: busCheck(options.bus) } : {}),
    identity: () => options.identity.call(IdentityRpc.ping, {}),
    accounts: () => options.accounts.call(AccountsRpc.ping, {}),
    quoting: () => options.quoting.call(QuotingRpc.ping, {}),
    payments: () => options.payments.call(PaymentsRpc.ping, {}),
    webhooks: () => options.webhooks.call(WebhooksRpc.ping, {}),
    walletAuth: () => options.walletAuth.call(WalletAuthRpc.ping, {}),
    cards: () => options.cards.call(CardsRpc.ping, {}),
    agents: () => options.agents.call(AgentsRpc.ping, {}),
  };
  const health = createOpsHandlers({ registry: options.metrics.registry, checks: {} })[OPS_PATHS.health];
  server.get(OPS_PATHS.health, (request, reply) => {
    reply.hijack(); // the ops handler writes the answer itself, as on the ops port
    return health(request.raw, reply.raw);
  });
  return { checks };
}
