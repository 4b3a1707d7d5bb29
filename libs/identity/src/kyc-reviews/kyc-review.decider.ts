import type { FieldError, OperatorPrincipal, VerificationError } from '@payments/contracts';
import { assertNever, Decider, DomainError } from '@payments/eventsourcing';
import { changedParts, IDENTITY_PARTS, IdentityDigest } from './material-identity';
import { KycReviewEvent, KycReviewOpened } from './kyc-review.events';
import { evolveKycReview, KycReviewState, OpenKycReview } from './kyc-review.state';

type Reviewer = Pick<OperatorPrincipal, 'operatorId' | 'name'>;

export type KycReviewCommand =
  /** A complete production submission (the KYC provider port's `submitted`); a repeat of the same attempt opens nothing. */
  | { type: 'OpenReview'; review: KycReviewOpened['data'] }
  /**
   * `approvalsRequired` (KYC_APPROVALS_REQUIRED): the approval that reaches it decides. `identity`: the identity under
   * review as it is now (read in the approving transaction); `seen`: the digest the reviewer looked at, if sent.
   */
  | { type: 'Approve'; operator: Reviewer; reason?: string; approvalsRequired: number; identity: IdentityDigest; seen?: string; now: string }
  /** The customer, its owners or their documents changed: a material change resets the approvals. */
  | { type: 'RecheckIdentity'; identity: IdentityDigest; now: string }
  | { type: 'Reject'; operator: Reviewer; reason: string; now: string }
  /** `resourceIds`: the customer under review and its beneficial owners, the resources a change may name. */
  | { type: 'RequestChanges'; operator: Reviewer; reason: string; errors: VerificationError[]; resourceIds: readonly string[]; now: string };

/** What a rejection shows the platform: the reviewer's reason stays with operators (it may say what must not be told). */
export const REJECTED_AFTER_REVIEW = 'rejected after manual review';

/**
 * The manual review queue's decisions about one production verification: four-eyes approval (two different reviewers
 * when two are required), or a rejection or a request for changes by any reviewer, which decides at once. Once
 * decided, nothing more is decided about that submission; the platform's next submission opens the review again.
 */
export const kycReviewDecider: Decider<KycReviewState, KycReviewCommand, KycReviewEvent> = {
  initialState: { status: 'NONE' },
  evolve: evolveKycReview,
  decide(command, state) {
    if (command.type === 'OpenReview') return decideOpen(command, state);
    if (command.type === 'RecheckIdentity') return state.status === 'OPEN' ? resetIfChanged(state, command.identity, command.now) : [];
    if (state.status === 'NONE') return new DomainError('REFERENCE_NOT_FOUND', 'no KYC review for this verification');
    if (state.status === 'DECIDED') return alreadyDecided(state);
    switch (command.type) {
      case 'Approve':
        return decideApprove(command, state);
      case 'Reject': {
        const errors: VerificationError[] = [{ resourceId: state.customerId, type: 'APPLICANT_REJECTED', reason: REJECTED_AFTER_REVIEW }];
        return [decided(state, 'REJECTED', command.operator, command.reason, errors, command.now)];
      }
      case 'RequestChanges':
        return decideRequestChanges(command, state);
      default:
        return assertNever(command);
    }
  },
};

function decideOpen(command: Extract<KycReviewCommand, { type: 'OpenReview' }>, state: KycReviewState): KycReviewEvent[] {
  if (state.status !== 'NONE' && state.attempt >= command.review.attempt) return [];
  return [{ type: 'KycReviewOpened.v1', data: { ...command.review, documentIds: [...command.review.documentIds] } }];
}

/**
 * An approval is about one identity digest. One that looked at another digest than the current one is refused
 * (409 KYC_REVIEW_STALE); approvals recorded for an older digest (a change no recheck has seen yet) are dropped
 * first, so approvals that decide together are always of the same digest.
 */
