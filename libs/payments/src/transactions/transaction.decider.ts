import { assertNever, Decider, DomainError } from '@payments/eventsourcing';
import type { TransactionFailureReason, TransactionRefund, TransactionStatus, UnresolvedFunds } from '@payments/contracts';
import { TransactionEvent, TransactionStatusChanged, TransactionTerms } from './transaction.events';
import { awaitsApproval, ExistingTransaction, TransactionState } from './transaction.state';
import { toTransaction } from './transaction.view';
import { mayBeReturned } from '../saga/rail-script';

/** Opens the transaction; creating an existing one changes nothing (quote execution and /sandbox/send both ensure it). */
export interface CreateTransaction {
  type: 'CreateTransaction';
  terms: TransactionTerms;
  status: 'PENDING' | 'PROCESSING' | 'FAILED';
  failureReason: TransactionFailureReason | null;
}

export interface RecordFundsHeld {
  type: 'RecordFundsHeld';
  now: string;
}

/** A production payment was handed to its connector (idempotent: a second submission records nothing). */
export interface RecordRailSubmission {
  type: 'RecordRailSubmission';
  now: string;
  connectorId: string;
  railReference: string;
}

export interface CompleteTransaction {
  type: 'CompleteTransaction';
  now: string;
}

export interface FailTransaction {
  type: 'FailTransaction';
  now: string;
  failureReason: TransactionFailureReason;
  refund: TransactionRefund | null;
  unresolvedFunds: UnresolvedFunds | null;
  /** The rail's code when a rail rejected or returned it. */
  railCode?: string;
}

/** The platform's answer to an incoming payment awaiting its approval (or the sandbox approval window's end). */
export interface ApproveTransaction {
  type: 'ApproveTransaction';
  now: string;
  by: 'PLATFORM' | 'APPROVAL_WINDOW';
}

export interface RejectTransaction {
  type: 'RejectTransaction';
  now: string;
  reason?: string;
}

export type TransactionCommand = CreateTransaction | RecordFundsHeld | RecordRailSubmission | ApproveTransaction | RejectTransaction | CompleteTransaction | FailTransaction;

export const NOT_PENDING_APPROVAL = 'TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL';
const notFound = () => new DomainError('TRANSACTION_NOT_FOUND', 'transaction not found');
const refused = (state: ExistingTransaction, to: TransactionStatus) =>
  new DomainError('INVALID_STATE_TRANSITION', `transaction ${state.transactionId} is ${state.status}: it cannot become ${to}`, { status: state.status });
const notAwaitingApproval = (state: ExistingTransaction) =>
  new DomainError(NOT_PENDING_APPROVAL, `transaction ${state.transactionId} is not an incoming payment awaiting the platform's approval (it is ${state.status})`, { status: state.status });

/** The public event of a change: the view after it, built by folding the change into the state. */
function withStatusChange(state: TransactionState, event: TransactionEvent): TransactionEvent[] {
  const after = evolve(state, event) as ExistingTransaction;
  const changed: TransactionStatusChanged = {
    type: 'TransactionStatusChanged.v1',
    data: { transaction: toTransaction(after), previousStatus: state.status === 'NONE' ? null : state.status, mode: after.mode },
  };
  return [event, changed];
}

function create(c: CreateTransaction, state: TransactionState): TransactionEvent[] {
  if (state.status !== 'NONE') return [];
  return withStatusChange(state, { type: 'TransactionCreated.v1', data: { ...c.terms, status: c.status, failureReason: c.status === 'FAILED' ? c.failureReason : null } });
}

function fundsHeld(c: RecordFundsHeld, state: TransactionState): TransactionEvent[] | DomainError {
  if (state.status === 'NONE') return notFound();
  if (state.status === 'PROCESSING' || state.status === 'COMPLETED') return [];
  if (state.status === 'FAILED' || !state.plan.hold) return refused(state, 'PROCESSING');
  return withStatusChange(state, { type: 'TransactionFundsHeld.v1', data: { transactionId: state.transactionId, at: c.now } });
}

function railSubmitted(c: RecordRailSubmission, state: TransactionState): TransactionEvent[] | DomainError {
  if (state.status === 'NONE') return notFound();
  if (state.railSubmission) return [];
  if (state.rail.outcome !== 'CONNECTOR') return new DomainError('INVALID_STATE_TRANSITION', `transaction ${state.transactionId} does not go through a rail connector`);
  const due = state.status === 'PROCESSING' || (state.status === 'PENDING' && !state.plan.hold && !awaitsApproval(state));
  if (!due) return refused(state, state.status);
  return [{ type: 'TransactionRailSubmitted.v1', data: { transactionId: state.transactionId, at: c.now, connectorId: c.connectorId, railReference: c.railReference } }];
}

