import type { EntityManager } from 'typeorm';
import type { TransactionDestination, TransactionSource } from '@payments/contracts';
import type { Projection } from '@payments/eventsourcing';
import { TransactionEvent } from './transaction.events';
import { TransactionState } from './transaction.state';
import { listKeyOf } from './transaction-list-key';
import { toTransaction } from './transaction.view';

/** A side's account identifier (GET /transactions filters): the account id, or the UMA address; none for realtime funding. */
const accountIdentifierOf = (side: TransactionSource | TransactionDestination): string | null =>
  'accountId' in side ? side.accountId : 'umaAddress' in side ? side.umaAddress : null;

/** The transactions read model: the API body plus the columns tenancy and list filters use. */
export const projectTransaction: Projection<EntityManager, TransactionState, TransactionEvent> = async (tx, _events, state) => {
  if (state.status === 'NONE') return;
  await tx.query(
    `INSERT INTO transactions (transaction_id, platform_id, mode, type, status, customer_id, platform_customer_id, sender_identifier, receiver_identifier, reference, quote_id, body, created_at, updated_at, list_key)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)
     ON CONFLICT (transaction_id) DO UPDATE SET status = $5, body = $12, updated_at = $14`,
    [
      state.transactionId, state.platformId, state.mode, state.type, state.status, state.customerId, state.platformCustomerId ?? null,
      accountIdentifierOf(state.source), accountIdentifierOf(state.destination), state.reference, state.quoteId,
      JSON.stringify(toTransaction(state)), state.createdAt, state.updatedAt, listKeyOf(state.createdAt, state.transactionId),
    ],
  );
};
