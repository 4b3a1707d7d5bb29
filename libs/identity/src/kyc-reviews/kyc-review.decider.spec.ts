import type { VerificationError } from '@payments/contracts';
import { given } from '@payments/eventsourcing';
import { KycReviewCommand, kycReviewDecider as decider, REJECTED_AFTER_REVIEW } from './kyc-review.decider';
import { KycReviewEvent } from './kyc-review.events';
import { IdentityDigest } from './material-identity';
import { reviewStatusOf, OpenKycReview } from './kyc-review.state';

const t0 = '2026-03-01T10:00:00.000Z';
const t1 = '2026-03-01T10:05:00.000Z';
const t2 = '2026-03-01T10:09:00.000Z';
const alice = { operatorId: 'Operator:alice', name: 'Alice' };
const bob = { operatorId: 'Operator:bob', name: 'Bob' };
const reviewCase = { verificationId: 'Verification:v', customerId: 'Customer:c', platformId: 'Platform:p', customerType: 'BUSINESS' as const };

/** Two identities: D2 differs from D1 in its customer part only. */
const D1: IdentityDigest = { digest: 'd1', parts: { customer: 'c1', beneficialOwners: 'o1', documents: 'f1' } };
const D2: IdentityDigest = { digest: 'd2', parts: { customer: 'c2', beneficialOwners: 'o1', documents: 'f1' } };
const opened = (attempt = 1, submittedAt = t0, identity: IdentityDigest | null = D1): KycReviewEvent => ({
  type: 'KycReviewOpened.v1',
  data: { ...reviewCase, attempt, documentIds: ['Document:1'], submittedAt, ...(identity ? { identity } : {}) },
});
const open = (attempt = 1, submittedAt = t0): KycReviewCommand => ({ type: 'OpenReview', review: { ...reviewCase, attempt, documentIds: ['Document:1'], submittedAt, identity: D1 } });
const approve = (operator = alice, approvalsRequired = 2, now = t1, reason?: string, identity = D1, seen?: string): KycReviewCommand => ({
  type: 'Approve',
  operator,
  reason,
  approvalsRequired,
  identity,
  ...(seen ? { seen } : {}),
  now,
});
const approval = (operator = alice, at = t1, attempt = 1, reason?: string, digest = D1.digest): KycReviewEvent => ({
  type: 'KycReviewApprovalRecorded.v1',
  data: { attempt, operatorId: operator.operatorId, operatorName: operator.name, ...(reason ? { reason } : {}), ...(digest ? { digest } : {}), at },
});
const reset = (dropped: KycReviewEvent[], at: string, from: IdentityDigest | null = D1, to = D2, changed = ['customer']): KycReviewEvent => ({
  type: 'KycReviewReset.v1',
  data: {
    attempt: 1,
    ...(from ? { previousDigest: from.digest } : {}),
    identity: to,
    changed: changed as ('customer' | 'beneficialOwners' | 'documents')[],
    approvalsDropped: dropped.map((e) => {
      const { attempt: _attempt, ...recorded } = e.data as { attempt: number; operatorId: string; operatorName: string; at: string };
      return recorded;
    }),
    at,
  },
});
const decidedBy = (operator: typeof alice, outcome: 'APPROVED' | 'REJECTED' | 'RESOLVE_ERRORS', errors: VerificationError[], at: string, reason?: string, attempt = 1): KycReviewEvent => ({
  type: 'KycReviewDecided.v1',
  data: { attempt, outcome, operatorId: operator.operatorId, operatorName: operator.name, ...(reason ? { reason } : {}), errors, at },
});
const changes: VerificationError[] = [
  { resourceId: 'Customer:c', type: 'MISSING_PROOF_OF_ADDRESS_DOCUMENT', acceptedDocumentTypes: ['UTILITY_BILL'], reason: 'the bill is older than 3 months' },
  { resourceId: 'BeneficialOwner:o', type: 'INVALID_FIELD', field: 'personalInfo.idType', reason: 'a U.S. person is identified by SSN' },
];
const requestChanges = (errors = changes, operator = bob): KycReviewCommand => ({ type: 'RequestChanges', operator, reason: 'stale bill; wrong id type', errors, resourceIds: ['Customer:c', 'BeneficialOwner:o'], now: t2 });
const statusAfter = (history: KycReviewEvent[]) => reviewStatusOf(given(decider, history).state as OpenKycReview);