/** Approval keeps the payment PENDING (no status change, no webhook): the rail then settles it. */
function approve(c: ApproveTransaction, state: TransactionState): TransactionEvent[] | DomainError {
  if (state.status === 'NONE') return notFound();
  if (!awaitsApproval(state)) return notAwaitingApproval(state);
  return [{ type: 'TransactionApproved.v1', data: { transactionId: state.transactionId, at: c.now, by: c.by } }];
}

/** Nothing moved yet (the credit waits for the approval): the payment just fails. */
function reject(c: RejectTransaction, state: TransactionState): TransactionEvent[] | DomainError {
  if (state.status === 'NONE') return notFound();
  if (!awaitsApproval(state)) return notAwaitingApproval(state);
  return withStatusChange(state, {
    type: 'TransactionFailed.v1',
    data: { transactionId: state.transactionId, at: c.now, failureReason: 'REJECTED_BY_PLATFORM', refund: null, unresolvedFunds: null, ...(c.reason !== undefined ? { rejectionReason: c.reason } : {}) },
  });
}

function complete(c: CompleteTransaction, state: TransactionState): TransactionEvent[] | DomainError {
  if (state.status === 'NONE') return notFound();
  if (state.status === 'COMPLETED') return [];
  // A held transaction must have its funds held first; a pull or a realtime-funded payout has nothing to hold.
  if (state.status === 'FAILED' || (state.status === 'PENDING' && state.plan.hold) || awaitsApproval(state)) return refused(state, 'COMPLETED');
  return withStatusChange(state, { type: 'TransactionCompleted.v1', data: { transactionId: state.transactionId, settledAt: c.now } });
}

function fail(c: FailTransaction, state: TransactionState): TransactionEvent[] | DomainError {
  if (state.status === 'NONE') return notFound();
  if (state.status === 'FAILED') return [];
  // Only a returned payment turns a COMPLETED transaction FAILED.
  if (state.status === 'COMPLETED' && !mayBeReturned(state.rail)) return refused(state, 'FAILED');
  return withStatusChange(state, {
    type: 'TransactionFailed.v1',
    data: { transactionId: state.transactionId, at: c.now, failureReason: c.failureReason, refund: c.refund, unresolvedFunds: c.unresolvedFunds, ...(c.railCode ? { railCode: c.railCode } : {}) },
  });
}

function evolve(state: TransactionState, event: TransactionEvent): TransactionState {
  switch (event.type) {
    case 'TransactionCreated.v1':
      return { ...event.data, refund: null, unresolvedFunds: null, settledAt: null, updatedAt: event.data.createdAt };
    case 'TransactionFundsHeld.v1':
      return state.status === 'NONE' ? state : { ...state, status: 'PROCESSING', updatedAt: event.data.at };
    case 'TransactionRailSubmitted.v1':
      return state.status === 'NONE' ? state : { ...state, railSubmission: { connectorId: event.data.connectorId, railReference: event.data.railReference, at: event.data.at }, updatedAt: event.data.at };
    case 'TransactionApproved.v1':
      return state.status === 'NONE' ? state : { ...state, approvedAt: event.data.at, updatedAt: event.data.at };
    case 'TransactionCompleted.v1':
      return state.status === 'NONE' ? state : { ...state, status: 'COMPLETED', settledAt: event.data.settledAt, updatedAt: event.data.settledAt };
    case 'TransactionFailed.v1':
      return state.status === 'NONE'
        ? state
        : {
            ...state,
            status: 'FAILED',
            failureReason: event.data.failureReason,
            refund: event.data.refund,
            unresolvedFunds: event.data.unresolvedFunds,
            ...(event.data.rejectionReason !== undefined ? { rejectionReason: event.data.rejectionReason } : {}),
            ...(event.data.railCode !== undefined ? { railCode: event.data.railCode } : {}),
            updatedAt: event.data.at,
          };
    case 'TransactionStatusChanged.v1':
      return state;
    default:
      return assertNever(event);
  }
}

export const transactionDecider: Decider<TransactionState, TransactionCommand, TransactionEvent> = {
  initialState: { status: 'NONE' },
  decide(command, state) {
    switch (command.type) {
      case 'CreateTransaction':
        return create(command, state);
      case 'RecordFundsHeld':
        return fundsHeld(command, state);
      case 'RecordRailSubmission':
        return railSubmitted(command, state);
      case 'ApproveTransaction':
        return approve(command, state);
      case 'RejectTransaction':
        return reject(command, state);
      case 'CompleteTransaction':
        return complete(command, state);
      case 'FailTransaction':
        return fail(command, state);
      default:
        return assertNever(command);
    }
  },
  evolve,
};
