import type { VerificationError } from '@payments/contracts';
import { assertNever } from '@payments/eventsourcing';
import { VerificationEvent, VerificationScope } from './verification.events';

export interface VerificationRecord extends VerificationScope {
  /** Submissions so far; the decision timer carries the attempt it was scheduled for. */
  attempt: number;
  errors: VerificationError[];
  createdAt: string;
  updatedAt: string;
}

/**
 * One verification case per customer. RESOLVE_ERRORS accepts another submission; IN_PROGRESS and
 * PENDING_MANUAL_REVIEW wait for a decision; APPROVED and REJECTED are terminal.
 */
export type VerificationState =
  | { status: 'NONE' }
  | ({ status: 'RESOLVE_ERRORS' } & VerificationRecord)
  | ({ status: 'IN_PROGRESS' | 'PENDING_MANUAL_REVIEW'; sandboxDecision: 'APPROVED' | 'REJECTED' | null } & VerificationRecord)
  | ({ status: 'APPROVED' | 'REJECTED' } & VerificationRecord);

export type OpenVerification = Exclude<VerificationState, { status: 'NONE' }>;

export function evolveVerification(state: VerificationState, event: VerificationEvent): VerificationState {
  switch (event.type) {
    case 'VerificationErrorsFound.v1': {
      const { attempt, errors, at, ...scope } = event.data;
      return { status: 'RESOLVE_ERRORS', ...scope, attempt, errors, createdAt: createdAt(state, at), updatedAt: at };
    }
    case 'VerificationSubmitted.v1': {
      const { attempt, verificationStatus, sandboxDecision, documentIds: _d, submittedAt, ...scope } = event.data;
      return { status: verificationStatus, sandboxDecision, ...scope, attempt, errors: [], createdAt: createdAt(state, submittedAt), updatedAt: submittedAt };
    }
    case 'VerificationApproved.v1':
      return state.status === 'NONE' ? state : { ...record(state), status: 'APPROVED', errors: [], updatedAt: event.data.at };
    case 'VerificationRejected.v1':
      return state.status === 'NONE' ? state : { ...record(state), status: 'REJECTED', errors: event.data.errors, updatedAt: event.data.at };
    default:
      return assertNever(event);
  }
}

const createdAt = (state: VerificationState, at: string) => (state.status === 'NONE' ? at : state.createdAt);

/** The fields every non-NONE state shares (drops state-specific ones such as sandboxDecision). */
export function record(state: OpenVerification): VerificationRecord {
  const { verificationId, customerId, platformId, mode, customerType, attempt, errors, createdAt, updatedAt } = state;
  return { verificationId, customerId, platformId, mode, customerType, attempt, errors, createdAt, updatedAt };
}
