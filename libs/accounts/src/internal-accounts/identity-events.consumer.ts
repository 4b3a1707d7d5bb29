import type { DataSource, EntityManager } from 'typeorm';
import { EventEnvelope, recordInInbox } from '@payments/eventsourcing';
import type { EventBus, SubscriptionHandle } from '@payments/messaging';
import { serviceTopic } from '@payments/messaging';
import type { Mode } from '@payments/contracts';
import { InternalAccountService } from './internal-account.service';
import { forgetCustomer, rememberCustomer } from '../external-accounts/known-customers';

export const IDENTITY_EVENTS_CONSUMER = 'accounts.identity-events';

interface CurrencyConfig {
  currencyCode: string;
  [field: string]: unknown;
}

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
    if (!['PlatformConfigInitialized.v1', 'PlatformConfigUpdated.v1', 'CustomerCreated.v1', 'CustomerDeleted.v1'].includes(envelope.type)) return;
    await this.dataSource.transaction(async (tx) => {
      if (!(await recordInInbox(tx, this.schema, IDENTITY_EVENTS_CONSUMER, envelope.eventId))) return;
      await this.apply(tx, envelope);
    });
  }

  private async apply(tx: EntityManager, envelope: EventEnvelope): Promise<void> {
    const data = envelope.data as Record<string, any>;
    switch (envelope.type) {
      case 'PlatformConfigInitialized.v1':
        return this.platformCurrencies(tx, envelope.streamId, data.platformId, data.mode, data.supportedCurrencies, envelope.occurredAt);
      case 'PlatformConfigUpdated.v1': {
        if (!data.changes?.supportedCurrencies) return;
        const [known] = await tx.query(`SELECT platform_id, mode FROM platform_currencies WHERE config_stream_id = $1`, [envelope.streamId]);
        if (!known) throw new Error(`config ${envelope.streamId} updated before it was initialized`); // retried, then DLQ
        return this.platformCurrencies(tx, envelope.streamId, known.platform_id, known.mode, data.changes.supportedCurrencies, envelope.occurredAt);
      }
      case 'CustomerCreated.v1':
        await rememberCustomer(tx, data as { customerId: string; platformId: string; mode: Mode; customerType: string });
        return this.accounts.openForCustomer(tx, data.platformId, data.mode, data.customerId, data.currencies ?? [], envelope.occurredAt);
      case 'CustomerDeleted.v1':
        return forgetCustomer(tx, data.customerId ?? envelope.streamId, data.deletedAt ?? envelope.occurredAt);
    }
  }

  private async platformCurrencies(tx: EntityManager, streamId: string, platformId: string, mode: Mode, configs: CurrencyConfig[], now: string): Promise<void> {
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
