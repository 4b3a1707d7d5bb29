import type { EntityManager } from 'typeorm';
import type { Projection } from '@payments/eventsourcing';
import { CardTransactionEvent } from './card-transaction.events';
import { CardTransactionState, confirmedPulled, isOpen, OpenCardTransaction, refundedAmount } from './card-transaction.state';
import { toCardTransaction } from './card-transaction.view';

/** What the card network holds for the transaction, from the funding account's side: pulled minus given back. */
export const networkAmountOf = (s: OpenCardTransaction) => confirmedPulled(s) - s.released - refundedAmount(s) - s.credited;

/** Card transactions by card (the open ones are reconciled when the card closes) and for the card ledger check. */
export const projectCardTransaction: Projection<EntityManager, CardTransactionState, CardTransactionEvent> = async (tx, _events, s) => {
  if (s.status === 'NONE') return;
  const open = isOpen(s);
  await tx.query(
    `INSERT INTO card_transactions (transaction_id, card_id, platform_id, mode, status, account_id, network_amount, body, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
     ON CONFLICT (transaction_id) DO UPDATE SET status = $5, account_id = $6, network_amount = $7, body = $8, updated_at = $10`,
    [
      s.transactionId, s.cardId, s.platformId, s.mode, s.status, open ? s.accountId : null, open ? networkAmountOf(s) : 0,
      open ? JSON.stringify(toCardTransaction(s)) : null, s.receivedAt, open || s.status === 'DECLINED' ? s.updatedAt : s.receivedAt,
    ],
  );
};
