import { assertNever, Decider, DomainError } from '@payments/eventsourcing';
import type { Quote, Transaction } from '@payments/contracts';
import { ActionTerms, AgentActionEvent } from './action.events';
import { ActionState, evolveAction } from './action.state';
import { toAgentAction } from './action.view';

export type ActionCommand =
  | { type: 'Submit'; terms: ActionTerms }
  | { type: 'Approve'; by: string; now: string }
  | { type: 'Reject'; by: string; reason?: string; now: string }
  | { type: 'RecordExecution'; transaction: Transaction; quote?: Quote; now: string }
  /** `transaction`: the operation ran and its transaction failed (kept on the action). */
  | { type: 'Fail'; failureReason: string; message: string; transaction?: Transaction; quote?: Quote; now: string };

const notFound = () => new DomainError('AGENT_ACTION_NOT_FOUND', 'agent action not found');
const notPending = (status: string) => new DomainError('INVALID_STATE_TRANSITION', `the action is ${status}, not PENDING_APPROVAL`);

/**
 * One agent action (stream `AgentAction:<uuid>`): submitted (APPROVED at once, or PENDING_APPROVAL), approved or
 * rejected by the platform (only while PENDING_APPROVAL), then executed (its transaction) or FAILED.
 */
export const actionDecider: Decider<ActionState, ActionCommand, AgentActionEvent> = {
  initialState: { status: 'NONE' },
  evolve: evolveAction,
  decide(command, s) {
    if (command.type === 'Submit') {
      if (s.status !== 'NONE') return [];
      const submitted: AgentActionEvent = { type: 'AgentActionSubmitted.v1', data: command.terms };
      if (!command.terms.needsApproval) return [submitted];
      const after = evolveAction(s, submitted);
      if (after.status === 'NONE') return [submitted];
      return [submitted, { type: 'AgentActionPendingApproval.v1', data: { platformId: after.platformId, mode: after.mode, action: toAgentAction(after) } }];
    }
    if (s.status === 'NONE') return notFound();
    switch (command.type) {
      case 'Approve':
        return s.status === 'PENDING_APPROVAL' ? [{ type: 'AgentActionApproved.v1', data: { by: command.by, at: command.now } }] : notPending(s.status);
      case 'Reject':
        return s.status === 'PENDING_APPROVAL' ? [{ type: 'AgentActionRejected.v1', data: { by: command.by, reason: command.reason, at: command.now } }] : notPending(s.status);
      case 'RecordExecution':
        return s.executing ? [{ type: 'AgentActionExecuted.v1', data: { transaction: command.transaction, quote: command.quote, at: command.now } }] : [];
      case 'Fail':
        return s.executing
          ? [{ type: 'AgentActionFailed.v1', data: { failureReason: command.failureReason, message: command.message, ...(command.transaction ? { transaction: command.transaction } : {}), ...(command.quote ? { quote: command.quote } : {}), at: command.now } }]
          : [];
      default:
        return assertNever(command);
    }
  },
};
