import type { DataSource, EntityManager } from 'typeorm';
import { EventEnvelope, recordInInbox } from '@payments/eventsourcing';
import type { EventBus, SubscriptionHandle } from '@payments/messaging';
import { serviceTopic } from '@payments/messaging';
import { decode, IDENTITY_EVENTS, isOneOf, Mode, PlatformCurrencyConfig, PublicEventOf } from '@payments/contracts';
import { EMBEDDED_WALLET_CURRENCY, InternalAccountService } from './internal-account.service';
import { customersCreatedSince, forgetCustomer, rememberCustomer } from '../external-accounts/known-customers';

export const IDENTITY_EVENTS_CONSUMER = 'accounts.identity-events';

const HANDLED = ['PlatformConfigInitialized.v1', 'PlatformConfigUpdated.v1', 'CustomerCreated.v1', 'CustomerDeleted.v1'] as const;
type Handled = Extract<PublicEventOf<typeof IDENTITY_EVENTS>, { type: (typeof HANDLED)[number] }>;

/**
 * Opens internal accounts when identity says so: the platform's accounts for every configured currency, a
 * customer's accounts for the currencies in CustomerCreated.v1. The inbox row and the accounts commit together, so a
 * redelivered event has one effect.
 *
 * Embedded Wallets (type EMBEDDED_WALLET, USDB): "A Global Account is provisioned automatically whenever a customer is
 * created on a platform that has USDB in its supported currencies" (published docs, global-accounts/walkthrough.mdx),
 * in both modes. Customers created before their platform added USDB get none (not retroactive: the docs provision it
 * at creation only). Whichever of the two facts this consumer reads second opens it:
 * - CustomerCreated.v1 when the platform's currencies recorded here (platform_currencies) include USDB;
 * - PlatformConfigInitialized.v1 / PlatformConfigUpdated.v1 that add USDB, for the platform's live customers created
 *   at or after that change (read before it).
 * Why both: identity publishes its PlatformConfig and Customer events on one topic (serviceTopic('identity')), keyed
 * by stream id (PlatformConfig:… vs Customer:…; kafka-messages.ts, pg-log-event-bus.ts). The embedded PostgreSQL-log
 * bus keeps a topic as one ordered log, so there a configuration change is always read before the customers created
 * after it and the first rule suffices. Kafka orders per key only (docs/events.md: "ordered per stream"): the two
 * streams may sit on different partitions, read in no set order, so a customer may be read before the configuration
 * change that preceded it; the second rule covers that. The two rules serialize on a per-platform lock (shared for
 * customers, exclusive for a configuration), so concurrent consumers of different partitions cannot both miss.
 * Left uncovered: a customer created while USDB was on, read only after a later change removed USDB again, gets an
 * Embedded Wallet only if USDB was among its own currencies (as it is by default: identity defaults a customer's
 * currencies to the platform's).
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
        return this.platformCurrencies(tx, event.streamId, event.data.platformId, event.data.mode, event.data.supportedCurrencies, event.data.at ?? event.occurredAt, event.occurredAt);
      case 'PlatformConfigUpdated.v1': {
        const { supportedCurrencies } = event.data.changes;
        if (!supportedCurrencies) return;
        const [known]: { platform_id: string; mode: Mode }[] = await tx.query(`SELECT platform_id, mode FROM platform_currencies WHERE config_stream_id = $1`, [event.streamId]);
        if (!known) throw new Error(`config ${event.streamId} updated before it was initialized`); // retried, then DLQ
        return this.platformCurrencies(tx, event.streamId, known.platform_id, known.mode, supportedCurrencies, event.data.at ?? event.occurredAt, event.occurredAt);
      }
      case 'CustomerCreated.v1': {
        const { customerId, platformId, mode, customerType, currencies, createdAt } = event.data;
        await lockPlatform(tx, platformId, mode, 'shared');
        await rememberCustomer(tx, { customerId, platformId, mode, customerType, createdAt: createdAt ?? event.occurredAt });
        const [usdb]: unknown[] = await tx.query(`SELECT 1 FROM platform_currencies WHERE platform_id = $1 AND mode = $2 AND $3 = ANY(currencies)`, [platformId, mode, EMBEDDED_WALLET_CURRENCY]);
        return this.accounts.openForCustomer(tx, platformId, mode, customerId, currencies ?? [], usdb !== undefined, event.occurredAt);
      }
      case 'CustomerDeleted.v1':
        return forgetCustomer(tx, event.data.customerId ?? event.streamId, event.data.deletedAt ?? event.occurredAt);
    }
  }

  /** `changedAt`: when identity changed the configuration; `now`: when the accounts are opened. */
  private async platformCurrencies(tx: EntityManager, streamId: string, platformId: string, mode: Mode, configs: readonly PlatformCurrencyConfig[] | undefined, changedAt: string, now: string): Promise<void> {
    const currencies = (configs ?? []).map((c) => c.currencyCode);
    await lockPlatform(tx, platformId, mode, 'exclusive');
    const [before]: { currencies: string[] }[] = await tx.query(`SELECT currencies FROM platform_currencies WHERE config_stream_id = $1`, [streamId]);
    await tx.query(
      `INSERT INTO platform_currencies (config_stream_id, platform_id, mode, currencies, configs) VALUES ($1, $2, $3, $4, $5::jsonb)
       ON CONFLICT (config_stream_id) DO UPDATE SET currencies = EXCLUDED.currencies, configs = EXCLUDED.configs`,
      [streamId, platformId, mode, currencies, JSON.stringify(configs ?? [])],
    );
    // Accounts are never closed when a currency leaves the configuration: their balances must stay reachable.
    await this.accounts.openForPlatform(tx, platformId, mode, currencies, now);
    // USDB added: the Embedded Wallets of customers created since, whose CustomerCreated.v1 was read before this
    // change (only on Kafka, see above; on the embedded bus the list is empty).
    if (currencies.includes(EMBEDDED_WALLET_CURRENCY) && !before?.currencies.includes(EMBEDDED_WALLET_CURRENCY)) {
      for (const customerId of await customersCreatedSince(tx, platformId, mode, changedAt)) await this.accounts.openEmbeddedWallet(tx, platformId, mode, customerId, now);
    }
  }
}

/**
 * Serializes what a platform's configuration and its new customers decide about Embedded Wallets (see the class):
 * customers of one platform share the lock, a configuration change takes it alone, always before any account lock.
 */
async function lockPlatform(tx: EntityManager, platformId: string, mode: Mode, how: 'shared' | 'exclusive'): Promise<void> {
  const fn = how === 'shared' ? 'pg_advisory_xact_lock_shared' : 'pg_advisory_xact_lock';
  await tx.query(`SELECT ${fn}(hashtextextended($1, 0))`, [`EmbeddedWallets/${platformId}/${mode}`]);
}
