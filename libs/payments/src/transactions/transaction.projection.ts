import type { EntityManager } from 'typeorm';
import type { Projection } from '@payments/eventsourcing';
import { TransactionEvent } from './transaction.events';
import { TransactionState } from './transaction.state';
import { toTransaction } from './transaction.view';

const accountOf = (side: { accountId?: string }) => side.accountId ?? null;

/** The transactions read model: the API body plus the columns tenancy and list filters use. */
export const projectTransaction: Projection<EntityManager, TransactionState, TransactionEvent> = async (tx, _events, state) => {
  if (state.status === 'NONE') return;
  await tx.query(
    `INSERT INTO transactions (transaction_id, platform_id, mode, type, status, customer_id, source_account_id, destination_account_id, quote_id, body, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
     ON CONFLICT (transaction_id) DO UPDATE SET status = $5, body = $10, updated_at = $12`,
    [
      state.transactionId, state.platformId, state.mode, state.type, state.status, state.customerId,
      accountOf(state.source as { accountId?: string }), accountOf(state.destination as { accountId?: string }), state.quoteId,
      JSON.stringify(toTransaction(state)), state.createdAt, state.updatedAt,
    ],
  );
};
