import { createServer, Server } from 'node:net';
import { eventually } from '@payments/testing';
import { createCustomerId, createExternalAccount, ngnAccount, untilStatus } from './test-external-accounts';
import { startTestPlatform, TestOperator, TestPlatform, TestTenant } from './test-platform';

/**
 * Production external accounts become ACTIVE through the verification an operator configures per currency (issue
 * #28): operator approval from a queue, or the payout rail's verification. Over HTTP: the platform API with a
 * production tenant, the operator API with operators of each role; the webhook as the dispatcher queues and sends it.
 */
describe('production external account verification (operator API)', () => {
  let t: TestPlatform;
  let tenant: TestTenant & { platformId?: string };
  let viewer: TestOperator;
  let reviewer: TestOperator;
  let admin: TestOperator;
  /**
   * The tenant's production webhook endpoint (production endpoints must be https): a loopback TCP listener that
   * hangs up, so no TLS handshake succeeds. What was sent, and that it was attempted there, is read from the
   * dispatcher's queue and attempt history.
   */
  const endpoint: Server = createServer((socket) => socket.destroy());
  let endpointUrl: string;

  beforeAll(async () => {
    await new Promise<void>((resolve) => endpoint.listen(0, '127.0.0.1', resolve));
    endpointUrl = `https://127.0.0.1:${(endpoint.address() as { port: number }).port}/hooks`;
    t = await startTestPlatform({ SANDBOX_TIME_SCALE: '0.001', WEBHOOK_BACKOFF_SCALE: '0.0002' });
    tenant = await t.createTenant('Production platform');
    // Production customers need an UMA domain (no sandbox one).
    const configured = await t.call('PATCH', '/config', { auth: tenant.production, body: { webhookEndpoint: endpointUrl, umaDomain: 'production.example.com' } });
    expect(configured.status).toBe(200);
    viewer = await t.createOperator('VIEWER', 'Vic Viewer');
    reviewer = await t.createOperator('REVIEWER', 'Rita Reviewer');
    admin = await t.createOperator('ADMIN', 'Ada Admin');
  }, 60_000);
  afterAll(async () => {
    await t?.stop();
    await new Promise((resolve) => endpoint.close(resolve));
  });

  const review = (id: string, auth = viewer.auth) => t.operatorCall('GET', `/external-account-reviews/${id}`, { auth });
  const queue = async (query = ''): Promise<string[]> => (await t.operatorCall('GET', `/external-account-reviews?platformId=${encodeURIComponent(tenant.platformId!)}${query}`, { auth: viewer.auth })).body.data.map((r: { id: string }) => r.id);
  const platformView = async (id: string) => (await t.call('GET', `/customers/external-accounts/${id}`, { auth: tenant.production })).body;

  /** The EXTERNAL_ACCOUNT.STATUS_UPDATED webhook the dispatcher queued for the tenant's production with this status, and an attempt to send it. */
  async function statusWebhook(id: string, status: string): Promise<Record<string, unknown>> {
    const db = t.platform.webhooks.host.dataSource;
    const row = await eventually(async () => {
      const rows = await db.query(`SELECT webhook_id, mode, data_json FROM webhooks.deliveries WHERE platform_id = $1 AND type = 'EXTERNAL_ACCOUNT.STATUS_UPDATED'`, [tenant.platformId]);
      return rows.find((r: { data_json: string }) => JSON.parse(r.data_json).id === id && JSON.parse(r.data_json).status === status);
    }, { what: `EXTERNAL_ACCOUNT.STATUS_UPDATED ${status} for ${id}` });
    expect(row.mode).toBe('PRODUCTION');
    await eventually(async () => (await db.query(`SELECT url FROM webhooks.delivery_attempts WHERE webhook_id = $1`, [row.webhook_id])).find((a: { url: string }) => a.url === endpointUrl), {
      what: 'a delivery attempt to the production endpoint',
    });
    return JSON.parse(row.data_json);
  }

  async function auditOf(targetId: string): Promise<Record<string, any>[]> {
    return eventually(async () => {
      const page = (await t.operatorCall('GET', `/audit-events?targetId=${encodeURIComponent(targetId)}`, { auth: viewer.auth })).body;
      return page.data.length > 0 ? page.data : undefined;
    }, { what: `the audit record of ${targetId}` });
  }

  it('puts a production account in the queue, with the account as its platform sees it; a REVIEWER approves it: ACTIVE, the webhook, the audit record', async () => {
    const customerId = await createCustomerId(t, tenant.production);
    const created = await t.call('POST', '/customers/external-accounts', { auth: tenant.production, body: { customerId, ...ngnAccount('102') } });
    expect(created.status).toBe(201);
    // The published lifecycle: created PENDING; no sandbox suffix applies in production, the name check is pending.
    expect(created.body).toMatchObject({ status: 'PENDING', beneficiaryVerificationStatus: 'PENDING' });
    const id: string = created.body.id;
    const refused = await t.call('GET', `/receiver/external-account/${id}`, { auth: tenant.production });
    expect(refused.body).toMatchObject({ status: 400, code: 'EXTERNAL_ACCOUNT_VERIFICATION_REQUIRED' });

    expect(await queue()).toContain(id);
    const seen = await review(id);
    expect(seen.status).toBe(200);
    expect(seen.body).toEqual({
      id,
      platformId: tenant.platformId,
      customerId,
      currency: 'NGN',
      status: 'PENDING',
      verificationMethod: 'OPERATOR_APPROVAL',
      beneficiaryVerificationStatus: 'PENDING',
      createdAt: created.body.createdAt,
      account: await platformView(id),
    });

    // Who may decide: a VIEWER sees but cannot decide; platform credentials do not open the operator API.
    expect((await t.operatorCall('POST', `/external-account-reviews/${id}/approve`, { auth: viewer.auth, body: {} })).status).toBe(403);
    for (const auth of [tenant.production, tenant.sandbox]) {
      expect((await t.operatorCall('POST', `/external-account-reviews/${id}/approve`, { auth, body: {} })).status).toBe(401);
      expect((await t.operatorCall('GET', '/external-account-reviews', { auth })).status).toBe(401);
    }
    expect((await platformView(id)).status).toBe('PENDING');

    const approved = await t.operatorCall('POST', `/external-account-reviews/${id}/approve`, { auth: reviewer.auth, body: { reason: 'bank statement matches the beneficiary' } });
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({ id, status: 'ACTIVE', account: { id, status: 'ACTIVE' } });
    const account = await platformView(id);
    expect(account.status).toBe('ACTIVE');
    expect((await t.call('GET', `/receiver/external-account/${id}`, { auth: tenant.production })).status).toBe(200);
    expect(await queue()).not.toContain(id);

    // Decided once: approving or rejecting again is 409 and changes nothing.
    expect((await t.operatorCall('POST', `/external-account-reviews/${id}/approve`, { auth: reviewer.auth })).body).toMatchObject({ status: 409, code: 'CONFLICT' });
    expect((await t.operatorCall('POST', `/external-account-reviews/${id}/reject`, { auth: admin.auth, body: { reason: 'second thoughts' } })).status).toBe(409);

    // The platform hears of it as of any status change: the webhook carries the account as GET answers it.
    expect(await statusWebhook(id, 'ACTIVE')).toEqual(account);

    const [record, ...others] = await auditOf(id);
    expect(others).toEqual([]); // the refused attempts recorded nothing
    expect(record).toEqual({
      id: expect.any(String),
      service: 'accounts',
      operator: { id: reviewer.id, name: 'Rita Reviewer', role: 'REVIEWER' },
      action: 'external-account.approve',
      target: { type: 'ExternalAccount', id },
      platformId: tenant.platformId,
      reason: 'bank statement matches the beneficiary',
      details: { status: 'ACTIVE', currency: 'NGN' },
      occurredAt: expect.any(String),
    });
  });

  it('rejects with a reason (required): the published UNVERIFIED, which cannot receive, and its webhook', async () => {
    const created = await t.call('POST', '/platform/external-accounts', { auth: tenant.production, body: ngnAccount('555') });
    expect(created.status).toBe(201);
    const id: string = created.body.id;
    expect((await review(id)).body).toMatchObject({ platformId: tenant.platformId, status: 'PENDING', verificationMethod: 'OPERATOR_APPROVAL' });
    expect((await review(id)).body).not.toHaveProperty('customerId'); // the platform's own account

    for (const body of [{}, { reason: '   ' }, { reason: 7 }]) {
      const bad = await t.operatorCall('POST', `/external-account-reviews/${id}/reject`, { auth: reviewer.auth, body });
      expect(bad.body).toMatchObject({ status: 400, code: 'INVALID_INPUT' });
    }
    const rejected = await t.operatorCall('POST', `/external-account-reviews/${id}/reject`, { auth: reviewer.auth, body: { reason: 'beneficiary name does not match the bank record' } });
    expect(rejected.status).toBe(200);
    expect(rejected.body).toMatchObject({ status: 'UNVERIFIED', account: { status: 'UNVERIFIED' } });
    const account = (await t.call('GET', `/platform/external-accounts/${id}`, { auth: tenant.production })).body;
    expect(account.status).toBe('UNVERIFIED');
    expect((await t.call('GET', `/receiver/external-account/${id}`, { auth: tenant.production })).body).toMatchObject({ status: 400, code: 'EXTERNAL_ACCOUNT_VERIFICATION_REQUIRED' });
    expect(await queue()).not.toContain(id);
    expect((await t.operatorCall('POST', `/external-account-reviews/${id}/approve`, { auth: reviewer.auth })).status).toBe(409);

    expect(await statusWebhook(id, 'UNVERIFIED')).toEqual(account);
    const [record] = await auditOf(id);
    expect(record).toMatchObject({ action: 'external-account.reject', operator: { id: reviewer.id }, platformId: tenant.platformId, reason: 'beneficiary name does not match the bank record', details: { status: 'UNVERIFIED' } });

    // The platform can still delete it, as any account.
    expect((await t.call('DELETE', `/platform/external-accounts/${id}`, { auth: tenant.production })).status).toBe(204);
    expect((await review(id)).status).toBe(404);
  });

  it('lists the queue oldest first with cursors, filtered by platform and currency', async () => {
    const other = await t.createTenant('Queue platform');
    const ids: string[] = [];
    for (const suffix of ['301', '302', '303']) ids.push((await t.call('POST', '/platform/external-accounts', { auth: other.production, body: ngnAccount(suffix) })).body.id);
    const first = await t.operatorCall('GET', `/external-account-reviews?platformId=${encodeURIComponent(other.platformId!)}&limit=2`, { auth: viewer.auth });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ hasMore: true, totalCount: 3 });
    expect(first.body.data.map((r: { id: string }) => r.id)).toEqual(ids.slice(0, 2));
    const second = await t.operatorCall('GET', `/external-account-reviews?platformId=${encodeURIComponent(other.platformId!)}&limit=2&cursor=${first.body.nextCursor}`, { auth: viewer.auth });
    expect(second.body).toMatchObject({ hasMore: false, totalCount: 3 });
    expect(second.body.data.map((r: { id: string }) => r.id)).toEqual(ids.slice(2));
    const everyone = await t.operatorCall('GET', '/external-account-reviews?limit=100', { auth: viewer.auth });
    expect(everyone.body.data.map((r: { id: string }) => r.id)).toEqual(expect.arrayContaining(ids));
    expect((await t.operatorCall('GET', `/external-account-reviews?platformId=${encodeURIComponent(other.platformId!)}&currency=USD`, { auth: viewer.auth })).body).toMatchObject({ data: [], totalCount: 0 });
    expect((await t.operatorCall('GET', '/external-account-reviews?currency=usd', { auth: viewer.auth })).status).toBe(400);
    expect((await t.operatorCall('GET', '/external-account-reviews?verificationMethod=EMAIL', { auth: viewer.auth })).status).toBe(400);
  });

  it('ADMIN sets a currency to PAYOUT_RAIL: its new accounts skip the queue and wait for the rail; accounts already waiting keep their method', async () => {
    const before = (await t.call('POST', '/platform/external-accounts', { auth: tenant.production, body: ngnAccount('401') })).body.id;
    const methods = await t.operatorCall('GET', '/account-verification-methods', { auth: viewer.auth });
    expect(methods.status).toBe(200);
    expect(methods.body.defaultMethod).toBe('OPERATOR_APPROVAL');
    expect(methods.body.data).toEqual(expect.arrayContaining([{ currency: 'NGN', method: 'OPERATOR_APPROVAL', configured: false }, { currency: 'USD', method: 'OPERATOR_APPROVAL', configured: false }]));

    for (const operator of [viewer, reviewer]) {
      expect((await t.operatorCall('PUT', '/account-verification-methods/NGN', { auth: operator.auth, body: { method: 'PAYOUT_RAIL' } })).status).toBe(403);
    }
    expect((await t.operatorCall('PUT', '/account-verification-methods/NGN', { auth: tenant.production, body: { method: 'PAYOUT_RAIL' } })).status).toBe(401);
    expect((await t.operatorCall('PUT', '/account-verification-methods/NGN', { auth: admin.auth, body: { method: 'EMAIL' } })).body).toMatchObject({ status: 400, code: 'INVALID_INPUT' });
    expect((await t.operatorCall('PUT', '/account-verification-methods/XYZ', { auth: admin.auth, body: { method: 'PAYOUT_RAIL' } })).body).toMatchObject({ status: 400, code: 'INVALID_INPUT' });

    const set = await t.operatorCall('PUT', '/account-verification-methods/NGN', { auth: admin.auth, body: { method: 'PAYOUT_RAIL' } });
    expect(set.status).toBe(200);
    expect(set.body).toEqual({ currency: 'NGN', method: 'PAYOUT_RAIL', configured: true, updatedAt: expect.any(String), updatedBy: { id: admin.id, name: 'Ada Admin' } });
    expect((await t.operatorCall('GET', '/account-verification-methods', { auth: viewer.auth })).body.data).toContainEqual(set.body);
    // Setting the method it has changes and records nothing.
    expect((await t.operatorCall('PUT', '/account-verification-methods/NGN', { auth: admin.auth, body: { method: 'PAYOUT_RAIL' } })).body).toEqual(set.body);
    const configured = await auditOf('NGN');
    expect(configured).toEqual([
      expect.objectContaining({ action: 'account-verification.configure', operator: { id: admin.id, name: 'Ada Admin', role: 'ADMIN' }, target: { type: 'AccountVerificationMethod', id: 'NGN' }, details: { currency: 'NGN', method: 'PAYOUT_RAIL' } }),
    ]);
    expect(configured[0]).not.toHaveProperty('platformId'); // deployment-wide

    const railAccount = await t.call('POST', '/platform/external-accounts', { auth: tenant.production, body: ngnAccount('402') });
    expect(railAccount.body.status).toBe('PENDING');
    const id: string = railAccount.body.id;
    expect(await queue()).toContain(before); // created before the change: still the operator's
    expect(await queue()).not.toContain(id);
    expect(await queue('&verificationMethod=PAYOUT_RAIL')).toEqual([id]);
    expect((await review(id)).body).toMatchObject({ status: 'PENDING', verificationMethod: 'PAYOUT_RAIL' });
    expect((await t.operatorCall('POST', `/external-account-reviews/${id}/approve`, { auth: reviewer.auth })).body).toMatchObject({ status: 409, code: 'CONFLICT' });
    // Nothing verifies it by itself: it stays PENDING (no timer, no sandbox rule) and cannot receive.
    const timers = await t.platform.accounts.host.dataSource.query(`SELECT count(*)::int AS n FROM accounts.timers WHERE stream_id = $1`, [id]);
    expect(timers[0].n).toBe(0);
    expect((await t.call('GET', `/platform/external-accounts/${id}`, { auth: tenant.production })).body.status).toBe('PENDING');

    // The rails' port (AccountsRpc.recordRailVerification; the ACH prenote will call it): verified, it is ACTIVE with its webhook.
    const verified = await t.platform.accounts.accountVerification.recordRailVerification({ platformId: tenant.platformId!, mode: 'PRODUCTION', externalAccountId: id, outcome: 'VERIFIED', rail: 'ACH' }, new Date().toISOString());
    expect(verified.status).toBe('ACTIVE');
    expect(await statusWebhook(id, 'ACTIVE')).toEqual((await t.call('GET', `/platform/external-accounts/${id}`, { auth: tenant.production })).body);
    expect(await queue('&verificationMethod=PAYOUT_RAIL')).toEqual([]);
  });

  it('knows nothing of sandbox accounts, which keep the sandbox rules; unknown ids are 404', async () => {
    const sandboxId = await createExternalAccount(t, tenant.sandbox, '102');
    for (const [method, path, body] of [
      ['GET', `/external-account-reviews/${sandboxId}`, undefined],
      ['POST', `/external-account-reviews/${sandboxId}/approve`, {}],
      ['POST', `/external-account-reviews/${sandboxId}/reject`, { reason: 'no' }],
      ['GET', '/external-account-reviews/ExternalAccount:00000000-0000-7000-8000-000000000000', undefined],
      ['POST', '/external-account-reviews/not-an-id/approve', {}],
    ] as const) {
      expect((await t.operatorCall(method, path, { auth: admin.auth, body })).body).toMatchObject({ status: 404, code: 'REFERENCE_NOT_FOUND' });
    }
    expect((await t.operatorCall('GET', '/external-account-reviews?limit=100', { auth: viewer.auth })).body.data.map((r: { id: string }) => r.id)).not.toContain(sandboxId);
    // The sandbox's magic values and timer, unchanged: 102 is NOT_MATCHED, then UNDER_REVIEW.
    expect(await untilStatus(t, tenant.sandbox, sandboxId, 'UNDER_REVIEW')).toMatchObject({ beneficiaryVerificationStatus: 'NOT_MATCHED' });
  });
});
