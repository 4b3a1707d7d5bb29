import type { AgentActionStatus, Quote, Transaction } from '@payments/contracts';
import { ActionTerms, AgentActionEvent } from './action.events';

export interface ExistingAction extends ActionTerms {
  status: AgentActionStatus;
  /** APPROVED and not yet run (or its run not yet recorded). */
  executing: boolean;
  transaction?: Transaction;
  quoteAfter?: Quote;
  rejectionReason?: string;
  failureReason?: string;
  updatedAt: string;
}

export type ActionState = { status: 'NONE' } | ExistingAction;

export function evolveAction(state: ActionState, event: AgentActionEvent): ActionState {
  if (event.type === 'AgentActionSubmitted.v1') {
    const t = event.data;
    return { ...t, status: t.needsApproval ? 'PENDING_APPROVAL' : 'APPROVED', executing: !t.needsApproval, updatedAt: t.createdAt };
  }
  if (state.status === 'NONE') return state;
  switch (event.type) {
    case 'AgentActionPendingApproval.v1':
      return state;
    case 'AgentActionApproved.v1':
      return { ...state, status: 'APPROVED', executing: true, updatedAt: event.data.at };
    case 'AgentActionRejected.v1':
      return { ...state, status: 'REJECTED', executing: false, rejectionReason: event.data.reason, updatedAt: event.data.at };
    case 'AgentActionExecuted.v1':
      return { ...state, executing: false, transaction: event.data.transaction, quoteAfter: event.data.quote, updatedAt: event.data.at };
    case 'AgentActionFailed.v1':
      return {
        ...state,
        status: 'FAILED',
        executing: false,
        failureReason: event.data.failureReason,
        ...(event.data.transaction ? { transaction: event.data.transaction } : {}),
        ...(event.data.quote ? { quoteAfter: event.data.quote } : {}),
        updatedAt: event.data.at,
      };
  }
}
