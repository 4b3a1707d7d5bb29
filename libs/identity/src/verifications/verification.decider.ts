import type { KycStatus, Mode } from '@payments/contracts';
import { assertNever, Decider, DomainError } from '@payments/eventsourcing';
import { kybErrors } from './kyb.rules';
import { kycErrors } from './kyc.rules';
import { sandboxOutcome } from './sandbox-outcomes';
import { VerificationEvent, VerificationScope } from './verification.events';
import { VerificationInputs } from './verification-inputs';
import { evolveVerification, VerificationState } from './verification.state';

export type VerificationCommand =
  | { type: 'SubmitVerification'; verificationId: string; platformId: string; mode: Mode; inputs: VerificationInputs; now: string }
  /** Fired by the durable timer scheduled with the submission `attempt`; a repeat or stale firing decides nothing. */
  | { type: 'DecideVerification'; attempt: number; now: string };

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

function decideOutcome(command: Extract<VerificationCommand, { type: 'DecideVerification' }>, state: VerificationState): VerificationEvent[] {
  if (state.status !== 'IN_PROGRESS' || state.attempt !== command.attempt || !state.sandboxDecision) return [];
  const { verificationId, customerId, customerType, attempt } = state;
  if (state.sandboxDecision === 'APPROVED') return [{ type: 'VerificationApproved.v1', data: { verificationId, customerId, customerType, attempt, at: command.now } }];
  const field = customerType === 'BUSINESS' ? 'businessInfo.registrationNumber' : 'fullName';
  const errors = [{ resourceId: customerId, type: 'APPLICANT_REJECTED' as const, reason: `rejected by the sandbox provider (${field} ends in 002)` }];
  return [{ type: 'VerificationRejected.v1', data: { verificationId, customerId, customerType, attempt, errors, at: command.now } }];
}

function alreadyDecided(status: string, verificationId?: string): DomainError {
  return new DomainError('VERIFICATION_ALREADY_DECIDED', `the customer's verification is ${status} already; it cannot be submitted again`, verificationId ? { verificationId } : undefined);
}
