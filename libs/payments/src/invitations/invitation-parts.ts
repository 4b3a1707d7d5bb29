import type { TimerHandler } from '@payments/eventsourcing';
import type { EventBus } from '@payments/messaging';
import { BackgroundWork, ServiceHost, subscriptionWork } from '@payments/runtime';
import { CustomerDirectory } from '../customers/customer-directory';
import { PaymentsIdentityEventsConsumer } from '../customers/identity-events.consumer';
import type { TransactionSaga } from '../saga/transaction-saga';
import type { Peers } from '../rpc/peers';
import { UmaReceiveService } from '../uma-receive/uma-receive.service';
import { INVITATION_DEFAULTS, InvitationService } from './invitation.service';

/** How long a lookup waits for a customer (or its internal account) created a moment ago and still on the bus. */
export const CUSTOMER_ARRIVAL_WAIT_MS = 3_000;

export interface InvitationParts {
  invitations: InvitationService;
  umaReceive: UmaReceiveService;
  /** Keeps the customer directory from identity's events. */
  identityEvents: BackgroundWork;
}

/**
 * Builds invitations, the sandbox UMA receive and the customer directory they read on the payments host; registers
 * the invitation expiry timer in `timerHandlers`.
 */
export function openInvitationParts(
  host: ServiceHost,
  saga: TransactionSaga,
  timerHandlers: Record<string, TimerHandler>,
  peers: Peers,
  options: { schema: string; bus: EventBus; publicUrl?: string },
): InvitationParts {
  const customers = new CustomerDirectory(host.dataSource, CUSTOMER_ARRIVAL_WAIT_MS);
  const publicUrl = options.publicUrl ?? 'http://localhost:3000';
  const invitations = new InvitationService(host.dataSource, host.executor, host.timers, customers, { ...INVITATION_DEFAULTS, publicUrl }, host.claims);
  Object.assign(timerHandlers, invitations.timerHandlers());
  const umaReceive = new UmaReceiveService(customers, peers, saga, host.claims, CUSTOMER_ARRIVAL_WAIT_MS);
  const consumer = new PaymentsIdentityEventsConsumer(host.dataSource, options.schema);
  const identityEvents = subscriptionWork(() => consumer.subscribe(options.bus));
  return { invitations, umaReceive, identityEvents };
}
