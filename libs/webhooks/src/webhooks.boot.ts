import { rpcBinding } from '@payments/runtime';
import type { RuntimeConfig, ServiceDeps, ServiceServer } from '@payments/runtime';
import { Webhooks } from './webhooks';
import { startWebhookDispatcherServer } from './webhooks.server';

/** Opens the webhook dispatcher from the configuration and serves its RPC and ops ports (cluster and embedded modes alike). */
export async function bootWebhookDispatcher(config: RuntimeConfig, deps: ServiceDeps): Promise<{ webhooks: Webhooks; server: ServiceServer; stop(): Promise<void> }> {
  const webhooks = await Webhooks.open({
    databaseUrl: deps.databaseUrl,
    bus: deps.bus,
    sandboxTimeScale: config.sandboxTimeScale,
    identity: { host: config.identityRpcHost, port: config.identityRpcPort },
    accounts: { host: config.accountsRpcHost, port: config.accountsRpcPort },
    rpcTimeoutMs: config.rpcTimeoutMs,
    attemptTimeoutMs: config.webhookTimeoutMs,
    backoffScale: config.webhookBackoffScale,
    egressAllowPrivateNetworks: config.egressAllowPrivateNetworks,
    log: deps.log,
  });
  const ops = { host: config.rpcHost, port: config.webhookDispatcherOpsPort, bus: deps.bus, listen: !deps.embedded };
  const server = await startWebhookDispatcherServer(webhooks, rpcBinding(config, config.webhookDispatcherRpcPort, deps.embedded), deps.log, ops);
  return { webhooks, server, stop: () => server.stop() };
}
