import type { WebhookSettings } from '@payments/contracts';
import { PollPause, WakeSchedule } from '@payments/eventsourcing';
import { context, contextFromTraceparent } from '@payments/observability';
import type { BackgroundWork, EgressClient } from '@payments/runtime';
import { signedHeaders } from '../signing/webhook-signature';
import type { WebhookSettingsCache } from '../settings/webhook-settings.cache';
import type { WebhookMetrics } from '../ops/webhook-metrics';
import { AttemptEnd, DeliveryQueue, DeliveryRow } from './delivery-queue';
import { inDeliverySpan } from './delivery-tracing';
import { AttemptResult, postWebhook } from './http-sender';
import { outcomeOf, retryDelayMs, RetryPolicy, retryWindowExceeded } from './retry-policy';

export interface DeliveryWorkerOptions {
  /** Attempts in flight in this process at most. */
  concurrency: number;
  /** Attempts in flight per platform and mode at most, so one slow endpoint holds few slots. */
  perPlatformConcurrency: number;
  attemptTimeoutMs: number;
  /**
   * Poll after claiming something or a nudge; doubling while idle up to `pollIdleMaxMs` (IDLE_POLL_MAX_MS). Retries
   * this worker sets wake it when due, enqueues in this process nudge it.
   */
  pollIntervalMs: number;
  pollIdleMaxMs?: number;
  retry: RetryPolicy;
}

/** How long past a retry's due time the worker wakes: the retry was committed before, this is only timer slack. */
const RETRY_WAKE_AFTER_DUE_MS = 5;

/** The body of one attempt: the envelope, its `timestamp` the time it is sent (interop §3.1). */
export function webhookBody(row: Pick<DeliveryRow, 'webhook_id' | 'type' | 'data_json'>, sentAt: Date): string {
  return `{"id":${JSON.stringify(row.webhook_id)},"type":${JSON.stringify(row.type)},"timestamp":"${sentAt.toISOString()}","data":${row.data_json}}`;
}

/** One signed POST, in its delivery span; shared by the queue worker and the synchronous TEST. */
export function attempt(egress: EgressClient, settings: WebhookSettings & { endpoint: string }, row: Pick<DeliveryRow, 'webhook_id' | 'type' | 'data_json'>, timeoutMs: number): Promise<AttemptResult> {
  return inDeliverySpan(settings.endpoint, row, async (trace) => {
    const now = new Date();
    const body = webhookBody(row, now);
    // The trace headers are not signed: the signature covers the id, the timestamp and the body.
    const result = await postWebhook(egress, settings.endpoint, { ...signedHeaders(settings, row.webhook_id, Math.floor(now.getTime() / 1000), body), ...trace }, body, timeoutMs);
    return { ...result, sentAt: now };
  });
}

/**
 * Claims due deliveries and attempts them, at most `concurrency` at once and `perPlatformConcurrency` per platform.
 * Runs apart from the bus consumer, which only enqueues: a slow endpoint never holds up consumption.
 */
export class DeliveryWorker implements BackgroundWork {
  private readonly inFlight = new Map<string, number>();
  private running = false;
  private loop?: Promise<void>;
  /** Ended by a nudge, a retry falling due or a freed slot, also when one came while claiming. */
  private pause: PollPause;
  private readonly retriesDue = new WakeSchedule(() => this.nudge());

  constructor(
    private readonly queue: DeliveryQueue,
    private readonly settings: WebhookSettingsCache,
    private readonly metrics: WebhookMetrics,
    private readonly egress: EgressClient,
    private readonly options: DeliveryWorkerOptions,
    private readonly log: (message: string, error?: unknown) => void = () => undefined,
  ) {
    this.pause = this.newPause();
  }

  private newPause(): PollPause {
    return new PollPause({ baseMs: this.options.pollIntervalMs, maxMs: this.options.pollIdleMaxMs });
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.pause = this.newPause(); // a stopped one ends every pause
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.retriesDue.cancel();
    this.pause.stop();
    await this.loop;
    while (this.total() > 0) await new Promise((r) => setTimeout(r, 20)); // let attempts in flight record their outcome
  }

  /** Something was enqueued: look now instead of at the next poll (when full, the next finished attempt looks). */
  nudge(): void {
    if (this.total() < this.options.concurrency) this.pause.wake();
  }

  private total(): number {
    let n = 0;
    for (const v of this.inFlight.values()) n += v;
    return n;
  }

