import { startTestPlatform, TestPlatform, TestTenant } from './test-platform';
import {
  addOwner,
  businessBody,
  completeBusiness,
  createCustomer,
  EDD_FIELDS,
  individualBody,
  kycTransitions,
  ownerBody,
  timersOf,
  verificationReaches,
} from './test-kyc';

const submit = (t: TestPlatform, customerId: string, auth = t.tenant.sandbox) => t.call('POST', '/verifications', { auth, body: { customerId } });

describe('KYC/KYB verifications through the gateway (sandbox decisions on durable timers)', () => {
  let t: TestPlatform;
  beforeAll(async () => {
    t = await startTestPlatform({ SANDBOX_TIME_SCALE: '0.001' }); // the 5 s decision takes 5 ms
  });
  afterAll(() => t.stop());

  const customer = async (id: string) => (await t.call('GET', `/customers/${id}`)).body;

  it('individual, any other suffix: IN_PROGRESS and PENDING, then APPROVED; one status event per transition', async () => {
    const customerId = await createCustomer(t, individualBody('Ada Lovelace'));
    const res = await submit(t, customerId);
    expect(res.status).toBe(200); // published: 200, not 201
    expect(res.body).toEqual({ id: expect.stringMatching(/^Verification:[0-9a-f-]{36}$/), customerId, verificationStatus: 'IN_PROGRESS', errors: [], createdAt: expect.any(String), updatedAt: expect.any(String) });
    expect(await kycTransitions(t, customerId)).toEqual(['PENDING']); // committed with the submission
    const decided = await verificationReaches(t, res.body.id, 'APPROVED');
    expect(decided).toMatchObject({ id: res.body.id, errors: [] });
    expect((await customer(customerId)).kycStatus).toBe('APPROVED');
    expect(await kycTransitions(t, customerId)).toEqual(['PENDING', 'APPROVED']);
    expect(await timersOf(t, res.body.id)).toEqual([{ fired_at: expect.any(Date) }]);
    const again = await submit(t, customerId);
    expect(again.body).toMatchObject({ status: 400, code: 'VERIFICATION_ALREADY_DECIDED' });
  });

  it('a decision timer firing again has no effect', async () => {
    const customerId = await createCustomer(t, individualBody('Tim Twice'));
    const res = await submit(t, customerId);
    await verificationReaches(t, res.body.id, 'APPROVED');
    const db = t.platform.identity.host.dataSource;
    const [timer] = await db.query(`SELECT * FROM identity.timers WHERE stream_id = $1`, [res.body.id]);
    const count = async () => (await db.query(`SELECT count(*)::int AS n FROM identity.events WHERE stream_id = ANY($1)`, [[res.body.id, customerId]]))[0].n;
    const before = await count();
    const handler = t.platform.identity.verifications.timerHandlers()[timer.name];
    await handler(timer);
    await handler(timer);
    expect(await count()).toBe(before);
    expect(await kycTransitions(t, customerId)).toEqual(['PENDING', 'APPROVED']);
  });

  it('individual 002: IN_PROGRESS, then REJECTED with the reason; a resubmission is 400', async () => {
    const customerId = await createCustomer(t, individualBody('Bob Rejected 002'));
    const res = await submit(t, customerId);
    expect(res.body.verificationStatus).toBe('IN_PROGRESS');
    const decided = await verificationReaches(t, res.body.id, 'REJECTED');
    expect(decided.errors).toEqual([{ resourceId: customerId, type: 'APPLICANT_REJECTED', reason: expect.any(String) }]);
    expect((await customer(customerId)).kycStatus).toBe('REJECTED');
    expect(await kycTransitions(t, customerId)).toEqual(['PENDING', 'REJECTED']);
    expect((await submit(t, customerId)).body).toMatchObject({ status: 400, code: 'VERIFICATION_ALREADY_DECIDED' });
  });

  it('individual 001: IN_PROGRESS with kycStatus PENDING and no automatic decision; resubmitting is 409', async () => {
    const customerId = await createCustomer(t, individualBody('Carol Review 001'));
    const res = await submit(t, customerId);
    expect(res.body.verificationStatus).toBe('IN_PROGRESS');
    // A case submitted after it gets decided; this one has no timer and stays under review.
    const later = await submit(t, await createCustomer(t, individualBody('Dave Later')));
    await verificationReaches(t, later.body.id, 'APPROVED');
    expect((await t.call('GET', `/verifications/${res.body.id}`)).body.verificationStatus).toBe('IN_PROGRESS');
    expect(await timersOf(t, res.body.id)).toEqual([]);
    expect((await customer(customerId)).kycStatus).toBe('PENDING');
    expect(await kycTransitions(t, customerId)).toEqual(['PENDING']);
    const again = await submit(t, customerId);
    expect(again.body).toMatchObject({ status: 409, code: 'VERIFICATION_IN_PROGRESS', details: { verificationId: res.body.id } });
  });

  it('individual 003: RESOLVE_ERRORS on edd.* fields; PATCH them and resubmit: the same case goes on to APPROVED', async () => {
    const customerId = await createCustomer(t, individualBody('Erin Edd 003'));
    const first = await submit(t, customerId);
    expect(first.body).toMatchObject({ verificationStatus: 'RESOLVE_ERRORS' });
    expect(first.body.errors).toEqual(
      ['edd.sourceOfWealthCategories', 'edd.purposeOfAccount', 'edd.annualIncomeRange'].map((field) => ({ resourceId: customerId, type: 'MISSING_FIELD', field, reason: expect.any(String) })),
    );
    expect((await customer(customerId)).kycStatus).toBe('UNVERIFIED'); // nothing was submitted for review
    expect((await submit(t, customerId)).body.verificationStatus).toBe('RESOLVE_ERRORS'); // still missing
    expect((await t.call('PATCH', `/customers/${customerId}`, { body: EDD_FIELDS })).status).toBe(200);
    const second = await submit(t, customerId);
    expect(second.body).toMatchObject({ id: first.body.id, verificationStatus: 'IN_PROGRESS', errors: [] });
    await verificationReaches(t, first.body.id, 'APPROVED');
    expect(await kycTransitions(t, customerId)).toEqual(['PENDING', 'APPROVED']);
    expect((await customer(customerId)).kycStatus).toBe('APPROVED');
  });

  it('individual without basic data: RESOLVE_ERRORS naming each missing field', async () => {
    const customerId = await createCustomer(t, { customerType: 'INDIVIDUAL', fullName: 'Fay Sparse' });
    const res = await submit(t, customerId);
    expect(res.body.verificationStatus).toBe('RESOLVE_ERRORS');
    expect(res.body.errors.map((e: { field: string; type: string; resourceId: string }) => [e.resourceId, e.type, e.field])).toEqual([
      [customerId, 'MISSING_FIELD', 'birthDate'], [customerId, 'MISSING_FIELD', 'nationality'], [customerId, 'MISSING_FIELD', 'address'],
    ]);
  });

  it('business without KYB inputs: each missing one reported with its resourceId', async () => {
    const customerId = await createCustomer(t, businessBody('REG-100'));
    const empty = await submit(t, customerId);
    expect(empty.body.verificationStatus).toBe('RESOLVE_ERRORS');
    expect(empty.body.errors).toEqual([
      { resourceId: customerId, type: 'MISSING_CONTROL_PERSON', reason: expect.any(String) },
      { resourceId: customerId, type: 'MISSING_BENEFICIAL_OWNER', reason: expect.any(String) },
      { resourceId: customerId, type: 'MISSING_LEGAL_PRESENCE_DOCUMENT', acceptedDocumentTypes: ['CERTIFICATE_OF_INCORPORATION', 'ARTICLES_OF_INCORPORATION'], reason: expect.any(String) },
      { resourceId: customerId, type: 'MISSING_OWNERSHIP_STRUCTURE_DOCUMENT', acceptedDocumentTypes: ['SHAREHOLDER_REGISTER'], reason: expect.any(String) },
      { resourceId: customerId, type: 'MISSING_PROOF_OF_ADDRESS_DOCUMENT', acceptedDocumentTypes: ['PROOF_OF_ADDRESS', 'UTILITY_BILL', 'BANK_STATEMENT'], reason: expect.any(String) },
    ]);
    // A U.S. control person identified by passport: the error names the owner.
    const owner = await addOwner(t, ownerBody(customerId, 'Passport', { roles: ['CONTROL_PERSON'], ownershipPercentage: 30, personalInfo: { ...ownerBody('', 'Doe').personalInfo, idType: 'PASSPORT', identifier: 'X1234567' } }));
    const withOwner = await submit(t, customerId);
    expect(withOwner.body.errors.map((e: { type: string }) => e.type)).not.toContain('MISSING_CONTROL_PERSON');
    expect(withOwner.body.errors).toContainEqual({ resourceId: owner, type: 'INVALID_FIELD', field: 'personalInfo.idType', reason: expect.any(String) });
    expect((await customer(customerId)).kybStatus).toBe('UNVERIFIED');
  });

  it('business, other registrationNumber: APPROVED; kybStatus follows; owners by lastName 001/002/other; documents become undeletable', async () => {
    const kyb = await completeBusiness(t, 'REG-777', ['Pending001', 'Rejected002', 'Approved']);
    const res = await submit(t, kyb.customerId);
    expect(res.body).toMatchObject({ verificationStatus: 'IN_PROGRESS', errors: [] });
    expect((await customer(kyb.customerId)).kybStatus).toBe('PENDING');
    const owners = async () => Object.fromEntries((await t.call('GET', `/beneficial-owners?customerId=${kyb.customerId}`)).body.data.map((o: { personalInfo: { lastName: string }; kycStatus: string }) => [o.personalInfo.lastName, o.kycStatus]));
    expect(await owners()).toEqual({ Control: 'PENDING', Pending001: 'PENDING', Rejected002: 'PENDING', Approved: 'PENDING' });
    await verificationReaches(t, res.body.id, 'APPROVED');
    const business = await customer(kyb.customerId);
    expect([business.kybStatus, business.kycStatus]).toEqual(['APPROVED', undefined]);
    expect(await kycTransitions(t, kyb.customerId)).toEqual(['PENDING', 'APPROVED']);
    expect(await owners()).toEqual({ Control: 'APPROVED', Pending001: 'PENDING', Rejected002: 'REJECTED', Approved: 'APPROVED' });
    const deleted = await t.call('DELETE', `/documents/${kyb.documents[0]}`);
    expect(deleted.status).toBe(409);
    // An owner added after the decision is verified as it is added.
    const late = await t.call('POST', '/beneficial-owners', { body: ownerBody(kyb.customerId, 'Late002', { ownershipPercentage: 0, roles: ['DIRECTOR'] }) });
    expect(late.body.kycStatus).toBe('REJECTED');
  });

  it('business 002: REJECTED and kybStatus REJECTED; business 001: IN_PROGRESS and kybStatus PENDING, owners stay PENDING', async () => {
    const rejected = await completeBusiness(t, 'REG-002');
    const r = await submit(t, rejected.customerId);
    await verificationReaches(t, r.body.id, 'REJECTED');
    expect((await customer(rejected.customerId)).kybStatus).toBe('REJECTED');
    expect(await kycTransitions(t, rejected.customerId)).toEqual(['PENDING', 'REJECTED']);

    const held = await completeBusiness(t, 'REG-001', ['Owner']);
    const h = await submit(t, held.customerId);
    const later = await submit(t, (await completeBusiness(t, 'REG-778')).customerId);
    await verificationReaches(t, later.body.id, 'APPROVED');
    expect((await t.call('GET', `/verifications/${h.body.id}`)).body.verificationStatus).toBe('IN_PROGRESS');
    expect((await customer(held.customerId)).kybStatus).toBe('PENDING');
    expect((await t.call('GET', `/beneficial-owners/${held.owners[0]}`)).body.kycStatus).toBe('PENDING');
    expect((await submit(t, held.customerId)).status).toBe(409);
  });

  it('lists with customerId and status filters, paginated', async () => {
    const a = await submit(t, await createCustomer(t, individualBody('List One 001')));
    const b = await submit(t, await createCustomer(t, individualBody('List Two 001')));
    const inProgress = await t.call('GET', '/verifications?status=IN_PROGRESS&limit=1');
    expect(inProgress.body).toMatchObject({ hasMore: true, nextCursor: expect.any(String) });
    expect(inProgress.body.data).toHaveLength(1);
    const next = await t.call('GET', `/verifications?status=IN_PROGRESS&limit=1&cursor=${inProgress.body.nextCursor}`);
    expect(next.body.data[0].id).not.toBe(inProgress.body.data[0].id);
    const byCustomer = await t.call('GET', `/verifications?customerId=${a.body.customerId}`);
    expect(byCustomer.body).toEqual({ data: [a.body], hasMore: false, totalCount: 1 });
    expect((await t.call('GET', '/verifications?status=RESOLVE_ERRORS')).body.data.every((v: { verificationStatus: string }) => v.verificationStatus === 'RESOLVE_ERRORS')).toBe(true);
    expect((await t.call('GET', '/verifications?status=DONE')).status).toBe(400);
    // The published filter name: the same page as `status`; both at once must agree.
    expect((await t.call('GET', '/verifications?verificationStatus=IN_PROGRESS&limit=1')).body).toEqual(inProgress.body);
    expect((await t.call('GET', '/verifications?verificationStatus=IN_PROGRESS&status=RESOLVE_ERRORS')).body).toMatchObject({ status: 400, details: { errors: [{ field: 'verificationStatus' }] } });
    expect((await t.call('GET', `/verifications/${b.body.id}`)).body).toEqual(b.body);
    expect((await t.call('GET', '/verifications/Verification:00000000-0000-7000-8000-000000000000')).body).toMatchObject({ status: 404, code: 'REFERENCE_NOT_FOUND' });
    expect((await t.call('POST', '/verifications', { body: { customerId: 'Customer:00000000-0000-7000-8000-000000000000' } })).body).toMatchObject({ status: 404, code: 'USER_NOT_FOUND' });
    expect((await t.call('POST', '/verifications', { body: { customerId: 'nope' } })).status).toBe(400);
  });

  it('production: no magic and no provider; the case waits in PENDING_MANUAL_REVIEW, never auto-approved', async () => {
    const auth = t.tenant.production;
    const customerId = await createCustomer(t, individualBody('Prod Person', { umaAddress: '$prod.person@pay.example.com' }), auth);
    const res = await submit(t, customerId, auth);
    expect(res.body).toMatchObject({ verificationStatus: 'PENDING_MANUAL_REVIEW', errors: [] });
    expect(await timersOf(t, res.body.id)).toEqual([]);
    expect((await t.call('GET', `/customers/${customerId}`, { auth })).body.kycStatus).toBe('PENDING');
    expect((await submit(t, customerId, auth)).body).toMatchObject({ status: 409, code: 'VERIFICATION_IN_PROGRESS' });
    const edd = await createCustomer(t, individualBody('Prod 003', { umaAddress: '$prod.003@pay.example.com' }), auth);
    expect((await submit(t, edd, auth)).body.verificationStatus).toBe('PENDING_MANUAL_REVIEW'); // 003 is sandbox-only
    expect((await submit(t, customerId)).status).toBe(404); // the sandbox credential does not see production data
  });

  it('isolates tenants: another platform sees none of it and cannot submit for it', async () => {
    const stranger: TestTenant = await t.createTenant('kyc stranger');
    const customerId = await createCustomer(t, individualBody('Tenant Owned 001'));
    const mine = await submit(t, customerId);
    expect((await submit(t, customerId, stranger.sandbox)).status).toBe(404);
    expect((await t.call('GET', `/verifications/${mine.body.id}`, { auth: stranger.sandbox })).status).toBe(404);
    expect((await t.call('GET', `/verifications?customerId=${customerId}`, { auth: stranger.sandbox })).body).toMatchObject({ data: [], totalCount: 0 });
    expect((await t.call('GET', '/verifications', { auth: stranger.sandbox })).body.totalCount).toBe(0);
  });
});

