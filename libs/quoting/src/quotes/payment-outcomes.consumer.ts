import type { DataSource } from 'typeorm';
import { decode, PAYMENTS_EVENTS, Transaction } from '@payments/contracts';
import { DomainError, EventEnvelope, recordInInbox } from '@payments/eventsourcing';
import type { EventBus, SubscriptionHandle } from '@payments/messaging';
import { serviceTopic } from '@payments/messaging';
import type { QuoteCommand } from './quote.decider';
import type { QuoteService } from './quote.service';

export const QUOTING_PAYMENT_OUTCOMES_CONSUMER = 'quoting.payment-outcomes';

/**
 * Closes executed quotes from payments' transaction outcomes: COMPLETED → QuoteCompleted, FAILED → QuoteFailed (also
 * after a completion: a returned payout). The inbox row and the quote's events commit together: one effect per event.
 */
export class PaymentOutcomesConsumer {
  constructor(
    private readonly dataSource: DataSource,
    private readonly schema: string,
    private readonly quotes: QuoteService,
    private readonly log: (message: string, error?: unknown) => void,
  ) {}

  subscribe(bus: EventBus): Promise<SubscriptionHandle> {
    return bus.subscribe({ group: QUOTING_PAYMENT_OUTCOMES_CONSUMER, topics: [serviceTopic('payments')], handler: (e) => this.handle(e) });
  }

  async handle(envelope: EventEnvelope): Promise<void> {
    const event = decode(PAYMENTS_EVENTS, envelope);
    if (event?.type !== 'TransactionStatusChanged.v1') return; // unknown, internal or not ours
    const { transaction } = event.data;
    const command = commandFor(transaction, event.occurredAt);
    const { quoteId } = transaction;
    const platformId = event.platformId;
    if (!quoteId || !command || !platformId) return;
    await this.dataSource.transaction(async (tx) => {
      if (!(await recordInInbox(tx, this.schema, QUOTING_PAYMENT_OUTCOMES_CONSUMER, event.eventId))) return;
      const metadata = { correlationId: event.metadata?.correlationId, causationId: event.eventId, actor: 'payments' };
      try {
        await this.quotes.decideAndAppend(tx, platformId, quoteId, command, metadata);
      } catch (error) {
        // A refused transition (a quote that never executed) is a fact to log, not a poison message to retry.
        if (!(error instanceof DomainError)) throw error;
        this.log(`quote ${quoteId}: ${command.type} refused (${error.code})`);
      }
    });
  }
}

function commandFor(transaction: Transaction, now: string): QuoteCommand | null {
  if (transaction.status === 'COMPLETED') return { type: 'CompleteQuote', now };
  if (transaction.status === 'FAILED') return { type: 'FailQuote', failureReason: transaction.failureReason ?? 'QUOTE_EXECUTION_FAILED', now };
  return null;
}
