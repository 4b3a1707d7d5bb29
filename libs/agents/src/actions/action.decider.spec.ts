import { given } from '@payments/eventsourcing';
import { actionDecider } from './action.decider';
import { ActionTerms, AgentActionEvent } from './action.events';
import { ExistingAction } from './action.state';
import { toAgentAction } from './action.view';

const at = '2026-11-24T10:00:00.000Z';
const terms = (needsApproval: boolean): ActionTerms => ({
  actionId: 'AgentAction:1', agentId: 'Agent:1', platformId: 'Platform:1', mode: 'SANDBOX', customerId: 'Customer:1', platformCustomerId: 'c-1', type: 'TRANSFER_OUT',
  transferDetails: { amount: 500, currency: 'USD', sourceAccountId: 'InternalAccount:a', destinationAccountId: 'ExternalAccount:b' }, needsApproval, createdAt: at,
});
const submitted = (needsApproval: boolean): AgentActionEvent => ({ type: 'AgentActionSubmitted.v1', data: terms(needsApproval) });
const transaction = { id: 'Transaction:1' } as never;

describe('agent action decider', () => {
  it('an action that needs approval waits in PENDING_APPROVAL and tells the platform; one that does not is APPROVED and runs', () => {
    const waiting = given(actionDecider).when({ type: 'Submit', terms: terms(true) }).decision as AgentActionEvent[];
    expect(waiting.map((e) => e.type)).toEqual(['AgentActionSubmitted.v1', 'AgentActionPendingApproval.v1']);
    expect(waiting[1].data).toMatchObject({ platformId: 'Platform:1', mode: 'SANDBOX', action: { id: 'AgentAction:1', status: 'PENDING_APPROVAL', type: 'TRANSFER_OUT' } });
    expect(given(actionDecider, [submitted(false)]).state).toMatchObject({ status: 'APPROVED', executing: true });
  });

  it('approve and reject need PENDING_APPROVAL', () => {
    given(actionDecider, [submitted(true)]).when({ type: 'Approve', by: 'client', now: at }).then([{ type: 'AgentActionApproved.v1', data: { by: 'client', at } }]);
    given(actionDecider, [submitted(true)]).when({ type: 'Reject', by: 'client', reason: 'no', now: at }).then([{ type: 'AgentActionRejected.v1', data: { by: 'client', reason: 'no', at } }]);
    given(actionDecider, [submitted(false)]).when({ type: 'Approve', by: 'client', now: at }).thenFails('INVALID_STATE_TRANSITION');
    const rejected: AgentActionEvent = { type: 'AgentActionRejected.v1', data: { by: 'client', at } };
    given(actionDecider, [submitted(true), rejected]).when({ type: 'Reject', by: 'client', now: at }).thenFails('INVALID_STATE_TRANSITION');
    given(actionDecider).when({ type: 'Approve', by: 'client', now: at }).thenFails('AGENT_ACTION_NOT_FOUND');
  });

  it('records one outcome of a run: a repeat, or an outcome of an action that is not running, changes nothing', () => {
    const approved: AgentActionEvent[] = [submitted(true), { type: 'AgentActionApproved.v1', data: { by: 'client', at } }];
    const done = given(actionDecider, approved).when({ type: 'RecordExecution', transaction, now: at }).decision as AgentActionEvent[];
    expect(done.map((e) => e.type)).toEqual(['AgentActionExecuted.v1']);
    given(actionDecider, [...approved, ...done]).when({ type: 'Fail', failureReason: 'X', message: 'x', now: at }).then([]);
    given(actionDecider, [submitted(true)]).when({ type: 'RecordExecution', transaction, now: at }).then([]);
    expect(given(actionDecider, [...approved, { type: 'AgentActionFailed.v1', data: { failureReason: 'QUOTE_EXPIRED', message: 'expired', at } }]).state).toMatchObject({ status: 'FAILED', failureReason: 'QUOTE_EXPIRED' });
  });

  it('an operation that ran but whose transaction failed at once fails the action and keeps the transaction on it', () => {
    const running: AgentActionEvent[] = [submitted(false)];
    const failedTx = { id: 'Transaction:1', status: 'FAILED', failureReason: 'QUOTE_EXECUTION_FAILED', failureDetail: 'INSUFFICIENT_FUNDS' } as never;
    const failed = given(actionDecider, running).when({ type: 'Fail', failureReason: 'INSUFFICIENT_FUNDS', message: 'x', transaction: failedTx, now: at }).decision as AgentActionEvent[];
    expect(failed).toEqual([{ type: 'AgentActionFailed.v1', data: { failureReason: 'INSUFFICIENT_FUNDS', message: 'x', transaction: failedTx, at } }]);
    const state = given(actionDecider, [...running, ...failed]).state;
    expect(state).toMatchObject({ status: 'FAILED', executing: false, failureReason: 'INSUFFICIENT_FUNDS', transaction: failedTx });
    expect(toAgentAction(state as ExistingAction)).toMatchObject({ status: 'FAILED', failureReason: 'INSUFFICIENT_FUNDS', transaction: { id: 'Transaction:1' } });
    // Nothing ran (an expired quote): no transaction.
    const expired = given(actionDecider, running).when({ type: 'Fail', failureReason: 'QUOTE_EXPIRED', message: 'expired', now: at }).decision as AgentActionEvent[];
    expect(toAgentAction(given(actionDecider, [...running, ...expired]).state as ExistingAction)).not.toHaveProperty('transaction');
  });
});