describe('verification decisions survive a restart (durable timers)', () => {
  let t: TestPlatform;
  beforeAll(async () => {
    t = await startTestPlatform({ SANDBOX_TIME_SCALE: '0.6' }); // the 5 s decision takes 3 s: the restart lands before it
  });
  afterAll(() => t.stop());

  it('decides after a restart between submission and decision, exactly once', async () => {
    const customerId = await createCustomer(t, individualBody('Rita Restart'));
    const res = await t.call('POST', '/verifications', { body: { customerId } });
    expect(res.body.verificationStatus).toBe('IN_PROGRESS');
    const [pending] = await t.platform.identity.host.dataSource.query(`SELECT fired_at, due_at > now() AS ahead FROM identity.timers WHERE stream_id = $1`, [res.body.id]);
    expect(pending).toEqual({ fired_at: null, ahead: true }); // the decision is still ahead when the platform goes down
    const restartedAt = new Date();
    await t.restart();
    await verificationReaches(t, res.body.id, 'APPROVED');
    const decisions = await t.platform.identity.host.dataSource.query(`SELECT created_at FROM identity.events WHERE stream_id = $1 AND type = 'VerificationApproved.v1'`, [res.body.id]);
    expect(decisions).toHaveLength(1);
    expect(decisions[0].created_at.getTime()).toBeGreaterThanOrEqual(restartedAt.getTime());
    expect(await kycTransitions(t, customerId)).toEqual(['PENDING', 'APPROVED']);
    expect((await t.call('GET', `/customers/${customerId}`)).body.kycStatus).toBe('APPROVED');
  });
});
