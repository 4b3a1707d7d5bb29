import { EMPTY_RAILS_CONFIG, RailConnectorKind, RailsConfig } from '@payments/contracts';
import type { TimerHandler } from '@payments/eventsourcing';
import type { ServiceHost } from '@payments/runtime';
import { Peers } from '../rpc/peers';
import type { TransactionSaga } from '../saga/transaction-saga';
import { RailExceptions } from './rail-exceptions';
import { RailOutcomes } from './rail-outcomes';
import { RailPayments } from './rail-payments';
import { RailConnectorFactory, Rails } from './rails';

/** The connector kinds this build has (each in its own folder under rails/). */
const FACTORIES: Partial<Record<RailConnectorKind, RailConnectorFactory>> = {};

/** Wires the rails: bookkeeping, the configured connectors, and their outcomes into the saga (and prenotes into accounts). */
export function openRails(
  host: ServiceHost,
  saga: TransactionSaga,
  peers: Peers,
  timerHandlers: Record<string, TimerHandler>,
  options: { config?: RailsConfig; schema: string; log?: (message: string, error?: unknown) => void },
): Rails {
  const payments = new RailPayments(options.schema);
  const exceptions = new RailExceptions(options.schema);
  const outcomes = new RailOutcomes(host.dataSource, options.schema, host.timers, payments, exceptions);
  const log = options.log ?? (() => undefined);
  const rails = new Rails(host.dataSource, payments, outcomes, exceptions, options.config ?? EMPTY_RAILS_CONFIG, FACTORIES, { dataSource: host.dataSource, schema: options.schema, log });
  Object.assign(timerHandlers, outcomes.timerHandlers());
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
