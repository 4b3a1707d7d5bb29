import { balances, expectLedgerClean, untilTransaction } from './test-payments';
import { startTestPlatform, TestPlatform, TestTenant } from './test-platform';
import { internalAccountOf } from './test-quotes';

const SENDER = '$sender@other-vasp.example';

/** POST /sandbox/uma/receive: an incoming UMA payment credits the receiver's internal account through the ledger. */
describe('sandbox UMA receive', () => {
  let t: TestPlatform;
  let stranger: TestTenant;
  let n = 0;

  beforeAll(async () => {
    t = await startTestPlatform({ SANDBOX_TIME_SCALE: '0.001' });
    stranger = await t.createTenant('stranger');
  });
  afterAll(() => t?.stop());

  /** A customer of `auth`'s platform with a UMA address and its (open) USD internal account. */
  const receiver = async (auth = t.tenant.sandbox): Promise<{ customerId: string; uma: string; account: string }> => {
    const uma = `$receiver.${n++}@platform.example`;
    const res = await t.call('POST', '/customers', { auth, body: { customerType: 'INDIVIDUAL', fullName: 'Re Ceiver', umaAddress: uma } });
    expect(res.status).toBe(201);
    return { customerId: res.body.id, uma, account: await internalAccountOf(t, auth, res.body.id, 'USD') };
  };
  const receive = (body: Record<string, unknown>, options: { auth?: string; headers?: Record<string, string> } = {}) => t.call('POST', '/sandbox/uma/receive', { body, ...options });

  it('credits the receiver named by UMA address: an INCOMING transaction that completes, listed, ledger balanced', async () => {
    const r = await receiver();
    const res = await receive({ senderUmaAddress: SENDER, receiverUmaAddress: r.uma.toUpperCase(), receivingCurrencyCode: 'USD', receivingCurrencyAmount: 1_234 });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: expect.stringMatching(/^Transaction:/), type: 'INCOMING', direction: 'CREDIT', status: 'PENDING', customerId: r.customerId,
      source: { sourceType: 'UMA_ADDRESS', umaAddress: SENDER }, destination: { destinationType: 'ACCOUNT', accountId: r.account },
      receivedAmount: { amount: 1_234, currency: { code: 'USD' } },
    });
    const done = await untilTransaction(t, res.body.id, (tx) => tx.status === 'COMPLETED');
    expect(done.settledAt).toEqual(expect.any(String));
    expect(await balances(t, r.customerId)).toEqual({ balance: 1_234, totalBalance: 1_234 });
    const listed = await t.call('GET', `/transactions?customerId=${encodeURIComponent(r.customerId)}`);
    expect(listed.body.data.map((x: { id: string }) => x.id)).toEqual([res.body.id]);
    await expectLedgerClean(t);
  });

  it('credits the receiver named by customerId; a replayed Idempotency-Key credits once', async () => {
    const r = await receiver();
    const body = { senderUmaAddress: SENDER, customerId: r.customerId, receivingCurrencyCode: 'USD', receivingCurrencyAmount: 500 };
    const first = await receive(body, { headers: { 'Idempotency-Key': `uma-${r.customerId}` } });
    const again = await receive(body, { headers: { 'Idempotency-Key': `uma-${r.customerId}` } });
    expect(first.status).toBe(200);
    expect(again.body.id).toBe(first.body.id);
    await untilTransaction(t, first.body.id, (tx) => tx.status === 'COMPLETED');
    const second = await receive(body);
    await untilTransaction(t, second.body.id, (tx) => tx.status === 'COMPLETED');
    expect(await balances(t, r.customerId)).toEqual({ balance: 1_000, totalBalance: 1_000 });
    await expectLedgerClean(t);
  });

  it('refuses unknown or foreign receivers, a currency without an account, bad amounts and addresses; nothing moves', async () => {
    const r = await receiver();
    const foreign = await receiver(stranger.sandbox);
    const base = { senderUmaAddress: SENDER, receiverUmaAddress: r.uma, receivingCurrencyCode: 'USD', receivingCurrencyAmount: 100 };
    const { receiverUmaAddress: _omit, ...withoutReceiver } = base;
    const refused: [Record<string, unknown>, number, string][] = [
      [{ ...base, receiverUmaAddress: '$nobody@platform.example' }, 404, 'UMA_NOT_FOUND'],
      [{ ...base, receiverUmaAddress: foreign.uma }, 404, 'UMA_NOT_FOUND'],
      [{ ...withoutReceiver, customerId: foreign.customerId }, 404, 'USER_NOT_FOUND'],
      [{ ...withoutReceiver, customerId: 'Customer:00000000-0000-7000-8000-000000000000' }, 404, 'USER_NOT_FOUND'],
      [{ ...base, receivingCurrencyCode: 'EUR' }, 400, 'INVALID_CURRENCY'],
      [{ ...base, receivingCurrencyCode: 'XYZ' }, 400, 'INVALID_CURRENCY'],
      [{ ...base, receivingCurrencyAmount: 0 }, 400, 'INVALID_INPUT'],
      [{ ...base, receivingCurrencyAmount: -5 }, 400, 'INVALID_INPUT'],
      [{ ...base, receivingCurrencyAmount: 10.5 }, 400, 'INVALID_INPUT'],
      [{ ...base, receivingCurrencyAmount: Number.MAX_SAFE_INTEGER + 2 }, 400, 'INVALID_INPUT'],
      [{ ...base, receivingCurrencyAmount: '100' }, 400, 'INVALID_INPUT'],
      [{ ...base, senderUmaAddress: 'sender' }, 400, 'INVALID_UMA_ADDRESS'],
      [{ ...base, receiverUmaAddress: 'receiver@platform.example' }, 400, 'INVALID_UMA_ADDRESS'],
      [{ ...base, customerId: r.customerId }, 400, 'INVALID_INPUT'],
      [withoutReceiver, 400, 'INVALID_INPUT'],
    ];
    for (const [body, status, code] of refused) {
      expect({ body, res: (await receive(body)).body }).toMatchObject({ body, res: { status, code } });
    }
    expect(await balances(t, r.customerId)).toEqual({ balance: 0, totalBalance: 0 });
    expect((await t.call('GET', `/transactions?customerId=${encodeURIComponent(r.customerId)}`)).body.data).toEqual([]);
  });

  it('does not exist for production credentials', async () => {
    const res = await receive({ senderUmaAddress: SENDER, receiverUmaAddress: '$x@platform.example', receivingCurrencyCode: 'USD', receivingCurrencyAmount: 100 }, { auth: t.tenant.production });
    expect(res).toMatchObject({ status: 404, body: { status: 404, code: 'NOT_FOUND' } });
  });
});
