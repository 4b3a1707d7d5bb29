import type { KycStatus, Mode } from '@payments/contracts';
import { assertNever, Decider, DomainError } from '@payments/eventsourcing';
import { kybErrors } from './kyb.rules';
import { kycErrors } from './kyc.rules';
import { sandboxOutcome } from './sandbox-outcomes';
import { VerificationEvent, VerificationScope } from './verification.events';
import { VerificationInputs } from './verification-inputs';
import { KycDecision } from './kyc-provider';
import { evolveVerification, OpenVerification, VerificationState } from './verification.state';

export type VerificationCommand =
  | { type: 'SubmitVerification'; verificationId: string; platformId: string; mode: Mode; inputs: VerificationInputs; now: string }
  /** Sandbox: fired by the durable timer scheduled with the submission `attempt`; a repeat or stale firing decides nothing. */
  | { type: 'DecideVerification'; attempt: number; now: string }
  /** Production: a KYC provider's decision about submission `attempt` (kyc-provider.ts); a repeat of it decides nothing. */
  | { type: 'RecordDecision'; attempt: number; decision: KycDecision; now: string };

const DECIDED: readonly KycStatus[] = ['APPROVED', 'REJECTED'];

export const verificationDecider: Decider<VerificationState, VerificationCommand, VerificationEvent> = {
  initialState: { status: 'NONE' },
  evolve: evolveVerification,
  decide(command, state) {
    switch (command.type) {
      case 'SubmitVerification':
        return decideSubmit(command, state);
      case 'DecideVerification':
        return decideOutcome(command, state);
      case 'RecordDecision':
        return recordDecision(command, state);
      default:
        return assertNever(command);
    }
  },
};

function decideSubmit(command: Extract<VerificationCommand, { type: 'SubmitVerification' }>, state: VerificationState): VerificationEvent[] | DomainError {
  if (state.status === 'IN_PROGRESS' || state.status === 'PENDING_MANUAL_REVIEW') {
    return new DomainError('VERIFICATION_IN_PROGRESS', `the verification ${state.verificationId} is ${state.status}; wait for its decision`, { verificationId: state.verificationId });
  }
  if (state.status === 'APPROVED' || state.status === 'REJECTED') return alreadyDecided(state.status, state.verificationId);
  const { inputs, mode, now } = command;
  const { customer } = inputs;
  // Decided by another path (e.g. a hosted KYC flow): nothing left to submit.
  if (DECIDED.includes(customer.kycStatus)) return alreadyDecided(customer.kycStatus);
  const scope: VerificationScope = { verificationId: command.verificationId, customerId: customer.customerId, platformId: command.platformId, mode, customerType: customer.customerType };
  const attempt = (state.status === 'NONE' ? 0 : state.attempt) + 1;
  const errors = customer.customerType === 'BUSINESS' ? kybErrors(inputs) : kycErrors(customer, mode);
  if (errors.length > 0) return [{ type: 'VerificationErrorsFound.v1', data: { ...scope, attempt, errors, at: now } }];
  const outcome = sandboxOutcome(customer.customerType === 'BUSINESS' ? customer.businessInfo?.registrationNumber : customer.fullName);
  const sandbox = mode === 'SANDBOX';
  const documentIds = Object.values(inputs.documents).flatMap((docs) => docs.map((d) => d.documentId)).sort();
  return [
    {
      type: 'VerificationSubmitted.v1',
      data: {
        ...scope,
        attempt,
        verificationStatus: sandbox ? 'IN_PROGRESS' : 'PENDING_MANUAL_REVIEW',
        sandboxDecision: sandbox && outcome !== 'PENDING' ? outcome : null,
        documentIds,
        submittedAt: now,
      },
    },
  ];
}

/** The sandbox's simulated provider: the decision its suffix called for at submission, now due. */
function decideOutcome(command: Extract<VerificationCommand, { type: 'DecideVerification' }>, state: VerificationState): VerificationEvent[] {
  if (state.status !== 'IN_PROGRESS' || state.attempt !== command.attempt || !state.sandboxDecision) return [];
  if (state.sandboxDecision === 'APPROVED') return decisionEvents(state, { outcome: 'APPROVED' }, command.now);
  const field = state.customerType === 'BUSINESS' ? 'businessInfo.registrationNumber' : 'fullName';
  const errors = [{ resourceId: state.customerId, type: 'APPLICANT_REJECTED' as const, reason: `rejected by the sandbox provider (${field} ends in 002)` }];
  return decisionEvents(state, { outcome: 'REJECTED', errors }, command.now);
}

/**
 * A production provider's decision: only a production submission waiting for one, of the same attempt, is decided
 * (the sandbox decides its own cases). The same decision again decides nothing; any other answer about a submission
 * that is not waiting is a conflict.
 */
function recordDecision(command: Extract<VerificationCommand, { type: 'RecordDecision' }>, state: VerificationState): VerificationEvent[] | DomainError {
  if (state.status === 'NONE' || state.mode !== 'PRODUCTION') return new DomainError('REFERENCE_NOT_FOUND', 'verification not found');
  const { attempt, decision } = command;
  const waiting = (state.status === 'PENDING_MANUAL_REVIEW' || state.status === 'IN_PROGRESS') && state.attempt === attempt;
  if (waiting) return decisionEvents(state, decision, command.now);
  if (state.attempt === attempt && state.status === DECIDED_STATUS[decision.outcome]) return [];
  return new DomainError('CONFLICT', `the verification ${state.verificationId} is ${state.status} (submission ${state.attempt}); submission ${attempt} is not waiting for a decision`, {
    verificationId: state.verificationId,
  });
}

const DECIDED_STATUS = { APPROVED: 'APPROVED', REJECTED: 'REJECTED', RESOLVE_ERRORS: 'RESOLVE_ERRORS' } as const;

/** The events of a decision, whoever made it: the same facts, so the projections and webhooks cannot tell them apart. */
function decisionEvents(state: OpenVerification, decision: KycDecision, at: string): VerificationEvent[] {
  const { verificationId, customerId, platformId, mode, customerType, attempt } = state;
  switch (decision.outcome) {
    case 'APPROVED':
      return [{ type: 'VerificationApproved.v1', data: { verificationId, customerId, customerType, attempt, at } }];
    case 'REJECTED':
      return [{ type: 'VerificationRejected.v1', data: { verificationId, customerId, customerType, attempt, errors: decision.errors, at } }];
    case 'RESOLVE_ERRORS':
      return [{ type: 'VerificationErrorsFound.v1', data: { verificationId, customerId, platformId, mode, customerType, attempt, errors: decision.errors, at } }];
    default:
      return assertNever(decision);
  }
}

function alreadyDecided(status: string, verificationId?: string): DomainError {
  return new DomainError('VERIFICATION_ALREADY_DECIDED', `the customer's verification is ${status} already; it cannot be submitted again`, verificationId ? { verificationId } : undefined);
}
