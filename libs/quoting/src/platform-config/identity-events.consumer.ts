import type { DataSource, EntityManager } from 'typeorm';
import { EventEnvelope, queryRows, recordInInbox } from '@payments/eventsourcing';
import type { EventBus, SubscriptionHandle } from '@payments/messaging';
import { serviceTopic } from '@payments/messaging';
import type { Mode } from '@payments/contracts';

export const QUOTING_IDENTITY_EVENTS_CONSUMER = 'quoting.identity-events';

/** The part of identity's PlatformCurrencyConfig quoting needs. */
export interface CurrencyLimits {
  currencyCode: string;
  minAmount?: number;
  maxAmount?: number;
}

/**
 * Keeps each platform's currency configs (min and max amounts) from identity's PlatformConfig events. The inbox
 * row and the upsert commit together, so a redelivered event has one effect.
 */
export class QuotingIdentityEventsConsumer {
  constructor(
    private readonly dataSource: DataSource,
    private readonly schema: string,
  ) {}

  subscribe(bus: EventBus): Promise<SubscriptionHandle> {
    return bus.subscribe({ group: QUOTING_IDENTITY_EVENTS_CONSUMER, topics: [serviceTopic('identity')], handler: (e) => this.handle(e) });
  }

  async handle(envelope: EventEnvelope): Promise<void> {
    if (envelope.type !== 'PlatformConfigInitialized.v1' && envelope.type !== 'PlatformConfigUpdated.v1') return;
    await this.dataSource.transaction(async (tx) => {
      if (!(await recordInInbox(tx, this.schema, QUOTING_IDENTITY_EVENTS_CONSUMER, envelope.eventId))) return;
      await this.apply(tx, envelope);
    });
  }

  private async apply(tx: EntityManager, envelope: EventEnvelope): Promise<void> {
    const data = envelope.data as Record<string, any>;
    if (envelope.type === 'PlatformConfigInitialized.v1') return this.store(tx, envelope.streamId, data.platformId, data.mode, data.supportedCurrencies);
    if (!data.changes?.supportedCurrencies) return;
    const [known] = await queryRows(tx, `SELECT platform_id, mode FROM platform_currency_configs WHERE config_stream_id = $1`, [envelope.streamId]);
    if (!known) throw new Error(`config ${envelope.streamId} updated before it was initialized`); // retried, then DLQ
    return this.store(tx, envelope.streamId, known.platform_id, known.mode, data.changes.supportedCurrencies);
  }

  private async store(tx: EntityManager, streamId: string, platformId: string, mode: Mode, configs: CurrencyLimits[] | undefined): Promise<void> {
    const limits = (configs ?? []).map((c) => ({ currencyCode: c.currencyCode, minAmount: c.minAmount, maxAmount: c.maxAmount }));
    await queryRows(
      tx,
      `INSERT INTO platform_currency_configs (config_stream_id, platform_id, mode, configs) VALUES ($1, $2, $3, $4::jsonb)
       ON CONFLICT (config_stream_id) DO UPDATE SET configs = EXCLUDED.configs`,
      [streamId, platformId, mode, JSON.stringify(limits)],
    );
  }
}
