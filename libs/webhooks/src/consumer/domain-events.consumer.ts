import type { DataSource } from 'typeorm';
import { decodeAny, isOneOf, Mode, MODES } from '@payments/contracts';
import { EventEnvelope, queryRows, recordInInbox } from '@payments/eventsourcing';
import type { EventBus, SubscriptionHandle } from '@payments/messaging';
import { serviceTopic } from '@payments/messaging';
import { SourceEvent, WEBHOOK_SOURCE_CATALOGUES, webhookFor } from '../catalogue/event-mapping';
import type { ResourceReader } from '../catalogue/resource-reader';
import { TEST_WEBHOOK } from '../catalogue/webhook-types';
import type { DeliveryQueue, NewDelivery } from '../delivery/delivery-queue';
import type { WebhookSettingsCache } from '../settings/webhook-settings.cache';

export const WEBHOOK_EVENTS_CONSUMER = 'webhook-dispatcher.deliveries';
export const WEBHOOK_SOURCE_TOPICS = WEBHOOK_SOURCE_CATALOGUES.map((catalogue) => serviceTopic(catalogue.service));

type ConfigEvent = Extract<SourceEvent, { type: 'PlatformConfigInitialized.v1' | 'PlatformConfigUpdated.v1' | 'WebhookEndpointDisabled.v1' }>;

/**
 * Turns domain events into queued webhooks. It only enqueues (the inbox row and the delivery commit together, so a
 * redelivered event is queued once); the worker delivers. It also follows identity's PlatformConfig events: they drop
 * cached settings, and setting an endpoint queues a TEST.
 */
export class DomainEventsConsumer {
  constructor(
    private readonly dataSource: DataSource,
    private readonly schema: string,
    private readonly queue: DeliveryQueue,
    private readonly resources: ResourceReader,
    private readonly settings: WebhookSettingsCache,
    private readonly enqueued: () => void,
    private readonly log: (message: string, error?: unknown) => void = () => undefined,
  ) {}

  subscribe(bus: EventBus): Promise<SubscriptionHandle> {
    // The bus creates topics nobody has published to yet (payments before its first event).
    return bus.subscribe({ group: WEBHOOK_EVENTS_CONSUMER, topics: WEBHOOK_SOURCE_TOPICS, handler: (e) => this.handle(e) });
  }

  async handle(envelope: EventEnvelope): Promise<void> {
    const event = decodeAny(WEBHOOK_SOURCE_CATALOGUES, envelope);
    if (!event || !envelope.platformId) return; // unknown or internal types are ignored
    if (isOneOf(event, 'PlatformConfigInitialized.v1', 'PlatformConfigUpdated.v1', 'WebhookEndpointDisabled.v1')) return this.configChanged(event);
    const mapped = webhookFor(envelope);
    if (!mapped) return;
    // Most platforms and modes have no endpoint: ask the (cached) settings before reading any resource over RPC.
    if (!(await this.anyEndpoint(envelope.platformId, mapped.mode))) return;
    let delivery: NewDelivery | null = null;
    if ('carried' in mapped.source) {
      if (!mapped.mode) return this.log(`webhooks: ${envelope.type} ${envelope.eventId} carries no mode; not sent`);
      delivery = { eventId: envelope.eventId, platformId: envelope.platformId, mode: mapped.mode, type: mapped.type, data: mapped.source.carried, retryable: mapped.retryable };
    } else {
      // Read before the transaction: an RPC must not hold a database connection. Unavailable: the bus retries.
      const read = await this.resources.read(envelope.platformId, mapped.mode, mapped.source.fetch);
      if (read) delivery = { eventId: envelope.eventId, platformId: envelope.platformId, mode: read.mode, type: mapped.type, data: read.data, retryable: mapped.retryable };
    }
    if (!delivery) return;
    const settings = await this.settings.get(delivery.platformId, delivery.mode);
    if (!settings.endpoint) return; // no endpoint, no webhooks: nothing is kept for a platform that never asked
    await this.inTransaction(envelope, (tx) => this.queue.enqueue(tx, delivery!));
  }

  private async anyEndpoint(platformId: string, mode: Mode | undefined): Promise<boolean> {
    for (const m of mode ? [mode] : MODES) if ((await this.settings.get(platformId, m)).endpoint) return true;
    return false;
  }

  private async configChanged(envelope: ConfigEvent): Promise<void> {
    this.settings.invalidate(envelope.platformId!);
    if (envelope.type === 'PlatformConfigInitialized.v1') {
      await queryRows(this.dataSource, `INSERT INTO config_streams (config_stream_id, platform_id, mode) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`, [envelope.streamId, envelope.data.platformId, envelope.data.mode]);
      return;
    }
    if (envelope.type !== 'PlatformConfigUpdated.v1' || typeof envelope.data.changes?.webhookEndpoint !== 'string') return;
    const [stream] = await queryRows<{ platform_id: string; mode: Mode }>(this.dataSource, `SELECT platform_id, mode FROM config_streams WHERE config_stream_id = $1`, [envelope.streamId]);
    if (!stream) throw new Error(`config ${envelope.streamId} updated before it was initialized`); // retried, then DLQ
    // A new endpoint gets a TEST, once per change; never retried, its one attempt is recorded.
    const test: NewDelivery = { eventId: envelope.eventId, platformId: stream.platform_id, mode: stream.mode, type: TEST_WEBHOOK, data: {}, retryable: false };
    await this.inTransaction(envelope, (tx) => this.queue.enqueue(tx, test));
  }

  private async inTransaction(envelope: Pick<EventEnvelope, 'eventId'>, work: (tx: import('typeorm').EntityManager) => Promise<unknown>): Promise<void> {
    await this.dataSource.transaction(async (tx) => {
      if (!(await recordInInbox(tx, this.schema, WEBHOOK_EVENTS_CONSUMER, envelope.eventId))) return;
      await work(tx);
    });
    this.enqueued();
  }
}
