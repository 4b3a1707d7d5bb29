import { eventually } from '@payments/testing';
import { applyPatch, isChecksumCase, ROW_CASES } from '@payments/accounts/testing';
import { startTestPlatform, TestPlatform } from './test-platform';
import { createCustomerId, createExternalAccount, ngnAccount, trust, untilStatus } from './test-external-accounts';

const currencies = (codes: string[]) => codes.map((currencyCode) => ({ currencyCode, minAmount: 100, maxAmount: 5_000_000, requiredCounterpartyFields: [], enabledTransactionTypes: ['INCOMING', 'OUTGOING'] }));

describe('external accounts', () => {
  let t: TestPlatform;
  let customerId: string;
  beforeAll(async () => {
    t = await startTestPlatform({ SANDBOX_TIME_SCALE: '0.01' });
    await t.call('PATCH', '/config', { body: { supportedCurrencies: currencies(['USD', 'NGN']) } });
    customerId = await createCustomerId(t, t.tenant.sandbox, 'Ada Holder');
  });
  afterAll(() => t.stop());

  const create = (body: Record<string, unknown>, auth = t.tenant.sandbox) => t.call('POST', '/customers/external-accounts', { auth, body: { customerId, ...body } });
  const get = (id: string, auth = t.tenant.sandbox) => t.call('GET', `/customers/external-accounts/${id}`, { auth });

  it('creates every account type PENDING, then the sandbox verification timer makes it ACTIVE', async () => {
    const ids: string[] = [];
    for (const row of ROW_CASES) {
      const res = await create({ currency: row.currency, accountInfo: row.valid[0] });
      expect({ type: row.accountType, status: res.status }).toEqual({ type: row.accountType, status: 201 });
      expect(res.body).toMatchObject({ id: expect.stringMatching(/^ExternalAccount:/), customerId, status: 'PENDING', currency: row.currency, accountInfo: { accountType: row.accountType } });
      expect(res.body.accountInfo.beneficiary?.documentNumber).toBeUndefined(); // write-only
      if (row.accountType === 'USD_ACCOUNT') expect(res.body.accountInfo.paymentRails).toEqual(['ACH', 'WIRE', 'RTP', 'FEDNOW']);
      if (row.valid[0].beneficiary) expect(res.body.beneficiaryVerificationStatus).toBe('MATCHED');
      else expect(res.body.beneficiaryVerificationStatus).toBeUndefined();
      ids.push(res.body.id);
    }
    for (const id of ids) await untilStatus(t, t.tenant.sandbox, id, 'ACTIVE');
    const page = (await t.call('GET', `/customers/external-accounts?customerId=${encodeURIComponent(customerId)}&limit=100`)).body;
    expect(page.data.filter((a: { id: string }) => ids.includes(a.id))).toHaveLength(ids.length);
  });

  it('answers 400 INVALID_INPUT naming the field for a broken rule of every account type; nothing is stored', async () => {
    const before = (await t.call('GET', '/customers/external-accounts?limit=1')).body.totalCount;
    for (const row of ROW_CASES) {
      const c = row.invalid.find((x) => !isChecksumCase(x))!; // check digits alone pass in the sandbox (conformance spec)
      const res = await create({ currency: c.currency ?? row.currency, accountInfo: applyPatch(row.valid[c.base ?? 0], c.patch) });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('INVALID_INPUT');
      expect(res.body.details.errors.map((e: { field: string }) => e.field)).toContain(c.field);
    }
    const wrongCurrency = await create({ currency: 'EUR', accountInfo: ngnAccount().accountInfo });
    expect(wrongCurrency.body.details.errors.map((e: { field: string }) => e.field)).toEqual(['currency']);
    expect((await create({ currency: 'NGN' })).status).toBe(400);
    expect((await t.call('GET', '/customers/external-accounts?limit=1')).body.totalCount).toBe(before);
  });

  it('applies the sandbox beneficiary checks 102-107', async () => {
    const expected: Record<string, [string, string]> = { '102': ['NOT_MATCHED', 'UNDER_REVIEW'], '103': ['PARTIAL_MATCH', 'UNDER_REVIEW'], '106': ['UNSUPPORTED', 'ACTIVE'], '107': ['CHECKED_BY_RECEIVING_FI', 'ACTIVE'] };
    const pending = (await create(ngnAccount('104'))).body;
    expect(pending.beneficiaryVerificationStatus).toBe('PENDING');
    for (const [suffix, [check, status]] of Object.entries(expected)) {
      const res = await create(ngnAccount(suffix));
      expect(res.body).toMatchObject({ status: 'PENDING', beneficiaryVerificationStatus: check });
      expect((await untilStatus(t, t.tenant.sandbox, res.body.id, status)).beneficiaryVerificationStatus).toBe(check);
    }
    // 104: the check never answers, so the account stays PENDING (its timer fired before those of the later accounts).
    expect((await get(pending.id)).body.status).toBe('PENDING');

    const before = (await t.call('GET', '/customers/external-accounts?limit=1')).body.totalCount;
    const invalid = await create(ngnAccount('105'));
    expect(invalid.status).toBe(400);
    expect(invalid.body.code).toBe('INVALID_BANK_ACCOUNT');
    expect((await t.call('GET', '/customers/external-accounts?limit=1')).body.totalCount).toBe(before);
  });

  it('deletes softly: 204, then 404 and gone from lists', async () => {
    const id = await createExternalAccount(t, t.tenant.sandbox);
    expect((await t.call('DELETE', `/customers/external-accounts/${id}`)).status).toBe(204);
    expect((await get(id)).body).toMatchObject({ status: 404, code: 'REFERENCE_NOT_FOUND' });
    expect((await t.call('DELETE', `/customers/external-accounts/${id}`)).body).toMatchObject({ status: 404, code: 'REFERENCE_NOT_FOUND' });
    const all = (await t.call('GET', '/customers/external-accounts?limit=100')).body.data.map((a: { id: string }) => a.id);
    expect(all).not.toContain(id);
    const [row] = await t.platform.accounts.host.dataSource.query(`SELECT status FROM accounts.external_accounts WHERE external_account_id = $1`, [id]);
    expect(row.status).toBe('INACTIVE');
  });

  it('refuses to delete a trusted beneficiary until it is untrusted with the SCA code', async () => {
    const id = await createExternalAccount(t, t.tenant.sandbox);
    expect((await t.call('POST', `/customers/external-accounts/${id}/untrust`)).status).toBe(409); // not trusted yet
    await trust(t, id);
    expect((await get(id)).body.trustedBeneficiary).toBe(true);
    const refused = await t.call('DELETE', `/customers/external-accounts/${id}`);
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('BENEFICIARY_TRUSTED');
    expect((await t.call('POST', `/customers/external-accounts/${id}/untrust/confirm`, { body: { code: '123456' } })).status).toBe(409); // nothing started
    const challenge = await t.call('POST', `/customers/external-accounts/${id}/untrust`);
    expect(challenge.status).toBe(200);
    expect(challenge.body).toMatchObject({ externalAccountId: id, factor: 'SMS_OTP', expiresAt: expect.any(String) });
    // The published BeneficiaryTrustStart beside it: the same challenge, whose id the confirm may name.
    const sca = challenge.body.scaChallenge;
    expect(sca).toEqual({ id: expect.stringMatching(/^ScaChallenge:/), expiresAt: challenge.body.expiresAt, factor: 'SMS_OTP', availableFactors: ['SMS_OTP'], purpose: null });
    const wrong = await t.call('POST', `/customers/external-accounts/${id}/untrust/confirm`, { body: { code: '000000' } });
    expect(wrong.status).toBe(400);
    expect(wrong.body.details.errors[0].field).toBe('code');
    const passkey = await t.call('POST', `/customers/external-accounts/${id}/untrust/confirm`, { body: { passkeyAssertion: { id: 'x' }, origin: 'https://app.example.com' } });
    expect(passkey.body).toMatchObject({ status: 400, details: { errors: [{ field: 'code' }] } });
    const otherChallenge = await t.call('POST', `/customers/external-accounts/${id}/untrust/confirm`, { body: { code: '123456', challengeId: 'ScaChallenge:someone-else' } });
    expect(otherChallenge.body).toMatchObject({ status: 400, details: { errors: [{ field: 'challengeId' }] } });
    const confirmed = await t.call('POST', `/customers/external-accounts/${id}/untrust/confirm`, { body: { code: '123456', challengeId: sca.id } });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toMatchObject({ trustedBeneficiary: false, trusted: false }); // published BeneficiaryTrustConfirm.trusted
    expect((await t.call('DELETE', `/customers/external-accounts/${id}`)).status).toBe(204);
  });

  it('404s for another platform\'s customer, and lists only the caller\'s accounts', async () => {
    const other = await t.createTenant();
    const theirCustomer = await createCustomerId(t, other.sandbox);
    const res = await t.call('POST', '/customers/external-accounts', { body: { customerId: theirCustomer, ...ngnAccount() } });
    expect(res.body).toMatchObject({ status: 404, code: 'USER_NOT_FOUND', details: { errors: [{ field: 'customerId' }] } });
    expect((await t.call('GET', '/customers/external-accounts', { auth: other.sandbox })).body.totalCount).toBe(0);
    const theirs = await createExternalAccount(t, other.sandbox);
    expect((await get(theirs)).body).toMatchObject({ status: 404, code: 'REFERENCE_NOT_FOUND' });
    expect((await get('not-an-id')).body).toMatchObject({ status: 404, code: 'REFERENCE_NOT_FOUND' });
  });

  it('creates and lists platform accounts apart from customer accounts; pages with a cursor', async () => {
    const res = await t.call('POST', '/platform/external-accounts', { body: { ...ngnAccount('321'), platformAccountId: 'treasury-ngn' } });
    expect(res.status).toBe(201);
    expect(res.body.customerId).toBeUndefined();
    expect(res.body.platformAccountId).toBe('treasury-ngn');
    await t.call('POST', '/platform/external-accounts', { body: ngnAccount('322') });
    const page = (await t.call('GET', '/platform/external-accounts?limit=1')).body;
    expect(page).toMatchObject({ totalCount: 2, hasMore: true, nextCursor: expect.any(String) });
    const next = (await t.call('GET', `/platform/external-accounts?limit=1&cursor=${page.nextCursor}`)).body;
    expect(next.data[0].id).not.toBe(page.data[0].id);
    expect(next.hasMore).toBe(false);
    const customers = (await t.call('GET', '/customers/external-accounts?limit=100')).body.data.map((a: { id: string }) => a.id);
    expect(customers).not.toContain(res.body.id);
    expect((await get(res.body.id)).status).toBe(200);
    expect((await untilStatus(t, t.tenant.sandbox, res.body.id, 'ACTIVE')).status).toBe('ACTIVE');
  });

  it("gets and deletes platform accounts by id, only the platform's own: a customer's, another platform's or mode's is 404 REFERENCE_NOT_FOUND", async () => {
    const getPlatform = (id: string, auth = t.tenant.sandbox) => t.call('GET', `/platform/external-accounts/${id}`, { auth });
    const deletePlatform = (id: string, auth = t.tenant.sandbox) => t.call('DELETE', `/platform/external-accounts/${id}`, { auth });
    const notFound = { status: 404, code: 'REFERENCE_NOT_FOUND', message: expect.any(String) };
    const created = (await t.call('POST', '/platform/external-accounts', { body: ngnAccount('323') })).body;
    const customerAccount = await createExternalAccount(t, t.tenant.sandbox);

    const res = await getPlatform(created.id);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: created.id, currency: 'NGN', accountInfo: created.accountInfo, createdAt: created.createdAt });
    expect(res.body.customerId).toBeUndefined();

    expect((await getPlatform(customerAccount)).body).toMatchObject(notFound);
    expect((await deletePlatform(customerAccount)).body).toMatchObject(notFound);
    expect((await get(customerAccount)).status).toBe(200); // untouched
    const other = await t.createTenant();
    for (const auth of [other.sandbox, other.production, t.tenant.production]) {
      expect((await getPlatform(created.id, auth)).body).toMatchObject(notFound);
      expect((await deletePlatform(created.id, auth)).body).toMatchObject(notFound);
    }
    expect((await getPlatform('ExternalAccount:00000000-0000-7000-8000-000000000000')).body).toMatchObject(notFound);
    expect((await getPlatform('not-an-id')).body).toMatchObject(notFound);

    // The customer routes keep addressing platform accounts, as before the platform routes existed (docs/accounts.md).
    expect((await get(created.id)).status).toBe(200);

    const deleted = await deletePlatform(created.id);
    expect(deleted.status).toBe(204);
    expect((await getPlatform(created.id)).body).toMatchObject(notFound);
    expect((await deletePlatform(created.id)).body).toMatchObject(notFound);
    expect((await get(created.id)).status).toBe(404);
    const listed = (await t.call('GET', '/platform/external-accounts?limit=100')).body.data.map((a: { id: string }) => a.id);
    expect(listed).not.toContain(created.id);
  });

  it('looks up an ACTIVE account as a receiver: its currency at quoting\'s mid rate from the sending currency, within the platform limits', async () => {
    const id = await createExternalAccount(t, t.tenant.sandbox);
    const pending = await t.call('GET', `/receiver/external-account/${id}`);
    if (pending.status !== 200) expect(pending.body.code).toBe('EXTERNAL_ACCOUNT_VERIFICATION_REQUIRED');
    await untilStatus(t, t.tenant.sandbox, id, 'ACTIVE');
    const res = await t.call('GET', `/receiver/external-account/${id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      supportedCurrencies: [{ currency: { code: 'NGN', name: expect.any(String), symbol: expect.any(String), decimals: 2 }, estimatedExchangeRate: expect.any(Number), min: 100, max: 5_000_000 }],
      lookupId: expect.stringMatching(/^Lookup:/),
      accountId: id,
    });
    // From USD, the platform's first sending currency, at the quoting service's sandbox rates (QuotingRpc.midRates):
    // 1550 NGN per USD, drifting ±0.5%.
    expect(Math.abs(res.body.supportedCurrencies[0].estimatedExchangeRate / 1550 - 1)).toBeLessThanOrEqual(0.005 + 1e-9);
    const stuck = await createExternalAccount(t, t.tenant.sandbox, '104');
    const refused = await t.call('GET', `/receiver/external-account/${stuck}`);
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('EXTERNAL_ACCOUNT_VERIFICATION_REQUIRED');
    expect((await t.call('GET', `/receiver/external-account/ExternalAccount:00000000-0000-7000-8000-000000000000`)).body).toMatchObject({ status: 404, code: 'REFERENCE_NOT_FOUND' });
  });

  it('never activates a production account and ignores the sandbox suffixes there', async () => {
    const prod = await t.call('POST', '/platform/external-accounts', { auth: t.tenant.production, body: ngnAccount('105') });
    expect(prod.status).toBe(201);
    expect(prod.body).toMatchObject({ status: 'PENDING', beneficiaryVerificationStatus: 'PENDING' });
    const control = await createExternalAccount(t, t.tenant.sandbox);
    await untilStatus(t, t.tenant.sandbox, control, 'ACTIVE');
    expect((await get(prod.body.id, t.tenant.production)).body.status).toBe('PENDING');
    const timers = await t.platform.accounts.host.dataSource.query(`SELECT count(*)::int AS n FROM accounts.timers WHERE stream_id = $1`, [prod.body.id]);
    expect(timers[0].n).toBe(0);
    expect((await t.call('POST', `/customers/external-accounts/${prod.body.id}/untrust`, { auth: t.tenant.production })).status).toBe(409);
  });

  it('publishes the lifecycle as events on the accounts topic', async () => {
    const id = await createExternalAccount(t, t.tenant.sandbox);
    await untilStatus(t, t.tenant.sandbox, id, 'ACTIVE');
    const events = await eventually(async () => {
      const rows = await t.platform.accounts.host.dataSource.query(`SELECT type FROM accounts.events WHERE stream_id = $1 ORDER BY stream_version`, [id]);
      return rows.length >= 2 ? rows.map((r: { type: string }) => r.type) : undefined;
    });
    expect(events).toEqual(['ExternalAccountCreated.v1', 'ExternalAccountStatusChanged.v1']);
  });
});
