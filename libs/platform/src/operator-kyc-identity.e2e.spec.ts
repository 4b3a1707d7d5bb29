import { HttpResult } from '@payments/testing';
import { startTestPlatform, TestPlatform, TestTenant } from './test-platform';
import { completeBusiness, createCustomer, individualBody, kycTransitions, ownerBody } from './test-kyc';
import { tinyPng, uploadDocument } from './test-documents';

/**
 * A KYC/KYB decision holds for the identity the reviewers saw (issue #41): production, two reviewers, four-eyes. A
 * material change while a submission waits drops its approvals (the review shows the reset and what changed), so the
 * second approval cannot approve an identity the first reviewer never saw; once APPROVED, a material change is
 * refused (409 KYC_IDENTITY_LOCKED) and the customer stays as approved; contact details still change.
 */
describe('KYC/KYB decisions bound to the reviewed identity (production, four-eyes)', () => {
  let t: TestPlatform;
  let tenant: TestTenant & { platformId: string };
  let alice: string;
  let bob: string;

  beforeAll(async () => {
    t = await startTestPlatform({ SANDBOX_TIME_SCALE: '0.001', KYC_APPROVALS_REQUIRED: '2' });
    tenant = (await t.createTenant('KYC identity platform')) as TestTenant & { platformId: string };
    expect((await t.call('PATCH', '/config', { auth: tenant.production, body: { umaDomain: 'kyc-identity.example.com' } })).status).toBe(200);
    [alice, bob] = [(await t.createOperator('REVIEWER', 'Alice')).auth, (await t.createOperator('REVIEWER', 'Bob')).auth];
  }, 60_000);
  afterAll(() => t?.stop());

  const op = (method: string, path: string, auth: string, body?: unknown): Promise<HttpResult> => t.operatorCall(method, path, { auth, body });
  const prod = (method: string, path: string, body?: unknown) => t.call(method, path, { auth: tenant.production, body });
  const review = async (caseId: string) => (await op('GET', `/kyc-reviews/${caseId}`, alice)).body;
  const approve = (caseId: string, auth: string, body?: unknown) => op('POST', `/kyc-reviews/${caseId}/approve`, auth, body);
  const submit = async (customerId: string) => {
    const res = await prod('POST', '/verifications', { customerId });
    expect(res.body).toMatchObject({ verificationStatus: 'PENDING_MANUAL_REVIEW' });
    return res.body.id as string;
  };
  const expectError = (res: HttpResult, status: number, code: string) => expect({ status: res.status, code: res.body?.code }).toEqual({ status, code });
  const approvedByBoth = async (caseId: string) => {
    expect((await approve(caseId, alice)).body.reviewStatus).toBe('AWAITING_SECOND_APPROVAL');
    expect((await approve(caseId, bob)).body.reviewStatus).toBe('APPROVED');
  };

  it('(a) an identity changed between the two approvals is not approved: the approvals reset and the case shows the change', async () => {
    const person = await createCustomer(t, individualBody('Ada Lovelace'), tenant.production);
    const caseId = await submit(person);
    const seenByAlice = await review(caseId);
    expect(seenByAlice.digest).toMatch(/^[0-9a-f]{64}$/);
    const first = await approve(caseId, alice, { digest: seenByAlice.digest });
    expect(first.body).toMatchObject({ reviewStatus: 'AWAITING_SECOND_APPROVAL', approvals: [{ operatorName: 'Alice', digest: seenByAlice.digest }] });

    const patched = await prod('PATCH', `/customers/${person}`, {
      fullName: 'Mallory Impostor',
      birthDate: '1980-01-01',
      nationality: 'GB',
      address: { line1: '9 Other St', city: 'London', postalCode: 'N1 9GU', country: 'GB' },
    });
    expect(patched.status).toBe(200);

    // The case says what happened: Alice's approval dropped, the identity now under review is another one.
    const after = await review(caseId);
    expect(after).toMatchObject({ reviewStatus: 'AWAITING_REVIEW', approvals: [], customer: { fullName: 'Mallory Impostor' } });
    expect(after.digest).not.toBe(seenByAlice.digest);
    expect(after.resets).toEqual([
      { previousDigest: seenByAlice.digest, digest: after.digest, changed: ['customer'], approvalsDropped: [expect.objectContaining({ operatorName: 'Alice' })], resetAt: expect.any(String) },
    ]);

    // Bob approving what Alice saw is stale: refused, nothing recorded.
    expectError(await approve(caseId, bob, { digest: seenByAlice.digest }), 409, 'KYC_REVIEW_STALE');
    // Bob approving the current identity is the first approval of it, not the second: not APPROVED.
    const bobs = await approve(caseId, bob, { digest: after.digest });
    expect(bobs.body).toMatchObject({ reviewStatus: 'AWAITING_SECOND_APPROVAL', approvals: [{ operatorName: 'Bob', digest: after.digest }] });
    expect((await prod('GET', `/customers/${person}`)).body.kycStatus).toBe('PENDING');
    expect((await prod('GET', `/verifications/${caseId}`)).body.verificationStatus).toBe('PENDING_MANUAL_REVIEW');

    // Alice looks again and approves what Bob approved: now it is decided.
    expect((await approve(caseId, alice, { digest: after.digest })).body).toMatchObject({ reviewStatus: 'APPROVED', decision: { outcome: 'APPROVED', operatorName: 'Alice' } });
    expect((await prod('GET', `/customers/${person}`)).body).toMatchObject({ kycStatus: 'APPROVED', fullName: 'Mallory Impostor' });
    expect(await kycTransitions(t, person)).toEqual(['PENDING', 'APPROVED']);
  });

  it('(b) after approval a material change is refused with 409 and the customer stays as approved; a contact change passes', async () => {
    const person = await createCustomer(t, individualBody('Grace Hopper'), tenant.production);
    const caseId = await submit(person);
    await approvedByBoth(caseId);
    const approved = (await prod('GET', `/customers/${person}`)).body;

    for (const change of [{ fullName: 'Someone Else' }, { birthDate: '1970-01-01' }, { nationality: 'FR' }, { address: { line1: '1 Rue X', city: 'Paris', postalCode: '75001', country: 'FR' } }, { identifier: '987-65-4321' }]) {
      const res = await prod('PATCH', `/customers/${person}`, change);
      expectError(res, 409, 'KYC_IDENTITY_LOCKED');
      expect(res.body.details).toMatchObject({ fields: Object.keys(change) });
    }
    expect((await prod('GET', `/customers/${person}`)).body).toEqual(approved);

    const email = await prod('PATCH', `/customers/${person}`, { email: 'grace@example.com' });
    expect(email.status).toBe(200);
    expect(email.body).toMatchObject({ kycStatus: 'APPROVED', email: 'grace@example.com', fullName: 'Grace Hopper' });
    expect(await kycTransitions(t, person)).toEqual(['PENDING', 'APPROVED']);
  });

  it('(c) KYB: a business info change or an owner added or changed resets the review; after approval all three are refused', async () => {
    const kyb = await completeBusiness(t, 'PROD-ID-1', [], tenant.production);
    const caseId = await submit(kyb.customerId);
    const changedBy = async (change: () => Promise<HttpResult>, status: number, part: string) => {
      const before = await review(caseId);
      expect((await approve(caseId, alice)).body.reviewStatus).toBe('AWAITING_SECOND_APPROVAL');
      expect((await change()).status).toBe(status);
      const after = await review(caseId);
      expect(after).toMatchObject({ reviewStatus: 'AWAITING_REVIEW', approvals: [] });
      expect(after.resets.at(-1)).toMatchObject({ previousDigest: before.digest, digest: after.digest, changed: [part] });
      return after;
    };
    await changedBy(() => prod('PATCH', `/customers/${kyb.customerId}`, { businessInfo: { legalName: 'Shell Holdings Ltd' } }), 200, 'customer');
    let owner = '';
    await changedBy(async () => {
      const res = await prod('POST', '/beneficial-owners', ownerBody(kyb.customerId, 'Newcomer', { ownershipPercentage: 30 }));
      owner = res.body.id;
      return res;
    }, 201, 'beneficialOwners');
    await changedBy(() => prod('PATCH', `/beneficial-owners/${owner}`, { ownershipPercentage: 55 }), 200, 'beneficialOwners');
    expect((await review(caseId)).resets).toHaveLength(3);

    // A non-material change (the business's email) keeps the approval.
    expect((await approve(caseId, alice)).body.reviewStatus).toBe('AWAITING_SECOND_APPROVAL');
    expect((await prod('PATCH', `/customers/${kyb.customerId}`, { email: 'ops@acme.example.com' })).status).toBe(200);
    expect(await review(caseId)).toMatchObject({ reviewStatus: 'AWAITING_SECOND_APPROVAL', resets: { length: 3 } });
    expect((await approve(caseId, bob)).body.reviewStatus).toBe('APPROVED');
    expect((await prod('GET', `/customers/${kyb.customerId}`)).body).toMatchObject({ kybStatus: 'APPROVED', businessInfo: { legalName: 'Shell Holdings Ltd' } });

    expectError(await prod('PATCH', `/customers/${kyb.customerId}`, { businessInfo: { taxId: '98-7654321' } }), 409, 'KYC_IDENTITY_LOCKED');
    expectError(await prod('POST', '/beneficial-owners', ownerBody(kyb.customerId, 'Late', { ownershipPercentage: 5 })), 409, 'KYC_IDENTITY_LOCKED');
    expectError(await prod('PATCH', `/beneficial-owners/${owner}`, { personalInfo: { firstName: 'Mallory' } }), 409, 'KYC_IDENTITY_LOCKED');
    expectError(await uploadDocument(t, kyb.customerId, { auth: tenant.production, fields: { documentType: 'BANK_STATEMENT', country: 'US' }, file: { name: 'late.png', bytes: tinyPng() } }), 409, 'KYC_IDENTITY_LOCKED');
    const owners = (await prod('GET', `/beneficial-owners?customerId=${kyb.customerId}`)).body.data;
    expect(owners.map((o: { personalInfo: { lastName: string }; ownershipPercentage: number }) => [o.personalInfo.lastName, o.ownershipPercentage]).sort()).toEqual([['Control', 40], ['Newcomer', 55]]);
  });

  it('(d) a document added during the review resets it', async () => {
    const person = await createCustomer(t, individualBody('Doc Holder'), tenant.production);
    const caseId = await submit(person);
    const before = await review(caseId);
    expect((await approve(caseId, alice)).body.reviewStatus).toBe('AWAITING_SECOND_APPROVAL');
    const upload = await uploadDocument(t, person, { auth: tenant.production, fields: { documentType: 'PROOF_OF_ADDRESS', country: 'US' }, file: { name: 'bill.png', bytes: tinyPng(0x20) } });
    expect(upload.status).toBe(201);
    const after = await review(caseId);
    expect(after).toMatchObject({ reviewStatus: 'AWAITING_REVIEW', approvals: [] });
    expect(after.resets).toEqual([expect.objectContaining({ previousDigest: before.digest, digest: after.digest, changed: ['documents'] })]);
    expect((await approve(caseId, bob)).body.reviewStatus).toBe('AWAITING_SECOND_APPROVAL');
  });
});
