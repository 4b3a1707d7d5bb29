import { configureProductionRails } from '@payments/contracts';
import { serviceTopic } from '@payments/messaging';
import { rpcBinding } from '@payments/runtime';
import type { RuntimeConfig, ServiceDeps, ServiceServer } from '@payments/runtime';
import { Payments, PaymentsOptions } from './payments';
import { startPaymentsServer } from './payments.server';

/** Opens the payments service from the configuration and serves its RPC and ops ports (cluster and embedded modes alike). */
export async function bootPayments(config: RuntimeConfig, deps: ServiceDeps, secretHashKey: Buffer): Promise<{ payments: Payments; server: ServiceServer; stop(): Promise<void> }> {
  configureProductionRails(config.rails);
  const payments = await Payments.open(paymentsOptions(config, deps, secretHashKey));
  const server = await startPaymentsServer(payments, rpcBinding(config, config.paymentsRpcPort, deps.embedded), deps.log, { host: config.rpcHost, port: config.paymentsOpsPort, bus: deps.bus, listen: !deps.embedded });
  return { payments, server, stop: () => server.stop() };
}

/** The payments service's options from the configuration: the service's boot and the admin CLI (`rails:import`) open it alike. */
export function paymentsOptions(config: RuntimeConfig, deps: Pick<ServiceDeps, 'databaseUrl' | 'bus' | 'log'>, secretHashKey: Buffer): PaymentsOptions {
  return {
    databaseUrl: deps.databaseUrl,
    bus: deps.bus,
    topic: serviceTopic('payments'),
    sandboxTimeScale: config.sandboxTimeScale,
    accounts: { host: config.accountsRpcHost, port: config.accountsRpcPort },
    quoting: { host: config.quotingRpcHost, port: config.quotingRpcPort },
    rpcTimeoutMs: config.rpcTimeoutMs,
    publicUrl: config.publicUrl ?? `http://localhost:${config.port}`,
    secretHashKey,
    brale: config.braleProvider,
    rails: config.rails,
    egressAllowPrivateNetworks: config.egressAllowPrivateNetworks,
    log: deps.log,
  };
}
