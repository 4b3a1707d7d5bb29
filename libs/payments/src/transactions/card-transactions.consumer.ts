import type { DataSource, EntityManager } from 'typeorm';
import { CARDS_EVENTS, CardTransaction, decode, isCardTransactionId, MODES } from '@payments/contracts';
import { EventEnvelope, recordInInbox } from '@payments/eventsourcing';
import type { EventBus, SubscriptionHandle } from '@payments/messaging';
import { serviceTopic } from '@payments/messaging';
import { listKeyOf } from './transaction-list-key';

export const PAYMENTS_CARD_EVENTS_CONSUMER = 'payments.card-events';

/** What the read model needs of a card transaction; anything else in it is kept in `body` as carried. */
const isUsable = (t: Partial<CardTransaction> | undefined): t is CardTransaction =>
  !!t &&
  typeof t.id === 'string' &&
  isCardTransactionId(t.id) &&
  typeof t.status === 'string' &&
  (t.direction === 'DEBIT' || t.direction === 'CREDIT') &&
  typeof t.createdAt === 'string' &&
  !Number.isNaN(Date.parse(t.createdAt)) &&
  typeof t.updatedAt === 'string' &&
  !Number.isNaN(Date.parse(t.updatedAt));

/**
 * Keeps card transactions (type CARD) in the `transactions` read model, so GET /transactions and /transactions/{id}
 * answer them, from the cards service's `CardTransactionUpdated.v1` (every transition, the view after it). The inbox
 * row and the upsert commit together: a redelivered event has one effect.
 *
 * Order: the bus keeps a stream's order, but a redelivery (or a replay after a crash, `events:reconcile`) can bring an
 * older update after a newer one under a new inbox key. A row is only overwritten by an update that is newer by
 * `(transaction.updatedAt, envelope.streamVersion)`: updatedAt first (the resource's own clock, what webhooks
 * and clients order by), then the version of the event in the cards stream `CardTransaction:<uuid>` when two
 * transitions carry the same updatedAt (one append, one `now`). The version counts only when the event is on the
 * transaction's own stream; otherwise an equal updatedAt keeps the row as it is.
 */
export class CardTransactionsConsumer {
  constructor(
    private readonly dataSource: DataSource,
    private readonly schema: string,
    private readonly log: (message: string, error?: unknown) => void = () => undefined,
  ) {}

  subscribe(bus: EventBus): Promise<SubscriptionHandle> {
    return bus.subscribe({ group: PAYMENTS_CARD_EVENTS_CONSUMER, topics: [serviceTopic('cards')], handler: (e) => this.handle(e) });
  }

  async handle(envelope: EventEnvelope): Promise<void> {
    const event = decode(CARDS_EVENTS, envelope);
    if (event?.type !== 'CardTransactionUpdated.v1') return; // unknown, internal or not ours
    const { transaction, mode } = event.data;
    const platformId = event.data.platformId ?? event.platformId;
    if (!isUsable(transaction) || !platformId || !MODES.includes(mode)) {
      // A malformed event would fail the same way on every retry: a fact to log, not a poison message.
      this.log(`payments: ${event.type} ${event.eventId} has no usable card transaction (platform, mode, id, direction, dates); skipped`);
      return;
    }
    const version = event.streamId === transaction.id && Number.isSafeInteger(event.streamVersion) ? event.streamVersion : null;
    await this.dataSource.transaction(async (tx) => {
      if (!(await recordInInbox(tx, this.schema, PAYMENTS_CARD_EVENTS_CONSUMER, event.eventId))) return;
      await upsertCardTransaction(tx, platformId, mode, transaction, version);
    });
  }
}

/**
 * One row per card transaction. The funding account is the sender of a DEBIT and the receiver of a CREDIT (the
 * merchant has no account identifier here), so `accountIdentifier`/`accountId` find it by `accountId`. A row is
 * never moved to another platform or mode, and never overwritten by an older update (see the consumer).
 */
export async function upsertCardTransaction(tx: EntityManager, platformId: string, mode: string, t: CardTransaction, streamVersion: number | null): Promise<void> {
  await tx.query(
    `INSERT INTO transactions AS t (transaction_id, platform_id, mode, type, status, customer_id, platform_customer_id, sender_identifier, receiver_identifier,
                                    reference, quote_id, body, created_at, updated_at, list_key, source_stream_version)
     VALUES ($1, $2, $3, 'CARD', $4, $5, $6, $7, $8, NULL, NULL, $9, $10, $11, $12, $13)
     ON CONFLICT (transaction_id) DO UPDATE SET
       status = EXCLUDED.status, customer_id = EXCLUDED.customer_id, platform_customer_id = EXCLUDED.platform_customer_id,
       sender_identifier = EXCLUDED.sender_identifier, receiver_identifier = EXCLUDED.receiver_identifier,
       body = EXCLUDED.body, updated_at = EXCLUDED.updated_at, source_stream_version = EXCLUDED.source_stream_version
     WHERE t.type = 'CARD' AND t.platform_id = EXCLUDED.platform_id AND t.mode = EXCLUDED.mode
       AND (EXCLUDED.updated_at, coalesce(EXCLUDED.source_stream_version, -1)) > (t.updated_at, coalesce(t.source_stream_version, -1))`,
    [
      t.id, platformId, mode, t.status, t.customerId ?? null, t.platformCustomerId ?? null,
      t.direction === 'DEBIT' ? (t.accountId ?? null) : null, t.direction === 'CREDIT' ? (t.accountId ?? null) : null,
      JSON.stringify(t), t.createdAt, t.updatedAt, listKeyOf(t.createdAt, t.id), streamVersion,
    ],
  );
}
