import { randomBytes, randomUUID } from 'node:crypto';
import type { CallerContext, CardTransaction, ListTransactionsQuery, Mode } from '@payments/contracts';
import { encodeCursor } from '@payments/contracts';
import type { EventEnvelope } from '@payments/eventsourcing';
import { createEventBus, EventBus, serviceTopic } from '@payments/messaging';
import { createTestDatabase, eventually, TestDatabase } from '@payments/testing';
import { Payments } from '../payments';
import { transferOutPlan } from '../saga/ledger-plan';
import { sandboxPayoutScript } from '../saga/rail-script';
import { CardTransactionsConsumer } from './card-transactions.consumer';
import { projectTransactions } from './transaction.projection';
import type { ExistingTransaction } from './transaction.state';

const USD = { code: 'USD', name: 'United States Dollar', symbol: '$', decimals: 2 };
const PLATFORM = `Platform:${randomUUID()}`;
const OTHER_PLATFORM = `Platform:${randomUUID()}`;
const CUSTOMER = `Customer:${randomUUID()}`;
const FUNDING = `InternalAccount:${randomUUID()}`;
const caller = (platformId = PLATFORM, mode: Mode = 'SANDBOX'): CallerContext => ({ platformId, mode, clientId: 'client-1', permissions: ['VIEW', 'TRANSACT'] });
const at = (second: number) => new Date(Date.parse('2026-03-01T10:00:00.000Z') + second * 1_000).toISOString();

/** A card transaction as the cards service carries it in CardTransactionUpdated.v1. */
const cardTransaction = (id: string, over: Partial<CardTransaction> = {}): CardTransaction => ({
  type: 'CARD',
  id,
  cardId: `Card:${randomUUID()}`,
  customerId: CUSTOMER,
  platformCustomerId: 'pc-card-1',
  issuerTransactionToken: `itt-${id.slice(-6)}`,
  status: 'AUTHORIZED',
  direction: 'DEBIT',
  merchant: { descriptor: 'COFFEE BAR', mcc: '5814', country: 'US' },
  authorizedAmount: { amount: 450, currency: USD },
  accountId: FUNDING,
  pullSummary: { count: 1, totalAmount: 450, pendingCount: 0 },
  refundSummary: { count: 0, totalAmount: 0 },
  settlementSummary: { count: 0, totalAmount: 0 },
  authorizedAt: at(0),
  createdAt: at(0),
  updatedAt: at(0),
  ...over,
});

/** The envelope of a CardTransactionUpdated.v1 on the transaction's own stream, at `version`. */
const updated = (transaction: CardTransaction, version: number, platformId = PLATFORM, mode: Mode = 'SANDBOX'): EventEnvelope => ({
  eventId: randomUUID(),
  type: 'CardTransactionUpdated.v1',
  streamId: transaction.id,
  streamVersion: version,
  globalPosition: String(version + 1),
  occurredAt: transaction.updatedAt,
  platformId,
  data: { platformId, mode, transaction },
  metadata: {},
});

/** Payments' own OUTGOING transaction, written by its inline projection. */
const outgoing = (id: string, createdAt: string): ExistingTransaction => ({
  transactionId: id, platformId: PLATFORM, mode: 'SANDBOX', type: 'OUTGOING', direction: 'DEBIT', customerId: CUSTOMER, platformCustomerId: 'pc-card-1',
  source: { sourceType: 'ACCOUNT', accountId: FUNDING }, destination: { destinationType: 'ACCOUNT', accountId: 'ExternalAccount:1' },
  sentAmount: { amount: 1_000, currency: 'USD' }, receivedAmount: { amount: 1_000, currency: 'USD' }, fees: 0, platformFees: 0, exchangeRate: 1,
  quoteId: null, description: null, paymentRail: null, railSelectionMode: null, settlementTimelineSeconds: null, expectedSettlementAt: null, rateDetails: null,
  reference: 'REF-OUT', plan: transferOutPlan(id, FUNDING, 1_000, 'USD'), rail: sandboxPayoutScript(null), createdAt,
  status: 'COMPLETED', failureReason: null, refund: null, unresolvedFunds: null, settledAt: createdAt, updatedAt: createdAt,
});

/**
 * Card transactions in payments' `transactions` read model (type CARD), from the cards topic, on real PostgreSQL and
 * its log bus: one row per transaction with the newest body, never overwritten by an older update, found by
 * GET /transactions and /transactions/{id} (TransactionQueries) with the published filters, invisible to others.
 */
