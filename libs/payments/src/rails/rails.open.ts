import { EMPTY_RAILS_CONFIG, RAIL_CALLBACKS_PATH, RailConnectorKind, RailsConfig } from '@payments/contracts';
import type { TimerHandler } from '@payments/eventsourcing';
import { EgressClient, egressFetch, type ServiceHost } from '@payments/runtime';
import { HttpRailConnector } from './http/http-rail-connector';
import { Peers } from '../rpc/peers';
import type { TransactionSaga } from '../saga/transaction-saga';
import { RailExceptions } from './rail-exceptions';
import { RailOutcomes } from './rail-outcomes';
import { RailPayments } from './rail-payments';
import { RailConnectorFactory, Rails } from './rails';
import { FileRailConnector } from './files/file-rail-connector';
import { nachaRailKind } from './nacha/nacha-format';
import { iso20022RailKind } from './iso20022/iso20022-format';

/** The connector kinds this build has (each in its own folder under rails/). */
function factories(egress: EgressClient, publicUrl: string): Partial<Record<RailConnectorKind, RailConnectorFactory>> {
  return {
    NACHA: (context) => new FileRailConnector(context, nachaRailKind, egress),
    ISO20022: (context) => new FileRailConnector(context, iso20022RailKind, egress),
    HTTP: (context) =>
      new HttpRailConnector(context, egressFetch(egress, { purpose: `rail bridge ${context.config.id}`, timeoutMs: context.config.http!.timeoutMs }), `${publicUrl}${RAIL_CALLBACKS_PATH}/${context.config.id}`),
  };
}

/** Wires the rails: bookkeeping, the configured connectors, and their outcomes into the saga (and prenotes into accounts). */
export function openRails(
  host: ServiceHost,
  saga: TransactionSaga,
  peers: Peers,
  timerHandlers: Record<string, TimerHandler>,
  options: {
    config?: RailsConfig;
    schema: string;
    /** Where bridges call back: PUBLIC_URL (else the gateway's local URL) + /rails/v1/callbacks/{connectorId}. */
    publicUrl: string;
    egressAllowPrivateNetworks?: boolean;
    log?: (message: string, error?: unknown) => void;
  },
): Rails {
  const payments = new RailPayments(options.schema);
  const exceptions = new RailExceptions(options.schema);
  const outcomes = new RailOutcomes(host.dataSource, options.schema, host.timers, payments, exceptions);
  const log = options.log ?? (() => undefined);
  const egress = new EgressClient({ allowPrivateNetworks: options.egressAllowPrivateNetworks ?? false, log: (message) => log(message) });
  const rails = new Rails(host.dataSource, payments, outcomes, exceptions, options.config ?? EMPTY_RAILS_CONFIG, factories(egress, options.publicUrl), { dataSource: host.dataSource, schema: options.schema, timers: host.timers, log });
  Object.assign(timerHandlers, outcomes.timerHandlers(), rails.timerHandlers());
  saga.connectRails(rails);
  outcomes.connect({
    applyToTransaction: (payment, outcome) => saga.applyRailOutcome(payment, outcome),
    applyToPrenote: async (payment, outcome) => {
      await peers.recordRailVerification({
        platformId: payment.platform_id,
        mode: payment.mode,
        externalAccountId: payment.external_account_id,
        outcome: outcome.kind === 'SETTLED' ? 'VERIFIED' : 'FAILED',
        rail: payment.payment_rail,
        ...(outcome.railCode ? { reason: outcome.railCode } : {}),
      });
    },
  });
  return rails;
}
