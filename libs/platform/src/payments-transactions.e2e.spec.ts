import { eventually } from '@payments/testing';
import { untilStatus } from './test-external-accounts';
import { balances, untilTransaction, usdBankAccount } from './test-payments';
import { startTestPlatform, TestPlatform, TestTenant } from './test-platform';
import { internalAccountOf } from './test-quotes';
import { WebhookReceiver } from './test-webhook-receiver';

const SENDER = '$sender.filters@other-vasp.example';
/** Fields the published schemas mark nullable: the only ones a transaction may send as null. */
const NULLABLE = ['paymentRail', 'railSelectionMode', 'expectedSettlementAt', 'settlementTimelineSeconds'];
const nullFields = (tx: Record<string, unknown>) => Object.keys(tx).filter((key) => tx[key] === null);
const terminal = (tx: Record<string, any>) => tx.status === 'COMPLETED' || tx.status === 'FAILED';

/** GET /transactions: the published filters, and the published shape of every transaction answer. */
describe('transactions: published list filters and response shape', () => {
  let t: TestPlatform;
  let other: TestTenant;
  let n = 0;

  beforeAll(async () => {
    t = await startTestPlatform({ SANDBOX_TIME_SCALE: '0.001' });
    other = await t.createTenant('other');
  });
  afterAll(() => t?.stop());

  /** A customer with a platformCustomerId, known to payments, with a funded USD account and an ACTIVE external account. */
  const customer = async (suffix = '789', funding = 10_000) => {
    const platformCustomerId = `pc-${process.pid}-${n++}`;
    const uma = `$filters.${process.pid}.${n}@platform.example`;
    const created = await t.call('POST', '/customers', { body: { customerType: 'INDIVIDUAL', fullName: 'Fil Ter', platformCustomerId, umaAddress: uma } });
    expect(created.status).toBe(201);
    const customerId: string = created.body.id;
    const internal = await internalAccountOf(t, t.tenant.sandbox, customerId, 'USD');
    // Transactions copy platformCustomerId from payments' customer directory: wait until it has the customer.
    await eventually(async () => (await t.platform.payments.host.dataSource.query(`SELECT 1 FROM customers WHERE customer_id = $1`, [customerId])).length === 1 || undefined, { what: 'customer in payments' });
    if (funding > 0) expect((await t.call('POST', `/sandbox/internal-accounts/${internal}/fund`, { body: { amount: funding } })).status).toBe(200);
    const external = (await t.call('POST', '/customers/external-accounts', { body: { customerId, ...usdBankAccount(suffix) } })).body.id as string;
    await untilStatus(t, t.tenant.sandbox, external, 'ACTIVE');
    return { customerId, platformCustomerId, uma, internal, external };
  };
  const ids = async (query: string, auth = t.tenant.sandbox) => {
    const res = await t.call('GET', `/transactions?${query}`, { auth });
    expect({ query, status: res.status }).toEqual({ query, status: 200 });
    return (res.body.data as { id: string }[]).map((x) => x.id).sort();
  };
  const sorted = (...xs: string[]) => [...xs].sort();

  describe('filters', () => {
    let a: Awaited<ReturnType<typeof customer>>;
    let b: Awaited<ReturnType<typeof customer>>;
    let out: Record<string, any>;
    let pull: Record<string, any>;
    let received: Record<string, any>;

    beforeAll(async () => {
      [a, b] = [await customer(), await customer()];
      out = (await t.call('POST', '/transfer-out', { body: { source: { accountId: a.internal }, destination: { accountId: a.external }, amount: 100 } })).body;
      pull = (await t.call('POST', '/transfer-in', { body: { source: { accountId: a.external }, destination: { accountId: a.internal }, amount: 200 } })).body;
      received = (await t.call('POST', '/sandbox/uma/receive', { body: { senderUmaAddress: SENDER, receiverUmaAddress: b.uma, receivingCurrencyCode: 'USD', receivingCurrencyAmount: 300 } })).body;
      for (const tx of [out, pull, received]) expect(tx.id).toMatch(/^Transaction:/);
      await Promise.all([out, pull, received].map((tx) => untilTransaction(t, tx.id, terminal)));
    });

    it('platformCustomerId: the transactions of the customer the platform calls so', async () => {
      expect(await ids(`platformCustomerId=${a.platformCustomerId}`)).toEqual(sorted(out.id, pull.id));
      expect(await ids(`platformCustomerId=${b.platformCustomerId}`)).toEqual([received.id]);
      expect(await ids('platformCustomerId=nobody')).toEqual([]);
    });

    it('senderAccountIdentifier / receiverAccountIdentifier: the account id (or UMA address) money left from / went to', async () => {
      expect(await ids(`senderAccountIdentifier=${a.internal}`)).toEqual([out.id]);
      expect(await ids(`receiverAccountIdentifier=${a.external}`)).toEqual([out.id]);
      expect(await ids(`senderAccountIdentifier=${a.external}`)).toEqual([pull.id]);
      expect(await ids(`receiverAccountIdentifier=${a.internal}`)).toEqual([pull.id]);
      expect(await ids(`senderAccountIdentifier=${encodeURIComponent(SENDER.toUpperCase())}`)).toEqual([received.id]);
      expect(await ids(`receiverAccountIdentifier=${b.internal}`)).toEqual([received.id]);
      expect(await ids(`receiverAccountIdentifier=${encodeURIComponent(SENDER)}`)).toEqual([]);
    });

    it('accountIdentifier: either side', async () => {
      expect(await ids(`accountIdentifier=${a.internal}`)).toEqual(sorted(out.id, pull.id));
      expect(await ids(`accountIdentifier=${a.external}`)).toEqual(sorted(out.id, pull.id));
      expect(await ids(`accountIdentifier=${encodeURIComponent(SENDER)}`)).toEqual([received.id]);
      expect(await ids(`accountIdentifier=${b.internal}&type=OUTGOING`)).toEqual([]);
    });

    it('reference: the reconciliation reference', async () => {
      const reference = out.reconciliationInstructions.reference as string;
      expect(reference).toEqual(expect.any(String));
      expect(await ids(`reference=${reference}`)).toEqual([out.id]);
      expect(await ids(`reference=${pull.reconciliationInstructions.reference}&accountIdentifier=${a.internal}`)).toEqual([pull.id]);
      expect(await ids('reference=NO-SUCH-REFERENCE')).toEqual([]);
    });

    it('endDate is inclusive, as published; every published status is a valid filter', async () => {
      expect(await ids(`accountId=${a.internal}&startDate=${out.createdAt}&endDate=${out.createdAt}`)).toEqual([out.id]);
      for (const status of ['CREATED', 'PENDING_AUTHORIZATION', 'REJECTED', 'REFUNDED', 'EXPIRED']) expect(await ids(`accountId=${a.internal}&status=${status}`)).toEqual([]);
    });

    it('another platform sees none of them through any filter', async () => {
      for (const query of [`platformCustomerId=${a.platformCustomerId}`, `accountIdentifier=${a.internal}`, `senderAccountIdentifier=${encodeURIComponent(SENDER)}`, `reference=${out.reconciliationInstructions.reference}`]) {
        expect(await ids(query, other.sandbox)).toEqual([]);
      }
    });
  });

  describe('shape', () => {
    it('omits absent optional fields (only the published nullable ones may be null), in answers, lists and webhooks', async () => {
      const receiver = await new WebhookReceiver().start();
      try {
        expect((await t.call('PATCH', '/config', { body: { webhookEndpoint: receiver.url('/shape') } })).status).toBe(200);
        const c = await customer();
        const created = await t.call('POST', '/transfer-out', { body: { source: { accountId: c.internal }, destination: { accountId: c.external }, amount: 100 } });
        expect(created.status).toBe(201);
        for (const key of ['settledAt', 'description', 'quoteId', 'failureReason', 'rateDetails', 'refund']) expect(created.body).not.toHaveProperty(key);
        expect(NULLABLE).toEqual(expect.arrayContaining(nullFields(created.body)));
        const done = await untilTransaction(t, created.body.id, (tx) => tx.status === 'COMPLETED');
        expect(done.settledAt).toEqual(expect.any(String));
        expect(NULLABLE).toEqual(expect.arrayContaining(nullFields(done)));
        const listed = (await t.call('GET', `/transactions?accountIdentifier=${c.internal}`)).body.data[0];
        expect(listed).toEqual(done);
        const hooks = await eventually(async () => {
          const mine = receiver.at('/shape').filter((h) => h.json.data?.id === created.body.id);
          return mine.some((h) => h.json.type === 'OUTGOING_PAYMENT.COMPLETED') ? mine : undefined;
        }, { what: 'OUTGOING_PAYMENT webhooks' });
        for (const hook of hooks) expect({ type: hook.json.type, nulls: nullFields(hook.json.data).filter((key) => !NULLABLE.includes(key)) }).toEqual({ type: hook.json.type, nulls: [] });
        const received = await t.call('POST', '/sandbox/uma/receive', { body: { senderUmaAddress: SENDER, customerId: c.customerId, receivingCurrencyCode: 'USD', receivingCurrencyAmount: 50 } });
        expect(nullFields(received.body)).toEqual([]);
        expect(nullFields(await untilTransaction(t, received.body.id, terminal))).toEqual([]);
      } finally {
        await t.call('PATCH', '/config', { body: { webhookEndpoint: null } });
        await receiver.stop();
      }
    });

    it('failureReason is within the published enums; our finer reason is failureDetail', async () => {
      const poor = await customer('789', 50);
      const outgoing = await t.call('POST', '/transfer-out', { body: { source: { accountId: poor.internal }, destination: { accountId: poor.external }, amount: 51 } });
      expect(outgoing.body).toMatchObject({ type: 'OUTGOING', status: 'FAILED', failureReason: 'QUOTE_EXECUTION_FAILED', failureDetail: 'INSUFFICIENT_FUNDS' });
      expect(await balances(t, poor.customerId)).toEqual({ balance: 50, totalBalance: 50 });
      for (const [suffix, detail] of [['002', 'INSUFFICIENT_FUNDS'], ['003', 'ACCOUNT_CLOSED']]) {
        const c = await customer(suffix, 0);
        const incoming = await t.call('POST', '/transfer-in', { body: { source: { accountId: c.external }, destination: { accountId: c.internal }, amount: 10 } });
        expect(incoming.body).toMatchObject({ type: 'INCOMING', status: 'FAILED', failureReason: 'COLLECTION_FAILED', failureDetail: detail });
        expect((await t.call('GET', `/transactions/${incoming.body.id}`)).body).toEqual(incoming.body);
      }
      const returned = await customer('004');
      const failed = (await t.call('POST', '/transfer-out', { body: { source: { accountId: returned.internal }, destination: { accountId: returned.external }, amount: 10 } })).body;
      const done = await untilTransaction(t, failed.id, terminal);
      expect(done).toMatchObject({ status: 'FAILED', failureReason: 'ACCOUNT_CANNOT_RECEIVE' });
      expect(done).not.toHaveProperty('failureDetail');
    });
  });
});
