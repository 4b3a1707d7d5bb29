import type { Registry } from 'prom-client';
import { v7 as uuidv7 } from 'uuid';
import { ApiError, CallerContext, WebhookTestResult } from '@payments/contracts';
import type { EventBus } from '@payments/messaging';
import { BackgroundWork, createAppRegistry, EgressClient, ServiceClient, ServiceHost, subscriptionWork } from '@payments/runtime';
import { ResourceReader } from './catalogue/resource-reader';
import { TEST_WEBHOOK } from './catalogue/webhook-types';
import { DomainEventsConsumer } from './consumer/domain-events.consumer';
import { WebhookDeliveries } from './deliveries/webhook-deliveries';
import { DeliveryQueue } from './delivery/delivery-queue';
import { attempt, DeliveryWorker, DeliveryWorkerOptions } from './delivery/delivery-worker';
import { outcomeOf, RETRY_POLICY_DEFAULTS } from './delivery/retry-policy';
import { WebhookMetrics } from './ops/webhook-metrics';
import { WebhookSettingsCache } from './settings/webhook-settings.cache';
import { webhooksMigrations } from './webhooks.migrations';
import { asTransactional } from '@payments/eventsourcing';

export const WEBHOOKS_SERVICE = 'webhooks';
export const WEBHOOK_DISPATCHER_APP = 'webhook-dispatcher';

export interface WebhooksOptions {
  databaseUrl: string;
  bus: EventBus;
  sandboxTimeScale: number;
  identity: { host: string; port: number };
  accounts: { host: string; port: number };
  rpcTimeoutMs: number;
  /** WEBHOOK_TIMEOUT_MS (15 s) per attempt; WEBHOOK_BACKOFF_SCALE multiplies the retry delays and window. */
  attemptTimeoutMs: number;
  backoffScale: number;
  /** EGRESS_ALLOW_PRIVATE_NETWORKS: endpoints on private networks are reached (local development only); false by default. */
  egressAllowPrivateNetworks?: boolean;
  worker?: Partial<Omit<DeliveryWorkerOptions, 'attemptTimeoutMs' | 'retry'>>;
  settingsTtlMs?: number;
  log?: (message: string, error?: unknown) => void;
}

export const DELIVERY_WORKER_DEFAULTS = { concurrency: 32, perPlatformConcurrency: 4, pollIntervalMs: 250 };

/** The webhook dispatcher's parts, wired once: used by its RPC controller, its server, the admin CLI and tests. */
export class Webhooks {
  private constructor(
    readonly host: ServiceHost,
    readonly queue: DeliveryQueue,
    readonly settings: WebhookSettingsCache,
    readonly worker: DeliveryWorker,
    /** Enqueues from the service topics; runs while the server runs. */
    readonly events: BackgroundWork,
    readonly registry: Registry,
    /** The platform's view of its queue and its redeliveries (GET/POST /webhook-deliveries…). */
    readonly deliveries: WebhookDeliveries,
    private readonly egress: EgressClient,
    private readonly attemptTimeoutMs: number,
  ) {}

  static async open(options: WebhooksOptions): Promise<Webhooks> {
    const host = await ServiceHost.open({
      name: WEBHOOKS_SERVICE,
      databaseUrl: options.databaseUrl,
      bus: options.bus,
      topic: 'payments.webhooks.events.v1', // the dispatcher appends no events; the host gives it its schema and inbox
      migrations: [webhooksMigrations],
      entities: [],
      sandboxTimeScale: options.sandboxTimeScale,
      log: options.log,
    });
    const identity = new ServiceClient({ name: 'identity', ...options.identity }, options.rpcTimeoutMs);
    const accounts = new ServiceClient({ name: 'accounts', ...options.accounts }, options.rpcTimeoutMs);
    const queue = new DeliveryQueue(asTransactional(host.dataSource));
    const registry = createAppRegistry(WEBHOOK_DISPATCHER_APP);
    const settings = new WebhookSettingsCache(identity, options.settingsTtlMs ?? 10_000);
    const egress = new EgressClient({ allowPrivateNetworks: options.egressAllowPrivateNetworks ?? false, log: (message) => options.log?.(message) });
    const worker = new DeliveryWorker(
      queue,
      settings,
      new WebhookMetrics(registry, queue),
      egress,
      { ...DELIVERY_WORKER_DEFAULTS, ...options.worker, attemptTimeoutMs: options.attemptTimeoutMs, retry: { ...RETRY_POLICY_DEFAULTS, scale: options.backoffScale } },
      options.log,
    );
    const consumer = new DomainEventsConsumer(host.dataSource, WEBHOOKS_SERVICE, queue, new ResourceReader({ identity, accounts }), settings, () => worker.nudge(), options.log);
    const events = subscriptionWork(() => consumer.subscribe(options.bus), async () => {
      await identity.close();
      await accounts.close();
    });
    const deliveries = new WebhookDeliveries(queue, host.claims, () => worker.nudge());
    return new Webhooks(host, queue, settings, worker, events, registry, deliveries, egress, options.attemptTimeoutMs);
  }

  /**
   * POST /sandbox/webhooks/test: one signed TEST, now, never retried. The platform sees its endpoint's HTTP status and
   * nothing else: neither the body nor why no answer came, which would let a tenant read and scan whatever the
   * dispatcher can reach (the attempt history keeps both for the operator). 400 WEBHOOK_ENDPOINT_NOT_SET without an
   * endpoint, 400 WEBHOOK_DELIVERY_ERROR when no answer came (unreachable, timed out, or refused by the egress policy).
   */
  async sendTest(caller: CallerContext): Promise<WebhookTestResult> {
    const settings = await this.settings.fresh(caller.platformId, caller.mode);
    if (!settings.endpoint) throw new ApiError('WEBHOOK_ENDPOINT_NOT_SET', 'set webhookEndpoint with PATCH /config first');
    const row = { webhook_id: `Webhook:${uuidv7()}`, type: TEST_WEBHOOK, data_json: '{}' };
    const result = await attempt(this.egress, { ...settings, endpoint: settings.endpoint }, row, this.attemptTimeoutMs);
    const status = outcomeOf(result.status) === 'DELIVERED' ? 'DELIVERED' : 'FAILED';
    await this.queue.recordFinished({ webhookId: row.webhook_id, eventId: null, platformId: caller.platformId, mode: caller.mode, type: TEST_WEBHOOK, data: {}, retryable: false, status }, settings.endpoint, result);
    if (result.status === undefined) throw new ApiError('WEBHOOK_DELIVERY_ERROR', 'the endpoint did not answer', { url: settings.endpoint });
    // response_body stays in the published shape, always empty.
    return { url: settings.endpoint, response_status: result.status, response_body: '' };
  }
}