describe('kycReviewDecider: four-eyes approval of production KYC/KYB', () => {
  it('a complete submission opens the review, once per attempt', () => {
    given(decider).when(open()).then([opened()]);
    given(decider, [opened()]).when(open()).then([]); // the same submission again
    expect(statusAfter([opened()])).toBe('AWAITING_REVIEW');
  });

  it('two required: the first approval is recorded and the submission waits for a second one', () => {
    given(decider, [opened()]).when(approve(alice, 2, t1, 'documents match')).then([approval(alice, t1, 1, 'documents match')]);
    expect(statusAfter([opened(), approval(alice)])).toBe('AWAITING_SECOND_APPROVAL');
    expect(given(decider, [opened(), approval(alice)]).state).toMatchObject({ status: 'OPEN', approvals: [{ operatorId: 'Operator:alice', operatorName: 'Alice', at: t1 }] });
  });

  it('a second approval by another reviewer decides APPROVED, keeping both approvals on record', () => {
    given(decider, [opened(), approval(alice)]).when(approve(bob, 2, t2)).then([approval(bob, t2), decidedBy(bob, 'APPROVED', [], t2)]);
    const after = [opened(), approval(alice), approval(bob, t2), decidedBy(bob, 'APPROVED', [], t2)];
    expect(statusAfter(after)).toBe('APPROVED');
    expect((given(decider, after).state as OpenKycReview).approvals.map((a) => a.operatorId)).toEqual(['Operator:alice', 'Operator:bob']);
  });

  it('the same reviewer approving twice is refused: another reviewer must approve', () => {
    const refused = given(decider, [opened(), approval(alice)]).when(approve(alice)).thenFails('KYC_REVIEW_SAME_APPROVER');
    expect(refused.message).toMatch(/Alice approved this submission already/);
  });

  it('one required: the first approval decides', () => {
    given(decider, [opened()]).when(approve(alice, 1)).then([approval(alice), decidedBy(alice, 'APPROVED', [], t1)]);
  });

  it('a rejection by any reviewer decides at once, drops the approvals, and shows the platform a generic reason', () => {
    given(decider, [opened(), approval(alice)])
      .when({ type: 'Reject', operator: alice, reason: 'sanctions list match', now: t2 })
      .then([decidedBy(alice, 'REJECTED', [{ resourceId: 'Customer:c', type: 'APPLICANT_REJECTED', reason: REJECTED_AFTER_REVIEW }], t2, 'sanctions list match')]);
    const rejected = [opened(), approval(alice), decidedBy(alice, 'REJECTED', [], t2, 'sanctions list match')];
    expect(statusAfter(rejected)).toBe('REJECTED');
    expect(given(decider, rejected).state).toMatchObject({ status: 'DECIDED', approvals: [], decision: { outcome: 'REJECTED', reason: 'sanctions list match' } });
  });

  it('a request for changes decides at once with the errors for the platform, and drops the approvals', () => {
    given(decider, [opened(), approval(alice)]).when(requestChanges()).then([decidedBy(bob, 'RESOLVE_ERRORS', changes, t2, 'stale bill; wrong id type')]);
    const after = [opened(), approval(alice), decidedBy(bob, 'RESOLVE_ERRORS', changes, t2)];
    expect(statusAfter(after)).toBe('CHANGES_REQUESTED');
    expect(given(decider, after).state).toMatchObject({ approvals: [] });
  });

  it('a requested change may name only the customer under review or its owners', () => {
    const foreign = given(decider, [opened()]).when(requestChanges([{ ...changes[0], resourceId: 'Customer:other' }])).thenFails('INVALID_INPUT');
    expect(foreign.details).toEqual({ errors: [{ field: 'errors[0].resourceId', message: expect.stringContaining('Customer:other') }] });
  });

  it('nothing more is decided about a decided submission: 409, whatever the action', () => {
    const approved = [opened(), approval(alice), approval(bob, t2), decidedBy(bob, 'APPROVED', [], t2)];
    given(decider, approved).when(approve({ operatorId: 'Operator:carol', name: 'Carol' })).thenFails('KYC_REVIEW_ALREADY_DECIDED');
    given(decider, approved).when({ type: 'Reject', operator: alice, reason: 'late', now: t2 }).thenFails('KYC_REVIEW_ALREADY_DECIDED');
    const changed = [opened(), decidedBy(bob, 'RESOLVE_ERRORS', changes, t2)];
    const waiting = given(decider, changed).when(approve()).thenFails('KYC_REVIEW_ALREADY_DECIDED');
    expect(waiting.message).toMatch(/changes were requested/);
  });

  it('no review (a sandbox verification, an unknown one): 404', () => {
    given(decider).when(approve()).thenFails('REFERENCE_NOT_FOUND');
    given(decider).when(requestChanges()).thenFails('REFERENCE_NOT_FOUND');
  });

  it('resubmitted after changes: the next attempt is open again, with no approvals, and decided afresh', () => {
    const changed = [opened(), approval(alice), decidedBy(bob, 'RESOLVE_ERRORS', changes, t2)];
    const resubmittedAt = '2026-03-02T08:00:00.000Z';
    given(decider, changed).when(open(2, resubmittedAt)).then([opened(2, resubmittedAt)]);
    const reopened = [...changed, opened(2, resubmittedAt)];
    expect(given(decider, reopened).state).toMatchObject({ status: 'OPEN', attempt: 2, approvals: [], submittedAt: resubmittedAt });
    // Alice approved the first submission; the second one is hers to approve again.
    given(decider, reopened).when(approve(alice, 2, t2)).then([approval(alice, t2, 2)]);
    given(decider, [...reopened, approval(alice, t2, 2)])
      .when(approve(bob, 2, t2))
      .then([approval(bob, t2, 2), decidedBy(bob, 'APPROVED', [], t2, undefined, 2)]);
  });

  describe('bound to the identity reviewed', () => {
    it('a material change while waiting drops the approvals and says what changed; the same identity changes nothing', () => {
      given(decider, [opened(), approval()]).when({ type: 'RecheckIdentity', identity: D2, now: t2 }).then([reset([approval()], t2)]);
      given(decider, [opened(), approval()]).when({ type: 'RecheckIdentity', identity: D1, now: t2 }).then([]);
      expect(statusAfter([opened(), approval(), reset([approval()], t2)])).toBe('AWAITING_REVIEW');
      const state = given(decider, [opened(), approval(), reset([approval()], t2)]).state as OpenKycReview;
      expect([state.identity, state.approvals, state.resets.length]).toEqual([D2, [], 1]);
    });

    it('a decided review is not rechecked (after approval the change is refused elsewhere)', () => {
      given(decider, [opened(), approval(), approval(bob, t2), decidedBy(bob, 'APPROVED', [], t2)]).when({ type: 'RecheckIdentity', identity: D2, now: t2 }).then([]);
      given(decider).when({ type: 'RecheckIdentity', identity: D2, now: t2 }).then([]);
    });

    it('a second approval of another identity than the first one approved does not decide: the first is dropped', () => {
      given(decider, [opened(), approval()])
        .when(approve(bob, 2, t2, undefined, D2))
        .then([reset([approval()], t2), approval(bob, t2, 1, undefined, D2.digest)]);
    });

    it('after a reset the one who approved before may approve the new identity, and two approvals of it decide', () => {
      const history = [opened(), approval(), reset([approval()], t1), approval(bob, t1, 1, undefined, D2.digest)];
      given(decider, history)
        .when(approve(alice, 2, t2, undefined, D2, D2.digest))
        .then([approval(alice, t2, 1, undefined, D2.digest), decidedBy(alice, 'APPROVED', [], t2)]);
    });

    it('an approval of a digest that is no longer the current one is 409 KYC_REVIEW_STALE', () => {
      given(decider, [opened(), approval()]).when(approve(bob, 2, t2, undefined, D2, D1.digest)).thenFails('KYC_REVIEW_STALE');
    });

    it('a review opened before digests were recorded takes the first digest as a change of every part', () => {
      given(decider, [opened(1, t0, null), approval(alice, t1, 1, undefined, '')])
        .when({ type: 'RecheckIdentity', identity: D1, now: t2 })
        .then([reset([approval(alice, t1, 1, undefined, '')], t2, null, D1, ['customer', 'beneficialOwners', 'documents'])]);
    });
  });
});