function decideApprove(command: Extract<KycReviewCommand, { type: 'Approve' }>, state: OpenKycReview): KycReviewEvent[] | DomainError {
  const { operator, reason, identity, now } = command;
  if (command.seen !== undefined && command.seen !== identity.digest) {
    return new DomainError('KYC_REVIEW_STALE', 'the identity under review changed since you looked at it: look at the review again and approve its current digest', {
      verificationId: state.verificationId,
      digest: identity.digest,
    });
  }
  const reset = resetIfChanged(state, identity, now);
  const approvals = reset.length > 0 ? [] : state.approvals;
  if (approvals.some((a) => a.operatorId === operator.operatorId)) {
    return new DomainError('KYC_REVIEW_SAME_APPROVER', `${operator.name} approved this submission already; another reviewer must approve it (four-eyes)`, {
      verificationId: state.verificationId,
    });
  }
  const approval: KycReviewEvent = {
    type: 'KycReviewApprovalRecorded.v1',
    data: { attempt: state.attempt, operatorId: operator.operatorId, operatorName: operator.name, ...(reason ? { reason } : {}), digest: identity.digest, at: now },
  };
  if (approvals.length + 1 < command.approvalsRequired) return [...reset, approval];
  return [...reset, approval, decided(state, 'APPROVED', operator, reason, [], now)];
}

/** A reset when the identity differs from the one the review is about (a review without a digest: every part). */
function resetIfChanged(state: OpenKycReview, identity: IdentityDigest, at: string): KycReviewEvent[] {
  const before = state.identity;
  if (before?.digest === identity.digest) return [];
  const changed = before ? changedParts(before, identity) : [...IDENTITY_PARTS];
  return [
    {
      type: 'KycReviewReset.v1',
      data: { attempt: state.attempt, ...(before ? { previousDigest: before.digest } : {}), identity, changed, approvalsDropped: state.approvals.map((a) => ({ ...a })), at },
    },
  ];
}

function decideRequestChanges(command: Extract<KycReviewCommand, { type: 'RequestChanges' }>, state: OpenKycReview): KycReviewEvent[] | DomainError {
  const invalid: FieldError[] = command.errors.flatMap((e, i) =>
    command.resourceIds.includes(e.resourceId) ? [] : [{ field: `errors[${i}].resourceId`, message: `${e.resourceId} is neither the customer under review nor one of its beneficial owners` }],
  );
  if (invalid.length > 0) return new DomainError('INVALID_INPUT', 'a requested change names a resource outside this verification', { errors: invalid });
  return [decided(state, 'RESOLVE_ERRORS', command.operator, command.reason, command.errors.map(plainError), command.now)];
}

function decided(state: OpenKycReview, outcome: 'APPROVED' | 'REJECTED' | 'RESOLVE_ERRORS', operator: Reviewer, reason: string | undefined, errors: VerificationError[], at: string): KycReviewEvent {
  return { type: 'KycReviewDecided.v1', data: { attempt: state.attempt, outcome, operatorId: operator.operatorId, operatorName: operator.name, ...(reason ? { reason } : {}), errors, at } };
}

/** An entry of the verification's `errors` as the sandbox writes them: only the fields that are set, in their order. */
function plainError(e: VerificationError): VerificationError {
  return {
    resourceId: e.resourceId,
    type: e.type,
    ...(e.field !== undefined ? { field: e.field } : {}),
    ...(e.acceptedDocumentTypes !== undefined ? { acceptedDocumentTypes: [...e.acceptedDocumentTypes] } : {}),
    reason: e.reason,
  };
}

function alreadyDecided(state: Extract<KycReviewState, { status: 'DECIDED' }>): DomainError {
  const what =
    state.decision.outcome === 'RESOLVE_ERRORS'
      ? 'changes were requested from the platform; it waits for the platform to submit again'
      : `submission ${state.attempt} was ${state.decision.outcome} already`;
  return new DomainError('KYC_REVIEW_ALREADY_DECIDED', `the verification ${state.verificationId} is not waiting for a review: ${what}`, { verificationId: state.verificationId });
}
