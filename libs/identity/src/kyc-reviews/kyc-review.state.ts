import type { KycReviewStatus } from '@payments/contracts';
import { assertNever } from '@payments/eventsourcing';
import type { IdentityDigest } from './material-identity';
import { KycReviewCase, KycReviewDecided, KycReviewEvent, KycReviewReset } from './kyc-review.events';

export interface KycReviewApprovalRecord {
  operatorId: string;
  operatorName: string;
  reason?: string;
  /** The identity digest approved. */
  digest?: string;
  at: string;
}

export type KycReviewResetRecord = Omit<KycReviewReset['data'], 'attempt'>;

export interface KycReviewRecord extends KycReviewCase {
  /** The submission under review (the case's attempt). */
  attempt: number;
  documentIds: string[];
  submittedAt: string;
  /** Approvals of this submission, all of `identity`; a rejection, a request for changes or a reset clears them. */
  approvals: KycReviewApprovalRecord[];
  /** The identity an approval must be about: the one submitted, or the one a reset found. */
  identity?: IdentityDigest;
  /** The resets of this submission, oldest first. */
  resets: KycReviewResetRecord[];
  updatedAt: string;
}

export type KycReviewDecision = Omit<KycReviewDecided['data'], 'attempt'>;

/** NONE: never submitted in production. OPEN: waits for a reviewer. DECIDED: until the platform submits again. */
export type KycReviewState = { status: 'NONE' } | ({ status: 'OPEN' } & KycReviewRecord) | ({ status: 'DECIDED'; decision: KycReviewDecision } & KycReviewRecord);

export type OpenKycReview = Exclude<KycReviewState, { status: 'NONE' }>;

export function evolveKycReview(state: KycReviewState, event: KycReviewEvent): KycReviewState {
  switch (event.type) {
    case 'KycReviewOpened.v1': {
      const { attempt, documentIds, submittedAt, identity, ...reviewCase } = event.data;
      return { status: 'OPEN', ...reviewCase, attempt, documentIds, submittedAt, approvals: [], ...(identity ? { identity } : {}), resets: [], updatedAt: submittedAt };
    }
    case 'KycReviewApprovalRecorded.v1': {
      if (state.status === 'NONE') return state;
      const { operatorId, operatorName, reason, digest, at } = event.data;
      return { ...state, approvals: [...state.approvals, { operatorId, operatorName, ...(reason ? { reason } : {}), ...(digest ? { digest } : {}), at }], updatedAt: at };
    }
    case 'KycReviewReset.v1': {
      if (state.status === 'NONE') return state;
      const { attempt: _attempt, ...reset } = event.data;
      return { ...state, approvals: [], identity: reset.identity, resets: [...state.resets, reset], updatedAt: reset.at };
    }
    case 'KycReviewDecided.v1': {
      if (state.status === 'NONE') return state;
      const { attempt: _attempt, ...decision } = event.data;
      // The approvals that made an approval stay on record; anything else decides without them.
      const approvals = decision.outcome === 'APPROVED' ? state.approvals : [];
      return { ...record(state), status: 'DECIDED', approvals, decision, updatedAt: decision.at };
    }
    default:
      return assertNever(event);
  }
}

/** Where the review stands, as the operator API shows it. */
export function reviewStatusOf(state: OpenKycReview): KycReviewStatus {
  if (state.status === 'OPEN') return state.approvals.length === 0 ? 'AWAITING_REVIEW' : 'AWAITING_SECOND_APPROVAL';
  return state.decision.outcome === 'RESOLVE_ERRORS' ? 'CHANGES_REQUESTED' : state.decision.outcome;
}

function record(state: OpenKycReview): KycReviewRecord {
  const { verificationId, customerId, platformId, customerType, attempt, documentIds, submittedAt, approvals, identity, resets, updatedAt } = state;
  return { verificationId, customerId, platformId, customerType, attempt, documentIds, submittedAt, approvals, ...(identity ? { identity } : {}), resets, updatedAt };
}
