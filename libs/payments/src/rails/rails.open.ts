import { ApiError, EMPTY_RAILS_CONFIG, RAIL_CALLBACKS_PATH, RailConnectorKind, RailsConfig } from '@payments/contracts';
import type { TimerHandler } from '@payments/eventsourcing';
import { EgressClient, egressFetch, type ServiceHost } from '@payments/runtime';
import { HttpRailConnector } from './http/http-rail-connector';
import { Peers } from '../rpc/peers';
import type { TransactionSaga } from '../saga/transaction-saga';
import { RailExceptions } from './rail-exceptions';
import { IncomingCredits } from './incoming-credits';
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
  const credits = new IncomingCredits(options.schema, saga, peers);
  const egress = new EgressClient({ allowPrivateNetworks: options.egressAllowPrivateNetworks ?? false, log: (message) => log(message) });
  const rails = new Rails(host.dataSource, payments, outcomes, exceptions, options.config ?? EMPTY_RAILS_CONFIG, factories(egress, options.publicUrl), { dataSource: host.dataSource, schema: options.schema, timers: host.timers, credits, log });
  Object.assign(timerHandlers, outcomes.timerHandlers(), rails.timerHandlers());
  saga.connectRails(rails);
  outcomes.connect({
    applyToTransaction: (payment, outcome, notReversible) => saga.applyRailOutcome(payment, outcome, notReversible),
    applyToPrenote: async (payment, outcome) => {
      try {
        await peers.recordRailVerification({
          platformId: payment.platform_id,
          mode: payment.mode,
          externalAccountId: payment.external_account_id,
          outcome: outcome.kind === 'SETTLED' ? 'VERIFIED' : 'FAILED',
          rail: payment.payment_rail,
          ...(outcome.railCode ? { reason: outcome.railCode } : {}),
        });
      } catch (error) {
        // A late return of a prenote whose account was already verified (409), or an account deleted meanwhile (404):
        // the account's verdict stands; an operator sees the return and decides (an ACH return after the wait window).
        if (!(error instanceof ApiError) || (error.status !== 409 && error.status !== 404)) throw error;
        await host.dataSource.transaction((tx) =>
          exceptions.record(tx, {
            exceptionId: `RailException:${payment.payment_id}/${outcome.kind}`,
            connectorId: payment.connector_id,
            paymentId: payment.payment_id,
            kind: 'CONTRADICTORY_OUTCOME',
            message: `prenote ${outcome.kind} (${outcome.railCode ?? outcome.source}) for external account ${payment.external_account_id}, which accounts refused: ${error.message}`,
            detail: { ...outcome },
          }),
        );
      }
    },
  });
  return rails;
}
