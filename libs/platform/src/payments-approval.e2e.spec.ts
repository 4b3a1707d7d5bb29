import { eventually } from '@payments/testing';
import { balances, expectLedgerClean, payer, untilTransaction } from './test-payments';
import { startTestPlatform, TestPlatform, TestTenant } from './test-platform';
import { internalAccountOf } from './test-quotes';
import { WebhookReceiver } from './test-webhook-receiver';

const SENDER = '$sender@other-vasp.example';

/**
 * POST /transactions/{id}/approve and /reject: an incoming UMA payment waits PENDING for the platform's approval
 * (interop §3.2). SANDBOX_TIME_SCALE 2 makes the sandbox approval window 10 s, long enough to act inside it.
 */
describe('approval of incoming payments', () => {
  let t: TestPlatform;
  let other: TestTenant;
  let receiver: WebhookReceiver;
  let n = 0;

  beforeAll(async () => {
    t = await startTestPlatform({ SANDBOX_TIME_SCALE: '2' });
    other = await t.createTenant('other');
    receiver = await new WebhookReceiver().start();
    receiver.respond('/incoming', () => ({ status: 202 })); // "will answer through approve/reject"
    expect((await t.call('PATCH', '/config', { body: { webhookEndpoint: receiver.url('/incoming') } })).status).toBe(200);
  });
  afterAll(async () => {
    await t?.stop();
    await receiver?.stop();
  });

  /** A new customer of the sandbox tenant with a USD account, and an incoming UMA payment to them, PENDING. */
  const incoming = async (amount = 1_000): Promise<{ customerId: string; tx: Record<string, any> }> => {
    const uma = `$approve.${n++}@platform.example`;
    const customerId = (await t.call('POST', '/customers', { body: { customerType: 'INDIVIDUAL', fullName: 'Ap Prover', umaAddress: uma } })).body.id;
    await internalAccountOf(t, t.tenant.sandbox, customerId, 'USD');
    const res = await t.call('POST', '/sandbox/uma/receive', { body: { senderUmaAddress: SENDER, receiverUmaAddress: uma, receivingCurrencyCode: 'USD', receivingCurrencyAmount: amount } });
    expect(res).toMatchObject({ status: 200, body: { type: 'INCOMING', status: 'PENDING' } });
    return { customerId, tx: res.body };
  };
  const approve = (id: string, options: { body?: unknown; auth?: string; headers?: Record<string, string> } = {}) => t.call('POST', `/transactions/${id}/approve`, options);
  const reject = (id: string, options: { body?: unknown; auth?: string; headers?: Record<string, string> } = {}) => t.call('POST', `/transactions/${id}/reject`, options);
  const status = async (id: string) => (await t.call('GET', `/transactions/${id}`)).body.status as string;

  it('sends INCOMING_PAYMENT.PENDING and waits; approve continues it to COMPLETED; an Idempotency-Key replays the answer', async () => {
    const { customerId, tx } = await incoming(1_234);
    const bystander = await incoming(1); // created after, so its window ends after tx's: still waiting while tx completes
    const pending = await eventually(async () => receiver.at('/incoming', 'INCOMING_PAYMENT.PENDING').find((h) => h.json.data.id === tx.id), { what: 'INCOMING_PAYMENT.PENDING' });
    expect(pending.json.data).toMatchObject({ id: tx.id, status: 'PENDING', type: 'INCOMING', receivedAmount: { amount: 1_234 } });

    const headers = { 'Idempotency-Key': `approve-${tx.id}` };
    const approved = await approve(tx.id, { body: { receiverCustomerInfo: { FULL_NAME: 'Ap Prover' } }, headers });
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({ id: tx.id, type: 'INCOMING', customerId });
    expect(['PENDING', 'COMPLETED']).toContain(approved.body.status);
    const replayed = await approve(tx.id, { body: { receiverCustomerInfo: { FULL_NAME: 'Ap Prover' } }, headers });
    expect(replayed).toMatchObject({ status: 200, body: approved.body });
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    expect((await approve(tx.id, { body: {}, headers })).body).toMatchObject({ status: 409, code: 'IDEMPOTENCY_KEY_REUSED' });

    const done = await untilTransaction(t, tx.id, (x) => x.status === 'COMPLETED');
    expect(done.settledAt).toEqual(expect.any(String));
    expect(await status(bystander.tx.id)).toBe('PENDING'); // completed by the approval, not by the window
    expect(await balances(t, customerId)).toEqual({ balance: 1_234, totalBalance: 1_234 });
    await eventually(async () => receiver.at('/incoming', 'INCOMING_PAYMENT.COMPLETED').find((h) => h.json.data.id === tx.id), { what: 'INCOMING_PAYMENT.COMPLETED' });
    await expectLedgerClean(t);
  });

  it('reject fails it (COMPLIANCE_REJECTED, the platform\'s reason kept), credits nothing and sends INCOMING_PAYMENT.FAILED', async () => {
    const { customerId, tx } = await incoming(700);
    const rejected = await reject(tx.id, { body: { reason: 'RESTRICTED_JURISDICTION' } });
    expect(rejected).toMatchObject({ status: 200, body: { id: tx.id, status: 'FAILED', failureReason: 'COMPLIANCE_REJECTED', failureDetail: 'REJECTED_BY_PLATFORM', rejectionReason: 'RESTRICTED_JURISDICTION' } });
    expect((await t.call('GET', `/transactions/${tx.id}`)).body).toEqual(rejected.body);
    const hook = await eventually(async () => receiver.at('/incoming', 'INCOMING_PAYMENT.FAILED').find((h) => h.json.data.id === tx.id), { what: 'INCOMING_PAYMENT.FAILED' });
    expect(hook.json.data).toEqual(rejected.body);
    const bare = await incoming(10);
    expect((await reject(bare.tx.id)).body).toMatchObject({ status: 'FAILED', failureReason: 'COMPLIANCE_REJECTED' });
    expect((await t.call('GET', `/transactions/${bare.tx.id}`)).body).not.toHaveProperty('rejectionReason');
    expect(await balances(t, customerId)).toEqual({ balance: 0, totalBalance: 0 });
    await expectLedgerClean(t);
  });

  it('409 TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL once decided, and for transactions that never await approval', async () => {
    const conflict = { status: 409, body: { status: 409, code: 'TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL' } };
    const approved = await incoming();
    expect((await approve(approved.tx.id)).status).toBe(200);
    expect(await approve(approved.tx.id)).toMatchObject(conflict);
    expect(await reject(approved.tx.id)).toMatchObject(conflict);
    const rejected = await incoming();
    expect((await reject(rejected.tx.id)).status).toBe(200);
    expect(await approve(rejected.tx.id)).toMatchObject(conflict);
    expect(await reject(rejected.tx.id)).toMatchObject(conflict);
    // A pull from a bank account stays PENDING for 30 s (suffix 005): PENDING, but nothing for the platform to approve.
    const p = await payer(t, '005', 0);
    const pull = (await t.call('POST', '/transfer-in', { body: { source: { accountId: p.external }, destination: { accountId: p.internal }, amount: 100 } })).body;
    expect(pull).toMatchObject({ type: 'INCOMING', status: 'PENDING' });
    expect(await approve(pull.id)).toMatchObject(conflict);
    expect(await reject(pull.id)).toMatchObject(conflict);
    expect(await status(pull.id)).toBe('PENDING');
  });

  it('another platform, the other mode, an unknown or malformed id: 404 TRANSACTION_NOT_FOUND, and nothing changes', async () => {
    const { tx } = await incoming();
    const notFound = { status: 404, body: { status: 404, code: 'TRANSACTION_NOT_FOUND' } };
    for (const auth of [other.sandbox, t.tenant.production]) {
      expect(await approve(tx.id, { auth })).toMatchObject(notFound);
      expect(await reject(tx.id, { auth })).toMatchObject(notFound);
    }
    expect(await approve('Transaction:00000000-0000-7000-8000-000000000000')).toMatchObject(notFound);
    expect(await reject('not-a-transaction')).toMatchObject(notFound);
    expect(await status(tx.id)).toBe('PENDING');
    expect((await approve(tx.id)).status).toBe(200);
  });

  it('validates the bodies and needs TRANSACT', async () => {
    const { tx } = await incoming();
    expect((await approve(tx.id, { body: { receiverCustomerInfo: 'x' } })).body).toMatchObject({ status: 400, code: 'INVALID_INPUT' });
    expect((await approve(tx.id, { body: { unknown: 1 } })).body).toMatchObject({ status: 400, code: 'INVALID_INPUT' });
    expect((await reject(tx.id, { body: { reason: 5 } })).body).toMatchObject({ status: 400, code: 'INVALID_INPUT' });
    const viewer = (await t.call('POST', '/tokens', { body: { name: 'viewer', permissions: ['VIEW'] } })).body;
    const viewOnly = `Basic ${Buffer.from(`${viewer.clientId}:${viewer.clientSecret}`).toString('base64')}`;
    expect((await approve(tx.id, { auth: viewOnly })).status).toBe(403);
    expect(await status(tx.id)).toBe('PENDING');
  });
});
