import { ApiError, CallerContext, isWebhookId, ListWebhookDeliveriesQuery, Page, WebhookDelivery, WebhookDeliveryDetail, WebhookRedeliveryResult } from '@payments/contracts';
import type { IdempotencyClaims } from '@payments/eventsourcing';
import { idempotencyScopeOf } from '@payments/runtime';
import { DeliveryQueue, DeliveryRow, DeliveryScope } from '../delivery/delivery-queue';
import { toWebhookDelivery, toWebhookDeliveryDetail } from '../delivery/delivery-view';
import { DEAD_LETTERS_ONLY, PLATFORM_REDELIVERABLE } from '../delivery/redelivery';

const notFound = () => new ApiError('REFERENCE_NOT_FOUND', 'webhook delivery not found');
const scopeOf = (caller: CallerContext): DeliveryScope => ({ platformId: caller.platformId, mode: caller.mode });

/**
 * The platform's view of its webhook queue (GET/POST /webhook-deliveries…): always the caller's platform and mode, so
 * another platform's or mode's webhook is 404 like one that does not exist. Redeliveries go through the queue's one
 * requeue (shared with the admin CLI) and claim the Idempotency-Key in the same transaction.
 */
export class WebhookDeliveries {
  constructor(
    private readonly queue: DeliveryQueue,
    private readonly claims: IdempotencyClaims,
    /** Wakes this process's worker, so a requeued webhook is attempted now rather than at the next idle poll. */
    private readonly nudge: () => void,
  ) {}

  async list(caller: CallerContext, query: ListWebhookDeliveriesQuery): Promise<Page<WebhookDelivery>> {
    const page = await this.queue.list(scopeOf(caller), query);
    return { ...page, data: page.data.map(toWebhookDelivery) };
  }

  async get(caller: CallerContext, webhookId: string): Promise<WebhookDeliveryDetail> {
    const row = await this.row(caller, webhookId);
    return toWebhookDeliveryDetail(row, await this.queue.attempts(row.webhook_id), new Date());
  }

  /**
   * 409 when it is PENDING (queued already); see PLATFORM_REDELIVERABLE. Answers the delivery as the requeue left it
   * (a worker may take it the moment it commits); a retry of the same key answers it as it is now.
   */
  async redeliver(caller: CallerContext, webhookId: string): Promise<WebhookDelivery> {
    await this.row(caller, webhookId);
    const requeued = await this.claims.run(
      idempotencyScopeOf(caller),
      'webhook-redeliver',
      webhookId,
      (claim) =>
        this.queue.transaction(async (tx) => {
          const ids = await this.queue.requeue(tx, { webhookId, scope: scopeOf(caller), statuses: PLATFORM_REDELIVERABLE });
          if (ids.length === 0) throw new ApiError('INVALID_STATE_TRANSITION', 'the webhook is PENDING: it is queued for its next attempt already');
          await claim(tx);
          return (await this.queue.find(scopeOf(caller), webhookId, tx))!;
        }),
      () => this.row(caller, webhookId),
    );
    this.nudge();
    return toWebhookDelivery(requeued);
  }

  /**
   * Every dead letter of the platform and mode. The key is claimed with the ids requeued (the claim's resource is that
   * list, known only once the update ran), so a retry of the same key answers the same list and requeues nothing more.
   */
  async redeliverDeadLetters(caller: CallerContext): Promise<WebhookRedeliveryResult> {
    const scope = idempotencyScopeOf(caller);
    const operation = 'webhook-redeliver-dead-letters';
    const requeued = await this.claims.run(
      scope,
      operation,
      '',
      () =>
        this.queue.transaction(async (tx) => {
          const ids = await this.queue.requeue(tx, { scope: scopeOf(caller), statuses: DEAD_LETTERS_ONLY });
          if (scope) await this.claims.claim(tx, scope, operation, JSON.stringify(ids));
          return ids;
        }),
      async (claimed) => JSON.parse(claimed) as string[],
    );
    if (requeued.length > 0) this.nudge();
    return { requeued };
  }

  private async row(caller: CallerContext, webhookId: string): Promise<DeliveryRow> {
    const row = isWebhookId(webhookId) ? await this.queue.find(scopeOf(caller), webhookId) : undefined;
    if (!row) throw notFound();
    return row;
  }
}
