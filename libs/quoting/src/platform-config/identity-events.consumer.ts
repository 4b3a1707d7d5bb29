import type { DataSource, EntityManager } from 'typeorm';
import { EventEnvelope, queryRows, recordInInbox } from '@payments/eventsourcing';
import type { EventBus, SubscriptionHandle } from '@payments/messaging';
import { serviceTopic } from '@payments/messaging';
import { decode, IDENTITY_EVENTS, isOneOf, Mode, PublicEventOf } from '@payments/contracts';
import { applyCustomerEvent } from './customer-directory';

export const QUOTING_IDENTITY_EVENTS_CONSUMER = 'quoting.identity-events';

const HANDLED = ['PlatformConfigInitialized.v1', 'PlatformConfigUpdated.v1', 'CustomerCreated.v1', 'CustomerUpdated.v1', 'CustomerDeleted.v1', 'CustomerKycStatusChanged.v1'] as const;
type Handled = Extract<PublicEventOf<typeof IDENTITY_EVENTS>, { type: (typeof HANDLED)[number] }>;

/** A platform's own fee on cross-currency transactions from one source currency (PlatformConfig.feeConfigs). */
export interface PlatformFeeConfig {
  feeType: string;
  sourceCurrency: string;
  variableFeeBps: number;
  fixedFee: { amount: number; currency: string };
}

/** The part of identity's PlatformCurrencyConfig quoting needs. */
export interface CurrencyLimits {
  currencyCode: string;
  minAmount?: number;
  maxAmount?: number;
}

/**
 * Keeps each platform's currency configs (min and max amounts) from identity's PlatformConfig events, and the
 * customer directory (region, currencies) from its Customer events. The inbox
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
    const event = decode(IDENTITY_EVENTS, envelope);
    if (!isOneOf(event, ...HANDLED)) return; // unknown, internal or not ours
    await this.dataSource.transaction(async (tx) => {
      if (!(await recordInInbox(tx, this.schema, QUOTING_IDENTITY_EVENTS_CONSUMER, event.eventId))) return;
      await this.apply(tx, event);
    });
  }

  private async apply(tx: EntityManager, event: Handled): Promise<void> {
    switch (event.type) {
      case 'CustomerCreated.v1':
      case 'CustomerUpdated.v1':
      case 'CustomerDeleted.v1':
      case 'CustomerKycStatusChanged.v1':
        return applyCustomerEvent(tx, event);
      case 'PlatformConfigInitialized.v1':
        await this.storeLimits(tx, event.streamId, event.data.platformId, event.data.mode, event.data.supportedCurrencies);
        return this.storeFees(tx, event.streamId, event.data.feeConfigs);
      case 'PlatformConfigUpdated.v1': {
        const { changes } = event.data;
        if (!changes.supportedCurrencies && !changes.feeConfigs) return;
        const [known] = await queryRows<{ platform_id: string; mode: Mode }>(tx, `SELECT platform_id, mode FROM platform_currency_configs WHERE config_stream_id = $1`, [event.streamId]);
        if (!known) throw new Error(`config ${event.streamId} updated before it was initialized`); // retried, then DLQ
        if (changes.supportedCurrencies) await this.storeLimits(tx, event.streamId, known.platform_id, known.mode, changes.supportedCurrencies);
        if (changes.feeConfigs) await this.storeFees(tx, event.streamId, changes.feeConfigs);
      }
    }
  }

  private async storeLimits(tx: EntityManager, streamId: string, platformId: string, mode: Mode, configs: CurrencyLimits[] | undefined): Promise<void> {
    const limits = (configs ?? []).map((c) => ({ currencyCode: c.currencyCode, minAmount: c.minAmount, maxAmount: c.maxAmount }));
    await queryRows(
      tx,
      `INSERT INTO platform_currency_configs (config_stream_id, platform_id, mode, configs) VALUES ($1, $2, $3, $4::jsonb)
       ON CONFLICT (config_stream_id) DO UPDATE SET configs = EXCLUDED.configs`,
      [streamId, platformId, mode, JSON.stringify(limits)],
    );
  }

  /** The platform's fee configs as they stand after the event (identity sends the whole list). */
  private async storeFees(tx: EntityManager, streamId: string, feeConfigs: PlatformFeeConfig[] | undefined): Promise<void> {
    if (!feeConfigs) return;
    await queryRows(tx, `UPDATE platform_currency_configs SET fee_configs = $2::jsonb WHERE config_stream_id = $1`, [streamId, JSON.stringify(feeConfigs)]);
  }
}
