import type { DataSource } from 'typeorm';
import { decode, IDENTITY_EVENTS, isOneOf } from '@payments/contracts';
import { EventEnvelope, recordInInbox } from '@payments/eventsourcing';
import type { EventBus, SubscriptionHandle } from '@payments/messaging';
import { serviceTopic } from '@payments/messaging';
import { applyCustomerEvent } from './customer-directory';

export const PAYMENTS_IDENTITY_EVENTS_CONSUMER = 'payments.identity-events';

/** Keeps payments' customer directory from identity's Customer events; the inbox row and the upsert commit together. */
export class PaymentsIdentityEventsConsumer {
  constructor(
    private readonly dataSource: DataSource,
    private readonly schema: string,
  ) {}

  subscribe(bus: EventBus): Promise<SubscriptionHandle> {
    return bus.subscribe({ group: PAYMENTS_IDENTITY_EVENTS_CONSUMER, topics: [serviceTopic('identity')], handler: (e) => this.handle(e) });
  }

  async handle(envelope: EventEnvelope): Promise<void> {
    const event = decode(IDENTITY_EVENTS, envelope);
    if (!isOneOf(event, 'CustomerCreated.v1', 'CustomerUpdated.v1', 'CustomerDeleted.v1', 'CustomerKycStatusChanged.v1')) return; // unknown, internal or not ours
    await this.dataSource.transaction(async (tx) => {
      if (!(await recordInInbox(tx, this.schema, PAYMENTS_IDENTITY_EVENTS_CONSUMER, event.eventId))) return;
      await applyCustomerEvent(tx, event);
    });
  }
}
