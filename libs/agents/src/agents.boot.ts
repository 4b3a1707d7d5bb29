import { serviceTopic } from '@payments/messaging';
import { rpcBinding } from '@payments/runtime';
import type { RuntimeConfig, ServiceDeps, ServiceServer } from '@payments/runtime';
import { Agents } from './agents';
import { startAgentsServer } from './agents.server';

/** Opens the agents service from the configuration and serves its RPC and ops ports (cluster and embedded modes alike). */
export async function bootAgents(config: RuntimeConfig, deps: ServiceDeps, secretHashKey: Buffer): Promise<{ agents: Agents; server: ServiceServer; stop(): Promise<void> }> {
  const agents = await Agents.open({
    databaseUrl: deps.databaseUrl,
    bus: deps.bus,
    topic: serviceTopic('agents'),
    secretHashKey,
    accounts: { host: config.accountsRpcHost, port: config.accountsRpcPort },
    identity: { host: config.identityRpcHost, port: config.identityRpcPort },
    quoting: { host: config.quotingRpcHost, port: config.quotingRpcPort },
    payments: { host: config.paymentsRpcHost, port: config.paymentsRpcPort },
    rpcTimeoutMs: config.rpcTimeoutMs,
    lifetimes: { deviceCodeMs: config.agentDeviceCodeTtlMs, accessTokenMs: config.agentAccessTokenTtlMs },
    log: deps.log,
  });
  const server = await startAgentsServer(agents, rpcBinding(config, config.agentsRpcPort, deps.embedded), deps.log, { host: config.rpcHost, port: config.agentsOpsPort, bus: deps.bus, listen: !deps.embedded });
  return { agents, server, stop: () => server.stop() };
}
