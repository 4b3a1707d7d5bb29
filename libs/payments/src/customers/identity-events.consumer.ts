import type { DataSource } from 'typeorm';
import { EventEnvelope, recordInInbox } from '@payments/eventsourcing';
import type { EventBus, SubscriptionHandle } from '@payments/messaging';
import { serviceTopic } from '@payments/messaging';
import { applyCustomerEvent } from './customer-directory';

export const PAYMENTS_IDENTITY_EVENTS_CONSUMER = 'payments.identity-events';

const HANDLED = new Set(['CustomerCreated.v1', 'CustomerUpdated.v1', 'CustomerDeleted.v1']);

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
    if (!HANDLED.has(envelope.type)) return;
    await this.dataSource.transaction(async (tx) => {
      if (!(await recordInInbox(tx, this.schema, PAYMENTS_IDENTITY_EVENTS_CONSUMER, envelope.eventId))) return;
      await applyCustomerEvent(tx, envelope);
    });
  }
}
