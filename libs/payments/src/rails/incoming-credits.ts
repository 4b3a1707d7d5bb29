import type { EntityManager } from 'typeorm';
import { v5 as uuidv5 } from 'uuid';
import type { FundingAccountMatch } from '@payments/contracts';
import { queryRows } from '@payments/eventsourcing';
import type { Peers } from '../rpc/peers';
import { transferInPlan } from '../saga/ledger-plan';
import { INTERNAL_SCRIPT } from '../saga/rail-script';
import type { TransactionSaga } from '../saga/transaction-saga';
import type { TransactionTerms } from '../transactions/transaction.events';

const CREDIT_NAMESPACE = '3c9d7e21-4a6b-4f85-b0d2-8e1f5a7c9b34';

/** Money that arrived at the deposit account, as a connector read it (or an operator's exception carries it). */
export interface IncomingCredit {
  connectorId: string;
  /** The bank's id of the entry (InboundEntry.bankReference), else the file and entry it was read from. */
  bankReference: string;
  amount: number;
  currency: string;
  paymentRail: string | null;
  debtorName?: string;
  /** Where it came from: the imported file, or the exception an operator assigned. */
  fileId: string | null;
  exceptionId?: string;
}

/**
 * Incoming credits to production internal accounts (docs/rails.md#incoming-credits). One `rail_incoming_credits` row
 * per bank entry (connector and the bank's reference), inserted in the caller's transaction with the INCOMING
 * transaction it creates: a file imported again, the same entry in another file, or an operator assigning a credit
 * that was matched meanwhile find the row and change nothing. The transaction is the sandbox incoming payment's
 * (UmaReceiveService): the saga settles it from CLEARING into the account (`<transactionId>/credit`) and COMPLETES
 * it, with the INCOMING_PAYMENT webhooks; no platform approval, the money has arrived.
 */
export class IncomingCredits {
  constructor(
    private readonly schema: string,
    private readonly saga: TransactionSaga,
    private readonly peers: Pick<Peers, 'matchFunding'>,
  ) {}

  /** The production account the credit is for (a virtual account number, a reference code in its texts), or null. */
  match(currency: string, texts: string[], accountNumbers: string[]): Promise<FundingAccountMatch | null> {
    return this.peers.matchFunding({ currency, texts, accountNumbers });
  }

  /** An operator's choice: the production account `internalAccountId` if it is in the credit's currency, else null. */
  account(internalAccountId: string, currency: string): Promise<FundingAccountMatch | null> {
    return this.peers.matchFunding({ currency, texts: [], accountNumbers: [], internalAccountId });
  }

  /** Credits `account` once per bank entry; the transaction id either way, and whether this call created it. */
  async credit(tx: EntityManager, credit: IncomingCredit, account: FundingAccountMatch, now: string): Promise<{ transactionId: string; created: boolean }> {
    const key = `${credit.connectorId}/${credit.bankReference}`;
    const transactionId = `Transaction:${uuidv5(key, CREDIT_NAMESPACE)}`;
    const inserted = await queryRows(
      tx,
      `INSERT INTO ${this.schema}.rail_incoming_credits (credit_key, transaction_id, connector_id, platform_id, account_id, amount, currency, file_id, exception_id, matched_by)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT (credit_key) DO NOTHING RETURNING 1`,
      [key, transactionId, credit.connectorId, account.platformId, account.accountId, credit.amount, credit.currency, credit.fileId, credit.exceptionId ?? null, account.matchedBy],
    );
    if (inserted.length === 0) {
      const [row] = await queryRows<{ transaction_id: string }>(tx, `SELECT transaction_id FROM ${this.schema}.rail_incoming_credits WHERE credit_key = $1`, [key]);
      return { transactionId: row.transaction_id, created: false };
    }
    const amount = { amount: credit.amount, currency: credit.currency };
    const terms: TransactionTerms = {
      transactionId,
      platformId: account.platformId,
      mode: account.mode,
      type: 'INCOMING',
      direction: 'CREDIT',
      customerId: account.customerId,
      // Funds sent to the account's funding instructions (the published REALTIME_FUNDING source: money from outside).
      source: { sourceType: 'REALTIME_FUNDING', currency: credit.currency, ...(account.customerId ? { customerId: account.customerId } : {}) },
      destination: { destinationType: 'ACCOUNT', accountId: account.accountId, currency: credit.currency },
      sentAmount: amount,
      receivedAmount: amount,
      fees: 0,
      platformFees: 0,
      exchangeRate: 1,
      quoteId: null,
      description: credit.debtorName ? `from ${credit.debtorName}`.slice(0, 255) : null,
      paymentRail: credit.paymentRail,
      railSelectionMode: null,
      settlementTimelineSeconds: 0,
      expectedSettlementAt: now,
      rateDetails: null,
      reference: transactionId.slice('Transaction:'.length).replace(/-/g, '').slice(0, 16).toUpperCase(),
      awaitsPlatformApproval: false,
      plan: transferInPlan(account.accountId, credit.amount, credit.currency),
      // The money is at the bank already: it settles into the account at the saga's next round.
      rail: INTERNAL_SCRIPT,
      createdAt: now,
    };
    await this.saga.apply(transactionId, account.platformId, { type: 'CreateTransaction', terms, status: 'PENDING', failureReason: null }, { correlationId: transactionId, actor: `rail:${credit.connectorId}` }, { tx });
    return { transactionId, created: true };
  }
}