describe('payments: card transactions from the cards topic (real PostgreSQL)', () => {
  let database: TestDatabase;
  let bus: EventBus;
  let payments: Payments;
  let consumer: CardTransactionsConsumer;
  const skipped: string[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    bus = createEventBus({ databaseUrl: database.url, clientId: 'payments-card-events-test', kafkaBrokers: process.env.KAFKA_BROKERS, namespace: `${database.name}.` });
    // Nothing here calls accounts or quoting: their clients connect on first use only.
    const nowhere = { host: '127.0.0.1', port: 1 };
    payments = await Payments.open({ databaseUrl: database.url, bus, topic: serviceTopic('payments'), sandboxTimeScale: 1, accounts: nowhere, quoting: nowhere, rpcTimeoutMs: 1_000, secretHashKey: randomBytes(32) });
    consumer = new CardTransactionsConsumer(payments.host.dataSource, 'payments', (message) => skipped.push(message));
  });
  afterAll(async () => {
    await payments?.cardEvents.stop();
    await payments?.quoteEvents.stop(); // closes the RPC clients
    await payments?.host.stop();
    await bus?.close();
    await database?.drop();
  });

  const rowsOf = (id: string) =>
    payments.host.dataSource.query(`SELECT type, status, sender_identifier, receiver_identifier, customer_id, platform_customer_id, source_stream_version, body FROM transactions WHERE transaction_id = $1`, [id]) as Promise<
      { type: string; status: string; sender_identifier: string | null; receiver_identifier: string | null; customer_id: string; platform_customer_id: string; source_stream_version: string | null; body: CardTransaction }[]
    >;
  const list = (query: Partial<ListTransactionsQuery>, as = caller()) => payments.transactions.list(as, query as ListTransactionsQuery);
  const ids = async (query: Partial<ListTransactionsQuery>, as = caller()) => (await list(query, as)).data.map((t) => t.id);

  it('subscribes to the cards topic: an AUTHORIZED then a SETTLED update land as one CARD row with the newest body', async () => {
    await payments.cardEvents.start();
    const id = `CardTransaction:${randomUUID()}`;
    const authorized = cardTransaction(id);
    const settled = cardTransaction(id, { status: 'SETTLED', settledAmount: { amount: 450, currency: USD }, settlementSummary: { count: 1, totalAmount: 450 }, lastEventAt: at(5), updatedAt: at(5) });
    await bus.publish(serviceTopic('cards'), [updated(authorized, 1), updated(settled, 4)]);
    await eventually(async () => (await rowsOf(id))[0]?.status === 'SETTLED', { what: 'the SETTLED card transaction' });
    const rows = await rowsOf(id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ type: 'CARD', status: 'SETTLED', sender_identifier: FUNDING, receiver_identifier: null, customer_id: CUSTOMER, platform_customer_id: 'pc-card-1', source_stream_version: '4' });
    expect(rows[0].body).toEqual(settled); // exactly as carried
    expect(await payments.transactions.get(caller(), id)).toEqual(settled);
  });

  it('a redelivered or older update never overwrites a newer row; a newer one (a partial refund, status unchanged) does', async () => {
    const id = `CardTransaction:${randomUUID()}`;
    const authorized = updated(cardTransaction(id), 1);
    const settled = updated(cardTransaction(id, { status: 'SETTLED', settledAmount: { amount: 450, currency: USD }, updatedAt: at(10) }), 3);
    await consumer.handle(authorized);
    await consumer.handle(settled);
    await consumer.handle(settled); // redelivered: the inbox skips it
    await consumer.handle(authorized); // redelivered after the newer one: the inbox skips it
    await consumer.handle({ ...authorized, eventId: randomUUID() }); // the older update again under another event id (a replay): older, kept out
    expect((await rowsOf(id)).map((r) => [r.status, r.body.updatedAt, r.source_stream_version])).toEqual([['SETTLED', at(10), '3']]);

    // Same updatedAt (two transitions in one append): the stream version decides.
    const sameInstantOlder = updated(cardTransaction(id, { status: 'PARTIALLY_SETTLED', updatedAt: at(10) }), 2);
    await consumer.handle(sameInstantOlder);
    expect((await rowsOf(id))[0].status).toBe('SETTLED');
    const partialRefund = cardTransaction(id, { status: 'SETTLED', settledAmount: { amount: 450, currency: USD }, refundedAmount: { amount: 100, currency: USD }, refundSummary: { count: 1, totalAmount: 100 }, updatedAt: at(10) });
    await consumer.handle(updated(partialRefund, 4));
    expect((await rowsOf(id))[0]).toMatchObject({ status: 'SETTLED', source_stream_version: '4', body: partialRefund });

    // A newer update applies; one older than the row, arriving after it, does not.
    const refunded = cardTransaction(id, { status: 'REFUNDED', refundedAmount: { amount: 450, currency: USD }, updatedAt: at(20) });
    await consumer.handle(updated(refunded, 6));
    await consumer.handle(updated(cardTransaction(id, { status: 'SETTLED', updatedAt: at(15) }), 5)); // late, older: ignored
    expect((await rowsOf(id))[0]).toMatchObject({ status: 'REFUNDED', body: refunded });
  });

  it('another platform cannot overwrite or move a row; a malformed update is logged and skipped', async () => {
    const id = `CardTransaction:${randomUUID()}`;
    await consumer.handle(updated(cardTransaction(id), 0));
    await consumer.handle(updated(cardTransaction(id, { status: 'EXCEPTION', updatedAt: at(30) }), 1, OTHER_PLATFORM));
    expect((await rowsOf(id))[0].status).toBe('AUTHORIZED');
    await expect(payments.transactions.get(caller(OTHER_PLATFORM), id)).rejects.toMatchObject({ code: 'TRANSACTION_NOT_FOUND' });

    const bad = updated(cardTransaction(`CardTransaction:${randomUUID()}`), 0);
    await consumer.handle({ ...bad, data: { ...(bad.data as object), transaction: { ...cardTransaction('Transaction:not-a-card'), direction: 'SIDEWAYS' } } });
    await consumer.handle({ ...bad, data: { ...(bad.data as object), mode: 'STAGING' } });
    expect(skipped).toHaveLength(2);
    expect(await rowsOf('Transaction:not-a-card')).toEqual([]);
    // The cards service's other events are not this consumer's.
    await consumer.handle({ ...updated(cardTransaction(id), 0), type: 'CardTransactionAuthorized.v1', eventId: randomUUID() });
    await consumer.handle({ ...updated(cardTransaction(id), 0), type: 'CardAuthorizationDeclined.v1', eventId: randomUUID() });
    expect((await rowsOf(id))[0].status).toBe('AUTHORIZED');
  });

  describe('GET /transactions and /transactions/{id}', () => {
    const listCustomer = `Customer:${randomUUID()}`;
    const account = `InternalAccount:${randomUUID()}`;
    const debit = cardTransaction(`CardTransaction:${randomUUID()}`, { customerId: listCustomer, platformCustomerId: 'pc-list', accountId: account, createdAt: at(100), updatedAt: at(101), status: 'SETTLED' });
    const credit = cardTransaction(`CardTransaction:${randomUUID()}`, { customerId: listCustomer, platformCustomerId: 'pc-list', accountId: account, direction: 'CREDIT', createdAt: at(300), updatedAt: at(300) });
    const production = cardTransaction(`CardTransaction:${randomUUID()}`, { customerId: listCustomer, accountId: account, createdAt: at(400), updatedAt: at(400) });
    // Payments' own transaction created between the two card transactions: its id sorts after both by prefix.
    const own = `Transaction:${randomUUID()}`;

    beforeAll(async () => {
      await consumer.handle(updated(debit, 2));
      await consumer.handle(updated(credit, 0));
      await consumer.handle(updated(production, 0, PLATFORM, 'PRODUCTION'));
      await payments.host.dataSource.transaction((tx) => projectTransactions(tx, [{ ...outgoing(own, at(200)), customerId: listCustomer, source: { sourceType: 'ACCOUNT', accountId: account } }]));
    });

    it('finds card transactions by id, type CARD, account identifier (DEBIT: sender, CREDIT: receiver), customer and status', async () => {
      expect(await payments.transactions.get(caller(), debit.id)).toEqual(debit);
      expect(await payments.transactions.get(caller(), credit.id)).toEqual(credit);
      expect(await ids({ customerId: listCustomer, type: 'CARD' })).toEqual([credit.id, debit.id]);
      expect(await ids({ accountIdentifier: account, type: 'CARD' })).toEqual([credit.id, debit.id]);
      expect(await ids({ accountId: account, type: 'CARD' })).toEqual([credit.id, debit.id]);
      expect(await ids({ senderAccountIdentifier: account, type: 'CARD' })).toEqual([debit.id]);
      expect(await ids({ receiverAccountIdentifier: account, type: 'CARD' })).toEqual([credit.id]);
      expect(await ids({ platformCustomerId: 'pc-list', status: 'SETTLED' })).toEqual([debit.id]);
      expect(await ids({ customerId: listCustomer, status: 'AUTHORIZED' })).toEqual([credit.id]);
      expect(await ids({ customerId: listCustomer, startDate: at(250), endDate: at(350) })).toEqual([credit.id]);
    });

    it('lists the union newest first (by createdAt, whatever the id prefix), pages across types, and keeps the INCOMING/OUTGOING filters', async () => {
      expect(await ids({ customerId: listCustomer })).toEqual([credit.id, own, debit.id]);
      expect(await ids({ customerId: listCustomer, sortOrder: 'asc' })).toEqual([debit.id, own, credit.id]);
      const first = await list({ customerId: listCustomer, limit: 2 });
      expect(first).toMatchObject({ hasMore: true, totalCount: 3 });
      expect(first.data.map((t) => t.id)).toEqual([credit.id, own]);
      expect(await ids({ customerId: listCustomer, limit: 2, cursor: first.nextCursor })).toEqual([debit.id]);
      // A cursor issued before the list key (a bare transaction id) goes on from that transaction.
      expect(await ids({ customerId: listCustomer, cursor: encodeCursor(own) })).toEqual([debit.id]);
      await expect(list({ customerId: listCustomer, cursor: encodeCursor(`Transaction:${randomUUID()}`) })).rejects.toMatchObject({ code: 'INVALID_INPUT' });

      expect(await ids({ customerId: listCustomer, type: 'OUTGOING' })).toEqual([own]);
      expect(await ids({ customerId: listCustomer, type: 'INCOMING' })).toEqual([]);
      expect(await ids({ customerId: listCustomer, status: 'COMPLETED' })).toEqual([own]);
      expect(await ids({ customerId: listCustomer, status: 'COMPLETED', type: 'CARD' })).toEqual([]);
      expect(await ids({ accountIdentifier: account, type: 'OUTGOING' })).toEqual([own]);
      expect(await ids({ reference: 'REF-OUT', customerId: listCustomer })).toEqual([own]);
    });

    it("another platform's or mode's caller does not see them", async () => {
      await expect(payments.transactions.get(caller(OTHER_PLATFORM), debit.id)).rejects.toMatchObject({ code: 'TRANSACTION_NOT_FOUND' });
      await expect(payments.transactions.get(caller(PLATFORM, 'PRODUCTION'), debit.id)).rejects.toMatchObject({ code: 'TRANSACTION_NOT_FOUND' });
      expect((await list({ customerId: listCustomer }, caller(OTHER_PLATFORM))).totalCount).toBe(0);
      expect((await list({ accountIdentifier: account }, caller(OTHER_PLATFORM))).totalCount).toBe(0);
      expect(await ids({ customerId: listCustomer }, caller(PLATFORM, 'PRODUCTION'))).toEqual([production.id]);
      await expect(payments.transactions.get(caller(), production.id)).rejects.toMatchObject({ code: 'TRANSACTION_NOT_FOUND' });
    });

    it('rejects malformed ids as not found, and a card transaction cannot be approved or rejected', async () => {
      await expect(payments.transactions.get(caller(), 'CardTransaction:nope')).rejects.toMatchObject({ code: 'TRANSACTION_NOT_FOUND' });
      await expect(payments.transactions.get(caller(), debit.id.replace('CardTransaction:', 'Card:'))).rejects.toMatchObject({ code: 'TRANSACTION_NOT_FOUND' });
      await expect(payments.approvals.approve(caller(), credit.id, {}, at(500))).rejects.toMatchObject({ code: 'TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL', status: 409 });
      await expect(payments.approvals.reject(caller(), credit.id, {}, at(500))).rejects.toMatchObject({ code: 'TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL', status: 409 });
      expect(await payments.transactions.get(caller(), credit.id)).toEqual(credit);
    });
  });
});