  private async run(): Promise<void> {
    while (this.running) {
      let claimed: DeliveryRow[] = [];
      let failed = false;
      try {
        const leaseMs = this.options.attemptTimeoutMs * 2 + 5_000; // longer than any attempt: never two at once
        claimed = await this.queue.claim(this.options.concurrency - this.total(), this.options.perPlatformConcurrency, this.inFlight, leaseMs);
      } catch (error) {
        failed = true;
        this.log('webhooks: claiming deliveries failed, will retry', error);
      }
      for (const row of claimed) this.track(row);
      if (claimed.length > 0) this.pause.worked();
      // Full: the next finished attempt wakes it (the pause is only a bound). Idle: it backs off, woken by a nudge or
      // a retry it set falling due. After a claim that found some, it claims again at once.
      if (this.total() >= this.options.concurrency) await this.pause.pause({ ms: this.options.pollIntervalMs });
      else if (claimed.length === 0) await this.pause.pause({ afterError: failed });
    }
  }

  private track(row: DeliveryRow): void {
    const key = `${row.platform_id}/${row.mode}`;
    this.inFlight.set(key, (this.inFlight.get(key) ?? 0) + 1);
    // Each delivery continues the trace it was queued in (a child of the consumer's span, retries included).
    void context
      .with(contextFromTraceparent(row.traceparent), () => this.deliver(row))
      .catch((error) => this.log(`webhooks: delivery ${row.webhook_id} failed unexpectedly; its lease will expire and it is retried`, error))
      .finally(() => {
        // A slot at a limit freed: a delivery it held back may be claimable now.
        const atLimit = this.total() >= this.options.concurrency || (this.inFlight.get(key) ?? 0) >= this.options.perPlatformConcurrency;
        const left = (this.inFlight.get(key) ?? 1) - 1;
        if (left > 0) this.inFlight.set(key, left);
        else this.inFlight.delete(key);
        if (atLimit) this.pause.wake();
      });
  }

  private async deliver(row: DeliveryRow): Promise<void> {
    const settings = await this.settings.get(row.platform_id, row.mode).catch(() => undefined);
    if (!settings) return void (await this.queue.finishAttempt(row, null, null, this.retryOrGiveUp(row, row.attempts + 1)));
    if (!settings.endpoint) return void (await this.queue.finishAttempt(row, null, null, this.terminal(row, 'NO_ENDPOINT')));
    if (settings.endpointStatus === 'DISABLED') return void (await this.queue.finishAttempt(row, null, null, this.terminal(row, 'ENDPOINT_DISABLED')));
    const endpoint = settings.endpoint;
    const result = await attempt(this.egress, { ...settings, endpoint }, row, this.options.attemptTimeoutMs);
    const outcome = outcomeOf(result.status);
    const platform = row.platform_id;
    this.metrics.attempts.inc({ platform, outcome });
    if (outcome !== 'DELIVERED') this.metrics.failures.inc({ platform });
    const end = this.endOf(row, outcome, endpoint);
    const finished = await this.queue.finishAttempt(row, endpoint, result, end);
    if (finished && end.status === 'PENDING') this.retriesDue.in(end.delayMs + RETRY_WAKE_AFTER_DUE_MS);
    if (finished && end.status === 'DELIVERED') {
      this.metrics.latency.observe({ platform }, (Date.now() - new Date(row.created_at).getTime()) / 1000);
    }
    if (outcome === 'ENDPOINT_GONE') {
      await this.settings.disableEndpoint(row.platform_id, row.mode, endpoint, `410 Gone on ${row.webhook_id}`).catch((e) => this.log('webhooks: recording a 410 with identity failed', e));
    }
  }

  private endOf(row: DeliveryRow, outcome: ReturnType<typeof outcomeOf>, _endpoint: string): AttemptEnd {
    switch (outcome) {
      case 'DELIVERED':
        return { status: 'DELIVERED' };
      case 'REJECTED':
        return { status: 'REJECTED' };
      case 'ENDPOINT_GONE':
        return this.terminal(row, 'ENDPOINT_GONE');
      case 'RETRY':
        return this.retryOrGiveUp(row, row.attempts + 1);
    }
  }

  /** A TEST (never retried) just fails; anything else becomes a dead letter an operator can redeliver. */
  private terminal(row: DeliveryRow, reason: string): AttemptEnd {
    return row.retryable ? { status: 'DEAD_LETTER', reason } : { status: 'FAILED' };
  }

  private retryOrGiveUp(row: DeliveryRow, attempts: number): AttemptEnd {
    if (!row.retryable) return { status: 'FAILED' };
    const delayMs = retryDelayMs(this.options.retry, attempts, Math.random());
    if (retryWindowExceeded(this.options.retry, new Date(row.retry_window_from).getTime(), Date.now() + delayMs)) return { status: 'DEAD_LETTER', reason: 'RETRY_WINDOW_EXHAUSTED' };
    return { status: 'PENDING', delayMs };
  }
}
