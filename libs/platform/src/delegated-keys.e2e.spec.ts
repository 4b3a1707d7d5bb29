import { eventually, turnkeyCrypto, walletStamp } from '@payments/testing';
import { startTestPlatform, TestPlatform } from './test-platform';
import { ClientKey, enableWallets, otpLogin, signed, walletCustomer } from './test-wallet';
import { delegatedKeyLegs, walletFundedCard } from './test-delegated-keys';
import { accountBalances, cardTransactionOf, declinesOf, expectCardLedgersClean, purchase, simulate, untilCard } from './test-cards';

/**
 * Delegated keys (POST/GET/DELETE /auth/delegated-keys) through HTTP: a card funded by an Embedded Wallet gets a
 * server-custodied key in three legs with the same body (202, 202, 201), each retry stamped by the published
 * @turnkey/api-key-stamper with a session of that wallet. One ACTIVE key per card funding source.
 */
describe('Delegated keys', () => {
  let t: TestPlatform;
  beforeAll(async () => {
    t = await startTestPlatform({ SANDBOX_TIME_SCALE: '0.001' }); // the cardholder's KYC decision takes 5 ms
    await enableWallets(t, t.tenant.sandbox);
  });
  afterAll(() => t?.stop());

  const walletCard = (auth = t.tenant.sandbox) => walletFundedCard(t, auth);
  const list = async (query: string, auth = t.tenant.sandbox) => t.call('GET', `/auth/delegated-keys${query}`, { auth });
  const threeLegs = (body: object, key: ClientKey, auth = t.tenant.sandbox) => delegatedKeyLegs(t, body, key, auth);

  it('creates a key in three legs (202, 202, 201 ACTIVE with its public key); a second one for the funding source is 409', async () => {
    const { accountId, cardId, key } = await walletCard();
    const body = { cardId, internalAccountId: accountId, nickname: 'Card pulls' };
    const { first, second, final } = await threeLegs(body, key);
    expect(first.status).toBe(202);
    expect(first.body).toEqual({ payloadToSign: expect.any(String), requestId: expect.stringMatching(/^Request:/), expiresAt: expect.any(String) });
    expect(second.status).toBe(202);
    expect(second.body.requestId).not.toBe(first.body.requestId);
    expect(final.status).toBe(201);
    expect(final.body).toEqual({
      id: expect.stringMatching(/^DelegatedKey:/), cardId, fundingSourceId: expect.stringMatching(/^CardFundingSource:/), accountId,
      publicKey: expect.stringMatching(/^0[23][0-9a-f]{64}$/), nickname: 'Card pulls', status: 'ACTIVE', createdAt: expect.any(String), updatedAt: expect.any(String),
    });
    // The second challenge showed the signer the key it activates.
    expect(second.body.payloadToSign).toContain(final.body.publicKey);
    expect(turnkeyCrypto.uncompressRawPublicKey(Buffer.from(final.body.publicKey, 'hex'))).toHaveLength(65);

    expect((await t.call('GET', `/auth/delegated-keys/${final.body.id}`)).body).toEqual(final.body);
    const again = await t.call('POST', '/auth/delegated-keys', { body: { ...body, nickname: 'Another' } });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('DELEGATED_KEY_EXISTS');
  });

  it('a flow abandoned after leg 2 leaves a PENDING key in the list, and a new flow still works', async () => {
    const { accountId, cardId, key } = await walletCard();
    const body = { cardId, internalAccountId: accountId, nickname: 'Abandoned' };
    const first = await t.call('POST', '/auth/delegated-keys', { body });
    const second = await t.call('POST', '/auth/delegated-keys', { body, headers: { 'Service-Wallet-Signature': await walletStamp(key, first.body.payloadToSign), 'Request-Id': first.body.requestId } });
    expect(second.status).toBe(202);
    const listed = await list(`?accountId=${encodeURIComponent(accountId)}`);
    expect(listed.status).toBe(200);
    expect(listed.body.data).toEqual([expect.objectContaining({ accountId, cardId, nickname: 'Abandoned', status: 'PENDING' })]);
    const pending = listed.body.data[0];
    expect((await t.call('DELETE', `/auth/delegated-keys/${pending.id}`)).body).toMatchObject({ status: 400, code: 'DELEGATED_KEY_NOT_ACTIVE' });

    const { final } = await threeLegs({ ...body, nickname: 'Second try' }, key);
    expect(final.status).toBe(201);
    expect((await list(`?fundingSourceId=${encodeURIComponent(final.body.fundingSourceId)}`)).body.data.map((k: any) => [k.id, k.status])).toEqual([
      [pending.id, 'PENDING'],
      [final.body.id, 'ACTIVE'],
    ]);
  });

  it('lists by accountId and/or fundingSourceId (one is required) and revokes only an ACTIVE key', async () => {
    const { accountId, cardId, key } = await walletCard();
    const { final } = await threeLegs({ cardId, internalAccountId: accountId, nickname: 'To revoke' }, key);
    const created = final.body;
    expect((await list('')).body).toMatchObject({ status: 400, code: 'INVALID_INPUT' });
    expect((await list(`?accountId=${encodeURIComponent(accountId)}`)).body).toEqual({ data: [created] });
    expect((await list(`?fundingSourceId=${encodeURIComponent(created.fundingSourceId)}`)).body).toEqual({ data: [created] });
    expect((await list(`?accountId=${encodeURIComponent(accountId)}&fundingSourceId=${encodeURIComponent(created.fundingSourceId)}`)).body).toEqual({ data: [created] });
    expect((await list(`?accountId=${encodeURIComponent(accountId)}&fundingSourceId=CardFundingSource:00000000-0000-0000-0000-000000000000`)).body).toEqual({ data: [] });

    const revoked = await t.call('DELETE', `/auth/delegated-keys/${created.id}`);
    expect(revoked.status).toBe(204);
    expect((await t.call('GET', `/auth/delegated-keys/${created.id}`)).body).toMatchObject({ id: created.id, status: 'REVOKED' });
    expect((await t.call('DELETE', `/auth/delegated-keys/${created.id}`)).body).toMatchObject({ status: 400, code: 'DELEGATED_KEY_NOT_ACTIVE' });
    expect((await list(`?accountId=${encodeURIComponent(accountId)}`)).body.data.map((k: any) => k.status)).toEqual(['REVOKED']);
    expect((await t.call('GET', '/auth/delegated-keys/DelegatedKey:00000000-0000-0000-0000-000000000000')).body).toMatchObject({ status: 404, code: 'DELEGATED_KEY_NOT_FOUND' });
  });

  it("answers 404 for another tenant's key and lists nothing of it", async () => {
    const { accountId, cardId, key } = await walletCard();
    const { final } = await threeLegs({ cardId, internalAccountId: accountId, nickname: 'Mine' }, key);
    const other = await t.createTenant('delegated-other');
    expect((await t.call('GET', `/auth/delegated-keys/${final.body.id}`, { auth: other.sandbox })).body).toMatchObject({ status: 404, code: 'DELEGATED_KEY_NOT_FOUND' });
    expect((await t.call('DELETE', `/auth/delegated-keys/${final.body.id}`, { auth: other.sandbox })).status).toBe(404);
    expect((await list(`?accountId=${encodeURIComponent(accountId)}`, other.sandbox)).body).toEqual({ data: [] });
    expect((await list(`?fundingSourceId=${encodeURIComponent(final.body.fundingSourceId)}`, other.sandbox)).body).toEqual({ data: [] });
    expect((await list(`?accountId=${encodeURIComponent(accountId)}`, t.tenant.production)).body).toEqual({ data: [] });
    // Another tenant cannot start a key on this card either.
    expect((await t.call('POST', '/auth/delegated-keys', { auth: other.sandbox, body: { cardId, internalAccountId: accountId, nickname: 'Theirs' } })).status).toBe(404);
    expect((await t.call('GET', `/auth/delegated-keys/${final.body.id}`)).body.status).toBe('ACTIVE');
  });

  it('refuses a card that does not fund from the account, and an account that is not an Embedded Wallet', async () => {
    const { accountId, cardId } = await walletCard();
    const stranger = await walletCustomer(t, t.tenant.sandbox);
    expect((await t.call('POST', '/auth/delegated-keys', { body: { cardId, internalAccountId: stranger.accountId, nickname: 'x' } })).status).toBe(404);
    expect((await t.call('POST', '/auth/delegated-keys', { body: { cardId: 'Card:00000000-0000-0000-0000-000000000000', internalAccountId: accountId, nickname: 'x' } })).status).toBe(404);
    expect((await t.call('POST', '/auth/delegated-keys', { body: { cardId, internalAccountId: accountId, nickname: '' } })).body.code).toBe('INVALID_INPUT');
  });

  it('takes the signature of a session of that wallet only (401 WALLET_SIGNATURE_INVALID), on both signed legs', async () => {
    const { accountId, cardId, key } = await walletCard();
    const stranger = await walletCustomer(t, t.tenant.sandbox);
    const [credential] = (await t.call('GET', `/auth/credentials?accountId=${encodeURIComponent(stranger.accountId)}`)).body.data;
    const { key: strangerKey } = await otpLogin(t, credential.id);
    const body = { cardId, internalAccountId: accountId, nickname: 'Signed' };
    const retry = async (challenge: { payloadToSign: string; requestId: string }, by: ClientKey, retryBody: object = body) =>
      t.call('POST', '/auth/delegated-keys', { body: retryBody, headers: { 'Service-Wallet-Signature': await walletStamp(by, challenge.payloadToSign), 'Request-Id': challenge.requestId } });

    const first = (await t.call('POST', '/auth/delegated-keys', { body })).body;
    expect((await retry(first, strangerKey)).body.code).toBe('WALLET_SIGNATURE_INVALID');
    expect((await retry(first, key, { ...body, nickname: 'Changed' })).body.code).toBe('WALLET_SIGNATURE_BODY_MISMATCH');
    expect((await t.call('POST', '/auth/delegated-keys', { body, headers: { 'Request-Id': first.requestId } })).body.code).toBe('WALLET_SIGNATURE_MISSING');
    const second = await retry(first, key);
    expect(second.status).toBe(202);
    expect((await retry(first, key)).body.code).toBe('UNAUTHORIZED'); // the first challenge is used up
    expect((await retry(second.body, strangerKey)).body.code).toBe('WALLET_SIGNATURE_INVALID');
    const final = await retry(second.body, key);
    expect(final.status).toBe(201);
    expect(final.body.status).toBe('ACTIVE');
  });

  it('reuses the shared signed-retry helper: the first two legs are an ordinary signed retry', async () => {
    const { accountId, cardId, key } = await walletCard();
    const { first, final } = await signed(t, 'POST', '/auth/delegated-keys', { cardId, internalAccountId: accountId, nickname: 'Helper' }, key);
    expect([first.status, final.status]).toEqual([202, 202]);
    expect((await list(`?accountId=${encodeURIComponent(accountId)}`)).body.data.map((k: any) => k.status)).toEqual(['PENDING']);
  });

  it('an Embedded Wallet funds card authorizations only while its delegated key is ACTIVE', async () => {
    const { customerId, accountId, cardId, key } = await walletCard();
    expect((await t.call('POST', `/sandbox/internal-accounts/${accountId}/fund`, { body: { amount: 5_000 } })).status).toBe(200);
    await untilCard(t, cardId, (c) => c.state === 'ACTIVE');
    const authorize = async (descriptor: string) => (await simulate(t, cardId, 'authorization', purchase(1_000, descriptor, 'USDB'))).body.issuerTransactionToken as string;
    const declined = async (token: string) => eventually(async () => (await declinesOf(t, token))[0]?.reason, { what: `decline of ${token}` });

    // No delegated key yet: the wallet cannot fund the card, so nothing can.
    expect(await declined(await authorize('BEFORE KEY'))).toBe('INSUFFICIENT_FUNDS');
    expect(await accountBalances(t, customerId, accountId)).toEqual({ balance: 5_000, totalBalance: 5_000 });

    const { final } = await threeLegs({ cardId, internalAccountId: accountId, nickname: 'Card pulls' }, key);
    expect(final.status).toBe(201);
    const tx = await cardTransactionOf(t, await authorize('WITH KEY'), (x) => x.pullSummary.pendingCount === 0);
    expect(tx).toMatchObject({ status: 'AUTHORIZED', accountId, authorizedAmount: { amount: 1_000, currency: { code: 'USDB' } }, pullSummary: { count: 1, totalAmount: 1_000 } });
    expect(await accountBalances(t, customerId, accountId)).toEqual({ balance: 4_000, totalBalance: 4_000 });
    // The pull was signed by the delegated key the wallet authorized.
    const [authorized] = await t.platform.cards.host.dataSource.query(`SELECT data->>'delegatedKeyId' AS key FROM events WHERE stream_id = $1 AND type = 'CardTransactionAuthorized.v1'`, [tx.id]);
    expect(authorized.key).toBe(final.body.id);

    expect((await t.call('DELETE', `/auth/delegated-keys/${final.body.id}`)).status).toBe(204);
    expect(await declined(await authorize('AFTER REVOKE'))).toBe('INSUFFICIENT_FUNDS');
    expect(await accountBalances(t, customerId, accountId)).toEqual({ balance: 4_000, totalBalance: 4_000 });
    await expectCardLedgersClean(t);
  });
});
