import { canonicalJson } from '@payments/contracts';
import { eventually, walletStamp } from '@payments/testing';
import { startTestPlatform, TestPlatform } from './test-platform';
import { ClientKey, enableWallets, otpLogin, signed, walletCustomer } from './test-wallet';

/**
 * PATCH /internal-accounts/{id} (`updateInternalAccount`): an Embedded Wallet's privacy, set through the signed retry
 * (202 with the challenge, then 200 with the account), stamped by a session key as a platform's client does it.
 */
describe('Embedded Wallet privacy (PATCH /internal-accounts/{id})', () => {
  let t: TestPlatform;
  beforeAll(async () => {
    t = await startTestPlatform();
    await enableWallets(t, t.tenant.sandbox);
  });
  afterAll(() => t?.stop());

  /** A wallet customer logged in with its email OTP: the account and a session key that signs for it. */
  const loggedIn = async (): Promise<{ customerId: string; accountId: string; key: ClientKey }> => {
    const { customerId, accountId } = await walletCustomer(t, t.tenant.sandbox);
    const credentials = (await t.call('GET', `/auth/credentials?accountId=${encodeURIComponent(accountId)}`)).body.data;
    const { key } = await otpLogin(t, credentials[0].id);
    return { customerId, accountId, key };
  };
  const accountsOf = async (customerId: string) => (await t.call('GET', `/customers/internal-accounts?customerId=${encodeURIComponent(customerId)}`)).body.data as any[];

  it('turns privacy on with a signed retry: 202 with the challenge, 200 with the account, which lists it from then on', async () => {
    const { customerId, accountId, key } = await loggedIn();
    const [before] = (await accountsOf(customerId)).filter((a) => a.id === accountId);
    expect(before).toMatchObject({ type: 'EMBEDDED_WALLET', privateEnabled: false });

    const path = `/internal-accounts/${accountId}`;
    const { first, final } = await signed(t, 'PATCH', path, { privateEnabled: true }, key);
    expect(first.status).toBe(202);
    expect(first.body).toEqual({ payloadToSign: expect.any(String), requestId: expect.stringMatching(/^Request:/), expiresAt: expect.any(String) });
    // payloadToSign shows the signer a raw-payload activity whose payload is the hex of the body it binds.
    const activity = JSON.parse(first.body.payloadToSign);
    expect(activity).toMatchObject({
      type: 'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2',
      parameters: { encoding: 'PAYLOAD_ENCODING_HEXADECIMAL', hashFunction: 'HASH_FUNCTION_NO_OP', payload: Buffer.from(canonicalJson({ privateEnabled: true })).toString('hex'), signWith: accountId },
    });

    expect(final.status).toBe(200);
    expect(final.body).toMatchObject({ id: accountId, customerId, type: 'EMBEDDED_WALLET', status: 'ACTIVE', privateEnabled: true, createdAt: before.createdAt });
    expect(Date.parse(final.body.updatedAt)).toBeGreaterThan(Date.parse(before.updatedAt));
    const listed = (await accountsOf(customerId)).find((a) => a.id === accountId);
    expect(listed).toEqual(final.body);
    const wallets = (await t.call('GET', `/customers/internal-accounts?customerId=${encodeURIComponent(customerId)}&type=EMBEDDED_WALLET`)).body.data;
    expect(wallets).toEqual([final.body]);

    // The challenge answered once; a new one turns privacy off again.
    const replay = await t.call('PATCH', path, { body: { privateEnabled: true }, headers: { 'Service-Wallet-Signature': await walletStamp(key, first.body.payloadToSign), 'Request-Id': first.body.requestId } });
    expect(replay.body).toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
    const off = await signed(t, 'PATCH', path, { privateEnabled: false }, key);
    expect(off.final.status).toBe(200);
    expect(off.final.body.privateEnabled).toBe(false);
    expect((await accountsOf(customerId)).find((a) => a.id === accountId).privateEnabled).toBe(false);
  });

  it('refuses a retry with another body than the first call (401 WALLET_SIGNATURE_BODY_MISMATCH) and changes nothing', async () => {
    const { customerId, accountId, key } = await loggedIn();
    const path = `/internal-accounts/${accountId}`;
    const first = await t.call('PATCH', path, { body: { privateEnabled: false } });
    expect(first.status).toBe(202);
    const headers = { 'Service-Wallet-Signature': await walletStamp(key, first.body.payloadToSign), 'Request-Id': first.body.requestId };
    const mismatched = await t.call('PATCH', path, { body: { privateEnabled: true }, headers });
    expect(mismatched.status).toBe(401);
    expect(mismatched.body.code).toBe('WALLET_SIGNATURE_BODY_MISMATCH');
    expect((await accountsOf(customerId)).find((a) => a.id === accountId).privateEnabled).toBe(false);
    // The failure did not use the challenge up: the retry with the same body still answers.
    const retried = await t.call('PATCH', path, { body: { privateEnabled: false }, headers });
    expect(retried.status).toBe(200);
    expect(retried.body).toMatchObject({ id: accountId, privateEnabled: false });
  });

  it('updates only Embedded Wallets (400), only the caller\'s (404), and only with a boolean privateEnabled (400)', async () => {
    const { customerId, accountId } = await walletCustomer(t, t.tenant.sandbox);
    const usd = await eventually(async () => (await accountsOf(customerId)).find((a) => a.type === 'INTERNAL_FIAT'), { what: `USD account of ${customerId}` });
    // Ordinary accounts have no privateEnabled at all.
    expect(usd).not.toHaveProperty('privateEnabled');
    expect(Object.keys((await t.call('GET', '/platform/internal-accounts')).body.data[0] ?? {})).not.toContain('privateEnabled');

    const nonWallet = await t.call('PATCH', `/internal-accounts/${usd.id}`, { body: { privateEnabled: true } });
    expect(nonWallet.status).toBe(400);
    expect(nonWallet.body.code).toBe('INVALID_INPUT');

    for (const body of [{}, { privateEnabled: 'true' }, { privateEnabled: 1 }, { privateEnabled: null }, { privateEnabled: true, nickname: 'x' }]) {
      const refused = await t.call('PATCH', `/internal-accounts/${accountId}`, { body });
      expect({ body, status: refused.status, code: refused.body.code }).toEqual({ body, status: 400, code: 'INVALID_INPUT' });
    }

    // Another tenant's wallet, the same wallet in production, an unknown and a malformed id: 404.
    const other = await t.createTenant('Privacy other platform');
    await enableWallets(t, other.sandbox);
    const foreign = await walletCustomer(t, other.sandbox);
    for (const [auth, id] of [[t.tenant.sandbox, foreign.accountId], [other.sandbox, accountId], [t.tenant.production, accountId], [t.tenant.sandbox, 'InternalAccount:00000000-0000-5000-8000-000000000000'], [t.tenant.sandbox, 'nope']]) {
      const missing = await t.call('PATCH', `/internal-accounts/${encodeURIComponent(id)}`, { auth, body: { privateEnabled: true } });
      expect({ id, status: missing.status, code: missing.body.code }).toEqual({ id, status: 404, code: 'REFERENCE_NOT_FOUND' });
    }
    const foreignWallet = (await t.call('GET', `/customers/internal-accounts?customerId=${encodeURIComponent(foreign.customerId)}&type=EMBEDDED_WALLET`, { auth: other.sandbox })).body.data;
    expect(foreignWallet).toEqual([expect.objectContaining({ id: foreign.accountId, privateEnabled: false })]);
  });
});
