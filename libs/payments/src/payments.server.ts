import { DynamicModule, Module } from '@nestjs/common';
import { createAppRegistry, ServiceServer, ServiceServerOptions, startServiceServer } from '@payments/runtime';
import { Payments, PAYMENTS_SERVICE } from './payments';
import { PaymentsRpcController } from './payments.rpc.controller';
import { InvitationsRpcController } from './invitations/invitations.rpc.controller';
import { PAYMENTS } from './payments.tokens';
import { StablecoinsRpcController } from './stablecoins/stablecoins.rpc.controller';
import { RailsOperatorRpcController } from './rails/operations/rails-operator.rpc.controller';
import { registerRailMetrics } from './rails/operations/rail-metrics';

@Module({})
class PaymentsRpcModule {
  static forPayments(payments: Payments): DynamicModule {
    return { module: PaymentsRpcModule, controllers: [PaymentsRpcController, InvitationsRpcController, StablecoinsRpcController, RailsOperatorRpcController], providers: [{ provide: PAYMENTS, useValue: payments }] };
  }
}

/** Serves the payments RPC, its relay and saga timers, its consumers (QuoteExecuted, identity's customers, card transactions) and its ops server (with the rails' gauges). */
export function startPaymentsServer(
  payments: Payments,
  rpc: ServiceServerOptions['rpc'],
  log?: (message: string, error?: unknown) => void,
  ops?: ServiceServerOptions['ops'],
): Promise<ServiceServer> {
  const registry = createAppRegistry(PAYMENTS_SERVICE);
  registerRailMetrics(registry, payments.host.dataSource, PAYMENTS_SERVICE, () => [...payments.rails.connectors.keys()]);
  return startServiceServer({ name: PAYMENTS_SERVICE, registry, module: PaymentsRpcModule.forPayments(payments), host: payments.host, rpc, ops, background: [payments.quoteEvents, payments.identityEvents, payments.cardEvents, payments.railWork], log });
}
