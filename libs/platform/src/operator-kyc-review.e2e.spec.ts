import { eventually, HttpResult } from '@payments/testing';
import { startTestPlatform, TestPlatform, TestTenant } from './test-platform';
import { completeBusiness, createCustomer, individualBody, kycTransitions } from './test-kyc';
import { tinyPdf, tinyPng, uploadDocument } from './test-documents';

/**
 * The manual review of production KYC/KYB through the operator API, end to end over HTTP: a production platform
 * submits, operators review the queue, open the documents, ask for changes, approve under four-eyes or reject; the
 * platform sees the verification, its customers and owners move and receives the webhooks, exactly as with the
 * sandbox's timed decisions.
 */
describe('operator API: KYC/KYB reviews (/operator/v1/kyc-reviews)', () => {
  let t: TestPlatform;
  let tenant: TestTenant & { platformId: string };
  let alice: string;
  let bob: string;
  let viewer: string;

  beforeAll(async () => {
    t = await startTestPlatform({ SANDBOX_TIME_SCALE: '0.001' });
    tenant = (await t.createTenant('KYC review platform')) as TestTenant & { platformId: string };
    // Production endpoints are https: nothing answers there, but every webhook is queued with its type and data.
    expect((await t.call('PATCH', '/config', { auth: tenant.production, body: { webhookEndpoint: 'https://127.0.0.1:9/kyc', umaDomain: 'kyc-review.example.com' } })).status).toBe(200);
    [alice, bob, viewer] = [(await t.createOperator('REVIEWER', 'Alice')).auth, (await t.createOperator('REVIEWER', 'Bob')).auth, (await t.createOperator('VIEWER', 'Vera')).auth];
  }, 60_000);
  afterAll(() => t?.stop());

  /** A request to the operator API, its answers held to the operator OpenAPI document. */
  const op = (method: string, path: string, auth: string | undefined, options: { body?: unknown; headers?: Record<string, string> } = {}): Promise<HttpResult> =>
    t.operatorCall(method, path, { auth: auth as string, ...options });
  const prod = (method: string, path: string, body?: unknown) => t.call(method, path, { auth: tenant.production, body });
  const submit = async (customerId: string) => {
    const res = await prod('POST', '/verifications', { customerId });
    expect(res.body).toMatchObject({ verificationStatus: 'PENDING_MANUAL_REVIEW' });
    return res.body.id as string;
  };
  const queue = async (query: string, auth = alice) => {
    const res = await op('GET', `/kyc-reviews?platformId=${tenant.platformId}${query}`, auth);
    expect(res.status).toBe(200);
    return res.body as { data: any[]; hasMore: boolean; nextCursor?: string; totalCount: number };
  };
  /** The platform's production webhooks of `type` about resource `id`, as queued for delivery (their `data`). */
  const hooks = async (type: string, id: string): Promise<any[]> => {
    const rows: { data_json: string }[] = await t.platform.webhooks.host.dataSource.query(
      `SELECT data_json FROM webhooks.deliveries WHERE platform_id = $1 AND mode = 'PRODUCTION' AND type = $2 ORDER BY created_at`,
      [tenant.platformId, type],
    );
    return rows.map((r) => JSON.parse(r.data_json)).filter((data) => data.id === id);
  };
  const webhook = (type: string, id: string) => eventually(async () => (await hooks(type, id))[0], { what: `${type} for ${id}` });
  /** Operator actions recorded on a target, from identity's log, oldest first. */
  const actions = async (targetId: string) =>
    (await t.platform.identity.host.dataSource.query(
      `SELECT data, transaction_id::text AS tx FROM identity.events WHERE type = 'OperatorActionRecorded.v1' AND data->>'targetId' = $1 ORDER BY global_position`,
      [targetId],
    )) as { data: { action: string; operatorName: string; operatorRole: string; platformId: string; reason?: string; details: Record<string, unknown> }; tx: string }[];
  const byId = <T extends { id: string }>(items: T[]) => [...items].sort((a, b) => (a.id < b.id ? -1 : 1));
  const expectError = (res: HttpResult, status: number, code: string) => expect({ status: res.status, code: res.body?.code }).toEqual({ status, code });

  it('a business and an individual: queue, document, changes requested, resubmission, four-eyes approval', async () => {
    const kyb = await completeBusiness(t, 'PROD-REG-9', ['Owner'], tenant.production);
    const person = await createCustomer(t, individualBody('Prod Person'), tenant.production);
    const businessCase = await submit(kyb.customerId);
    const personCase = await submit(person);

    // The queue, oldest submission first, each item with what a reviewer needs.
    const waiting = await queue('');
    expect(waiting.data.map((r) => r.verificationId)).toEqual([businessCase, personCase]);
    const [business] = waiting.data;
    const platformView = async (path: string) => (await prod('GET', path)).body;
    expect(business).toEqual({
      verificationId: businessCase,
      platformId: tenant.platformId,
      customerType: 'BUSINESS',
      reviewStatus: 'AWAITING_REVIEW',
      attempt: 1,
      approvalsRequired: 2,
      digest: expect.stringMatching(/^[0-9a-f]{64}$/),
      approvals: [],
      resets: [],
      submittedAt: expect.any(String),
      verification: await platformView(`/verifications/${businessCase}`),
      customer: await platformView(`/customers/${kyb.customerId}`),
      beneficialOwners: byId((await platformView(`/beneficial-owners?customerId=${kyb.customerId}`)).data), // oldest first
      documents: await Promise.all([...kyb.documents].sort().map((id) => platformView(`/documents/${id}`))),
    });
    expect(business.beneficialOwners).toHaveLength(2);
    expect((await queue('&customerType=INDIVIDUAL')).data.map((r) => r.verificationId)).toEqual([personCase]);
    const paged = await queue('&limit=1');
    expect(paged).toMatchObject({ hasMore: true, totalCount: 2 });
    expect((await queue(`&limit=1&cursor=${paged.nextCursor}`)).data.map((r) => r.verificationId)).toEqual([personCase]);
    expect((await op('GET', `/kyc-reviews/${businessCase}`, viewer)).body).toEqual(business);

    // A reviewer opens a document: the bytes as uploaded, an attachment; the download is on record.
    const file = await fetch(`${new URL(t.url).origin}/operator/v1/kyc-reviews/${businessCase}/documents/${kyb.documents[0]}/file`, { headers: { authorization: alice } });
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('application/pdf');
    expect(file.headers.get('content-disposition')).toMatch(/^attachment; filename="passport\.pdf"/);
    expect(file.headers.get('cache-control')).toBe('no-store');
    expect(Buffer.from(await file.arrayBuffer())).toEqual(tinyPdf());
    expect((await actions(kyb.documents[0])).map((a) => [a.data.action, a.data.operatorName, a.data.details.verificationId])).toEqual([['kyc.download-document', 'Alice', businessCase]]);

    // Changes requested: the verification is RESOLVE_ERRORS with exactly these errors, as a sandbox one would be.
    const errors = [
      { resourceId: kyb.customerId, type: 'MISSING_PROOF_OF_ADDRESS_DOCUMENT', acceptedDocumentTypes: ['BANK_STATEMENT'], reason: 'the utility bill is older than 3 months' },
      { resourceId: kyb.owners[0], type: 'INVALID_FIELD', field: 'personalInfo.address', reason: 'the address does not match the ID' },
    ];
    const changes = await op('POST', `/kyc-reviews/${businessCase}/request-changes`, alice, { body: { reason: 'stale bill, address mismatch', errors } });
    expect(changes.status).toBe(200);
    expect(changes.body).toMatchObject({ reviewStatus: 'CHANGES_REQUESTED', approvals: [], decision: { outcome: 'RESOLVE_ERRORS', operatorName: 'Alice', reason: 'stale bill, address mismatch', errors } });
    const resolve = await platformView(`/verifications/${businessCase}`);
    expect(resolve).toMatchObject({ verificationStatus: 'RESOLVE_ERRORS', errors });
    expect(await webhook('VERIFICATION.RESOLVE_ERRORS', businessCase)).toEqual(resolve);
    expect((await platformView(`/customers/${kyb.customerId}`)).kybStatus).toBe('PENDING'); // nothing decided yet
    expect((await queue('')).data.map((r) => r.verificationId)).toEqual([personCase]);
    expectError(await op('POST', `/kyc-reviews/${businessCase}/approve`, bob), 409, 'KYC_REVIEW_ALREADY_DECIDED');

    // The platform fixes and submits again: back in the queue (at its end), with the new document and no approvals.
    const statement = await uploadDocument(t, kyb.customerId, { auth: tenant.production, fields: { documentType: 'BANK_STATEMENT', country: 'US' }, file: { name: 'statement.png', bytes: tinyPng() } });
    expect(statement.status).toBe(201);
    expect((await prod('PATCH', `/beneficial-owners/${kyb.owners[0]}`, { personalInfo: { address: { line1: '2 Elm St', city: 'Springfield', state: 'IL', postalCode: '62702', country: 'US' } } })).status).toBe(200);
    expect(await submit(kyb.customerId)).toBe(businessCase);
    const resubmitted = (await queue('')).data;
    expect(resubmitted.map((r) => r.verificationId)).toEqual([personCase, businessCase]);
    expect(resubmitted[1]).toMatchObject({ reviewStatus: 'AWAITING_REVIEW', attempt: 2, approvals: [] });
    expect(resubmitted[1].documents.map((d: { id: string }) => d.id)).toContain(statement.body.id);

    // Four-eyes: Alice's approval waits for another reviewer's; the same key again is one approval.
    const key = { 'Idempotency-Key': `approve-${businessCase}` };
    const first = await op('POST', `/kyc-reviews/${businessCase}/approve`, alice, { body: { reason: 'documents in order' }, headers: key });
    expect(first.body).toMatchObject({ reviewStatus: 'AWAITING_SECOND_APPROVAL', approvals: [{ operatorName: 'Alice', reason: 'documents in order' }] });
    const replay = await op('POST', `/kyc-reviews/${businessCase}/approve`, alice, { body: { reason: 'documents in order' }, headers: key });
    expect([replay.status, replay.headers.get('idempotent-replayed'), replay.body]).toEqual([200, 'true', first.body]);
    expect((await platformView(`/verifications/${businessCase}`)).verificationStatus).toBe('PENDING_MANUAL_REVIEW');
    const twice = await op('POST', `/kyc-reviews/${businessCase}/approve`, alice);
    expectError(twice, 409, 'KYC_REVIEW_SAME_APPROVER');
    expect(twice.body.message).toMatch(/another reviewer/);

    // Bob's approval (under the same key: an operator's keys are their own) decides.
    const second = await op('POST', `/kyc-reviews/${businessCase}/approve`, bob, { headers: key });
    expect(second.status).toBe(200);
    expect(second.body).toMatchObject({ reviewStatus: 'APPROVED', approvals: [{ operatorName: 'Alice' }, { operatorName: 'Bob' }], decision: { outcome: 'APPROVED', operatorName: 'Bob', errors: [] } });
    expect(await platformView(`/verifications/${businessCase}`)).toMatchObject({ verificationStatus: 'APPROVED', errors: [] });
    expect((await platformView(`/customers/${kyb.customerId}`)).kybStatus).toBe('APPROVED');
    const owners = (await platformView(`/beneficial-owners?customerId=${kyb.customerId}`)).data;
    expect(owners.map((o: { kycStatus: string }) => o.kycStatus)).toEqual(['APPROVED', 'APPROVED']);
    expect(await kycTransitions(t, kyb.customerId)).toEqual(['PENDING', 'APPROVED']);
    expect(await webhook('CUSTOMER.KYB_APPROVED', kyb.customerId)).toEqual(await platformView(`/customers/${kyb.customerId}`));
    expect(await hooks('CUSTOMER.KYB_PENDING', kyb.customerId)).toHaveLength(1); // the resubmission told nobody again
    await webhook('VERIFICATION.APPROVED', businessCase);
    expect((await queue('&reviewStatus=APPROVED')).data.map((r) => r.verificationId)).toEqual([businessCase]);
    expectError(await op('POST', `/kyc-reviews/${businessCase}/reject`, alice, { body: { reason: 'too late' } }), 409, 'KYC_REVIEW_ALREADY_DECIDED');

    // The individual, approved by the two of them: kycStatus APPROVED and CUSTOMER.KYC_APPROVED.
    expect((await op('POST', `/kyc-reviews/${personCase}/approve`, bob)).body.reviewStatus).toBe('AWAITING_SECOND_APPROVAL');
    expect((await op('POST', `/kyc-reviews/${personCase}/approve`, alice)).body.reviewStatus).toBe('APPROVED');
    const approvedPerson = await platformView(`/customers/${person}`);
    expect(approvedPerson.kycStatus).toBe('APPROVED');
    expect(await webhook('CUSTOMER.KYC_APPROVED', person)).toEqual(approvedPerson);
    expect((await queue('')).data).toEqual([]);

    // Every decision is on record, in the transaction of its effect.
    const recorded = await actions(businessCase);
    expect(recorded.map((a) => [a.data.action, a.data.operatorName, a.data.operatorRole, a.data.platformId])).toEqual([
      ['kyc.request-changes', 'Alice', 'REVIEWER', tenant.platformId],
      ['kyc.approve', 'Alice', 'REVIEWER', tenant.platformId],
      ['kyc.approve', 'Bob', 'REVIEWER', tenant.platformId],
    ]);
    expect(recorded[0].data).toMatchObject({ reason: 'stale bill, address mismatch', details: { customerType: 'BUSINESS', attempt: 1, errors } });
    const [approvedIn] = await t.platform.identity.host.dataSource.query(`SELECT transaction_id::text AS tx FROM identity.events WHERE stream_id = $1 AND type = 'VerificationApproved.v1'`, [businessCase]);
    expect(recorded[2].tx).toBe(approvedIn.tx);
    // … and in the operator API's audit log, newest first.
    const audit = await eventually(
      async () => {
        const res = await op('GET', `/audit-events?action=kyc.*&targetId=${businessCase}`, viewer);
        return res.body.data?.length === 3 ? res.body.data : undefined;
      },
      { what: 'the audit log of the decisions' },
    );
    expect(audit.map((e: { action: string; operator: { name: string }; target: unknown }) => [e.action, e.operator.name, e.target])).toEqual([
      ['kyc.approve', 'Bob', { type: 'Verification', id: businessCase }],
      ['kyc.approve', 'Alice', { type: 'Verification', id: businessCase }],
      ['kyc.request-changes', 'Alice', { type: 'Verification', id: businessCase }],
    ]);
  });

  it('a rejection decides at once: the customer REJECTED and told so, the reviewer’s reason kept for operators', async () => {
    const person = await createCustomer(t, individualBody('Rex Rejected'), tenant.production);
    const caseId = await submit(person);
    expect((await op('POST', `/kyc-reviews/${caseId}/approve`, bob)).body.reviewStatus).toBe('AWAITING_SECOND_APPROVAL');
    expectError(await op('POST', `/kyc-reviews/${caseId}/reject`, alice, { body: {} }), 400, 'INVALID_INPUT'); // a reason is required
    const rejected = await op('POST', `/kyc-reviews/${caseId}/reject`, alice, { body: { reason: 'sanctions list match' } });
    expect(rejected.body).toMatchObject({ reviewStatus: 'REJECTED', approvals: [], decision: { outcome: 'REJECTED', operatorName: 'Alice', reason: 'sanctions list match' } });
    const verification = (await prod('GET', `/verifications/${caseId}`)).body;
    expect(verification).toMatchObject({ verificationStatus: 'REJECTED', errors: [{ resourceId: person, type: 'APPLICANT_REJECTED', reason: 'rejected after manual review' }] });
    expect(JSON.stringify(verification)).not.toContain('sanctions');
    expect((await prod('GET', `/customers/${person}`)).body.kycStatus).toBe('REJECTED');
    expect((await webhook('CUSTOMER.KYC_REJECTED', person)).kycStatus).toBe('REJECTED');
    expect((await prod('POST', '/verifications', { customerId: person })).body).toMatchObject({ status: 400, code: 'VERIFICATION_ALREADY_DECIDED' });
    expectError(await op('POST', `/kyc-reviews/${caseId}/approve`, bob), 409, 'KYC_REVIEW_ALREADY_DECIDED');
    expect((await actions(caseId)).map((a) => [a.data.action, a.data.operatorName, a.data.reason ?? null])).toEqual([
      ['kyc.approve', 'Bob', null],
      ['kyc.reject', 'Alice', 'sanctions list match'],
    ]);
  });

  it('approvals at the same moment: two reviewers decide once; one reviewer twice is one approval and a 409', async () => {
    const both = await submit(await createCustomer(t, individualBody('Race Both'), tenant.production));
    const [a, b] = await Promise.all([op('POST', `/kyc-reviews/${both}/approve`, alice), op('POST', `/kyc-reviews/${both}/approve`, bob)]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect((await op('GET', `/kyc-reviews/${both}`, alice)).body).toMatchObject({ reviewStatus: 'APPROVED', approvals: [{}, {}] });
    const decisions = await t.platform.identity.host.dataSource.query(`SELECT count(*)::int AS n FROM identity.events WHERE stream_id = $1 AND type = 'VerificationApproved.v1'`, [both]);
    expect(decisions).toEqual([{ n: 1 }]);

    const twice = await submit(await createCustomer(t, individualBody('Race Twice'), tenant.production));
    const answers = await Promise.all([op('POST', `/kyc-reviews/${twice}/approve`, alice), op('POST', `/kyc-reviews/${twice}/approve`, alice)]);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 409]);
    expect((await op('GET', `/kyc-reviews/${twice}`, alice)).body).toMatchObject({ reviewStatus: 'AWAITING_SECOND_APPROVAL', approvals: [{ operatorName: 'Alice' }] });
    expect((await actions(twice)).map((x) => x.data.action)).toEqual(['kyc.approve']);
  });

  it('who may: a VIEWER reads but cannot decide (403), platform credentials are 401, sandbox and unknown cases 404', async () => {
    const person = await createCustomer(t, individualBody('Access Check'), tenant.production);
    const caseId = await submit(person);
    expect((await op('GET', `/kyc-reviews/${caseId}`, viewer)).status).toBe(200);
    expectError(await op('POST', `/kyc-reviews/${caseId}/approve`, viewer), 403, 'FORBIDDEN');
    expectError(await op('POST', `/kyc-reviews/${caseId}/reject`, viewer, { body: { reason: 'no' } }), 403, 'FORBIDDEN');
    const documentPath = `/kyc-reviews/${caseId}/documents/Document:00000000-0000-7000-8000-000000000000/file`;
    expectError(await op('GET', documentPath, viewer), 403, 'FORBIDDEN'); // identity documents: reviewers only
    expectError(await op('GET', documentPath, alice), 404, 'REFERENCE_NOT_FOUND'); // not a document of this review
    expectError(await op('GET', '/kyc-reviews', tenant.production), 401, 'UNAUTHORIZED');
    expectError(await op('POST', `/kyc-reviews/${caseId}/approve`, tenant.production), 401, 'UNAUTHORIZED');
    expectError(await op('GET', '/kyc-reviews', undefined), 401, 'UNAUTHORIZED');
    expect((await op('GET', `/kyc-reviews/${caseId}`, alice)).body.reviewStatus).toBe('AWAITING_REVIEW'); // nothing of it happened

    // A sandbox verification never enters the queue and cannot be decided here, even one waiting forever (001).
    const sandboxCase = (await t.call('POST', '/verifications', { auth: tenant.sandbox, body: { customerId: await createCustomer(t, individualBody('Sandbox Wait 001'), tenant.sandbox) } })).body.id;
    expectError(await op('GET', `/kyc-reviews/${sandboxCase}`, alice), 404, 'REFERENCE_NOT_FOUND');
    expectError(await op('POST', `/kyc-reviews/${sandboxCase}/approve`, alice), 404, 'REFERENCE_NOT_FOUND');
    expect((await queue('&reviewStatus=AWAITING_REVIEW')).data.map((r) => r.verificationId)).not.toContain(sandboxCase);
    expectError(await op('GET', '/kyc-reviews/Verification:00000000-0000-7000-8000-000000000000', alice), 404, 'REFERENCE_NOT_FOUND');
    expectError(await op('POST', '/kyc-reviews/nope/approve', alice), 404, 'REFERENCE_NOT_FOUND');
    expectError(await op('GET', '/kyc-reviews?reviewStatus=DONE', alice), 400, 'INVALID_INPUT');
  });

  it('requested changes are validated: entries as the verification errors have them, naming this case only', async () => {
    const person = await createCustomer(t, individualBody('Change Check'), tenant.production);
    const other = await createCustomer(t, individualBody('Someone Else'), tenant.production);
    const caseId = await submit(person);
    const change = { resourceId: person, type: 'MISSING_FIELD', field: 'address', reason: 'the address is a P.O. box' };
    const invalid: [unknown, string][] = [
      [{ reason: 'r', errors: [] }, 'errors'],
      [{ reason: 'r', errors: [{ ...change, type: 'NOT_A_TYPE' }] }, 'errors.0.type'],
      [{ reason: 'r', errors: [{ ...change, acceptedDocumentTypes: ['UTILITY_INVOICE'] }] }, 'errors.0.acceptedDocumentTypes'],
      [{ reason: 'r', errors: [{ ...change, field: 'a b' }] }, 'errors.0.field'],
      [{ reason: 'r', errors: [{ ...change, reason: '' }] }, 'errors.0.reason'],
      [{ errors: [change] }, 'reason'],
    ];
    for (const [body, field] of invalid) {
      const res = await op('POST', `/kyc-reviews/${caseId}/request-changes`, alice, { body });
      expect([res.status, field, res.body.details?.errors?.map((e: { field: string }) => e.field)]).toEqual([400, field, expect.arrayContaining([field])]);
    }
    const foreign = await op('POST', `/kyc-reviews/${caseId}/request-changes`, alice, { body: { reason: 'r', errors: [{ ...change, resourceId: other }] } });
    expect(foreign.body).toMatchObject({ status: 400, code: 'INVALID_INPUT', details: { errors: [{ field: 'errors[0].resourceId' }] } });
    expect((await op('GET', `/kyc-reviews/${caseId}`, alice)).body.reviewStatus).toBe('AWAITING_REVIEW');
    expect(await actions(caseId)).toEqual([]); // a refused action leaves no record
  });
});
