import type { DataSource, EntityManager } from 'typeorm';
import { EventEnvelope, recordInInbox } from '@payments/eventsourcing';
import type { EventBus, SubscriptionHandle } from '@payments/messaging';
import { serviceTopic } from '@payments/messaging';
import { decode, IDENTITY_EVENTS, isOneOf, Mode, PlatformCurrencyConfig, PublicEventOf } from '@payments/contracts';
import { InternalAccountService } from './internal-account.service';
import { forgetCustomer, rememberCustomer } from '../external-accounts/known-customers';

export const IDENTITY_EVENTS_CONSUMER = 'accounts.identity-events';

const HANDLED = ['PlatformConfigInitialized.v1', 'PlatformConfigUpdated.v1', 'CustomerCreated.v1', 'CustomerDeleted.v1'] as const;
type Handled = Extract<PublicEventOf<typeof IDENTITY_EVENTS>, { type: (typeof HANDLED)[number] }>;

/**
 * Opens internal accounts when identity says so: the platform's accounts for every configured currency, a
 * customer's accounts for the currencies in CustomerCreated.v1. The inbox row and the accounts commit together, so a
 * redelivered event has one effect.
 */
export class IdentityEventsConsumer {
  constructor(
    private readonly dataSource: DataSource,
    private readonly accounts: InternalAccountService,
    private readonly schema: string,
  ) {}

  subscribe(bus: EventBus): Promise<SubscriptionHandle> {
    return bus.subscribe({ group: IDENTITY_EVENTS_CONSUMER, topics: [serviceTopic('identity')], handler: (e) => this.handle(e) });
  }

  async handle(envelope: EventEnvelope): Promise<void> {
    const event = decode(IDENTITY_EVENTS, envelope);
    if (!isOneOf(event, ...HANDLED)) return; // unknown, internal or not ours
    await this.dataSource.transaction(async (tx) => {
      if (!(await recordInInbox(tx, this.schema, IDENTITY_EVENTS_CONSUMER, event.eventId))) return;
      await this.apply(tx, event);
    });
  }

  private async apply(tx: EntityManager, event: Handled): Promise<void> {
    switch (event.type) {
      case 'PlatformConfigInitialized.v1':
        return this.platformCurrencies(tx, event.streamId, event.data.platformId, event.data.mode, event.data.supportedCurrencies, event.occurredAt);
      case 'PlatformConfigUpdated.v1': {
        const { supportedCurrencies } = event.data.changes;
        if (!supportedCurrencies) return;
        const [known]: { platform_id: string; mode: Mode }[] = await tx.query(`SELECT platform_id, mode FROM platform_currencies WHERE config_stream_id = $1`, [event.streamId]);
        if (!known) throw new Error(`config ${event.streamId} updated before it was initialized`); // retried, then DLQ
        return this.platformCurrencies(tx, event.streamId, known.platform_id, known.mode, supportedCurrencies, event.occurredAt);
      }
      case 'CustomerCreated.v1': {
        const { customerId, platformId, mode, customerType, currencies } = event.data;
        await rememberCustomer(tx, { customerId, platformId, mode, customerType });
        return this.accounts.openForCustomer(tx, platformId, mode, customerId, currencies ?? [], event.occurredAt);
      }
      case 'CustomerDeleted.v1':
        return forgetCustomer(tx, event.data.customerId ?? event.streamId, event.data.deletedAt ?? event.occurredAt);
    }
  }

  private async platformCurrencies(tx: EntityManager, streamId: string, platformId: string, mode: Mode, configs: readonly PlatformCurrencyConfig[] | undefined, now: string): Promise<void> {
    const currencies = (configs ?? []).map((c) => c.currencyCode);
    await tx.query(
      `INSERT INTO platform_currencies (config_stream_id, platform_id, mode, currencies, configs) VALUES ($1, $2, $3, $4, $5::jsonb)
       ON CONFLICT (config_stream_id) DO UPDATE SET currencies = EXCLUDED.currencies, configs = EXCLUDED.configs`,
      [streamId, platformId, mode, currencies, JSON.stringify(configs ?? [])],
    );
    // Accounts are never closed when a currency leaves the configuration: their balances must stay reachable.
    await this.accounts.openForPlatform(tx, platformId, mode, currencies, now);
  }
}
