import { assertNever, Decider, DomainError } from '@payments/eventsourcing';
import type { AgentPolicy } from '@payments/contracts';
import { AgentEvent, AgentTerms } from './agent.events';
import { AgentState, dayOf, evolveAgent, ExistingAgent, monthOf, usageAt } from './agent.state';

export type AgentCommand =
  | { type: 'CreateAgent'; terms: AgentTerms }
  | { type: 'UpdateAgent'; name?: string; isPaused?: boolean; now: string }
  | { type: 'UpdatePolicy'; policy: AgentPolicy; now: string }
  | { type: 'DeleteAgent'; now: string }
  | { type: 'IssueDeviceCode'; codeHash: string; expiresAt: string; now: string }
  | { type: 'RedeemDeviceCode'; codeHash: string; tokenHash: string; tokenId: string; tokenExpiresAt: string; now: string }
  /** The service checked that the token is the agent's and not revoked yet (agent_tokens). */
  | { type: 'RevokeAccessToken'; tokenId: string; now: string }
  /** `amount` in the limits currency; `perTransactionLimit` the one that applies (an account rule's, else the policy's). */
  | { type: 'ReserveSpend'; actionId: string; amount: number; perTransactionLimit: number; now: string }
  | { type: 'ReleaseSpend'; actionId: string; now: string };

const notFound = () => new DomainError('AGENT_NOT_FOUND', 'agent not found');
const limit = (message: string) => new DomainError('LIMIT_EXCEEDED', message);

/**
 * One agent (stream `Agent:<uuid>`): its name, pause, policy, device codes and connection, and its allowance. The
 * allowance is decided here, on the agent's own stream: concurrent requests are decided one after the other, so two
 * of them never both fit what is left.
 */
export const agentDecider: Decider<AgentState, AgentCommand, AgentEvent> = {
  initialState: { status: 'NONE' },
  evolve: evolveAgent,
  decide(command, state) {
    if (command.type === 'CreateAgent') return state.status === 'NONE' ? [{ type: 'AgentCreated.v1', data: command.terms }] : [];
    if (state.status !== 'ACTIVE') return notFound();
    return decideExisting(command, state);
  },
};

function decideExisting(command: Exclude<AgentCommand, { type: 'CreateAgent' }>, s: ExistingAgent): AgentEvent[] | DomainError {
  switch (command.type) {
    case 'UpdateAgent': {
      const events: AgentEvent[] = [];
      if (command.name !== undefined && command.name !== s.name) events.push({ type: 'AgentRenamed.v1', data: { name: command.name, at: command.now } });
      if (command.isPaused === true && !s.isPaused) events.push({ type: 'AgentPaused.v1', data: { at: command.now } });
      if (command.isPaused === false && s.isPaused) events.push({ type: 'AgentResumed.v1', data: { at: command.now } });
      return events;
    }
    case 'UpdatePolicy':
      return [{ type: 'AgentPolicyUpdated.v1', data: { policy: command.policy, at: command.now } }];
    case 'DeleteAgent':
      return [{ type: 'AgentDeleted.v1', data: { agentId: s.agentId, platformId: s.platformId, mode: s.mode, customerId: s.customerId, at: command.now } }];
    case 'IssueDeviceCode':
      return [{ type: 'AgentDeviceCodeIssued.v1', data: { codeHash: command.codeHash, expiresAt: command.expiresAt, at: command.now } }];
    case 'RedeemDeviceCode': {
      const code = s.deviceCodes.find((c) => c.codeHash === command.codeHash);
      if (!code) return new DomainError('DEVICE_CODE_NOT_FOUND', 'device code not found');
      if (code.used) return new DomainError('DEVICE_CODE_INVALID', 'this device code was already redeemed or replaced by a newer one');
      if (code.expiresAt <= command.now) return new DomainError('DEVICE_CODE_INVALID', `this device code expired at ${code.expiresAt}`);
      return [{ type: 'AgentConnected.v1', data: { codeHash: command.codeHash, tokenHash: command.tokenHash, tokenId: command.tokenId, expiresAt: command.tokenExpiresAt, at: command.now } }];
    }
    case 'RevokeAccessToken':
      return [{ type: 'AgentAccessTokenRevoked.v1', data: { tokenId: command.tokenId, at: command.now } }];
    case 'ReserveSpend':
      return reserve(command, s);
    case 'ReleaseSpend':
      return s.reservations.some((r) => r.actionId === command.actionId) ? [{ type: 'AgentSpendReleased.v1', data: { actionId: command.actionId, at: command.now } }] : [];
    default:
      return assertNever(command);
  }
}

function reserve(c: Extract<AgentCommand, { type: 'ReserveSpend' }>, s: ExistingAgent): AgentEvent[] | DomainError {
  if (s.reservations.some((r) => r.actionId === c.actionId)) return [];
  if (s.isPaused) return new DomainError('FORBIDDEN', 'the agent is paused');
  const limits = s.policy.spendingLimits;
  const cur = limits.currency;
  if (c.amount > c.perTransactionLimit) return limit(`${c.amount} ${cur} is above the per-transaction limit of ${c.perTransactionLimit} ${cur}`);
  const used = usageAt(s, c.now);
  if (limits.dailyTransactionLimit !== undefined && used.dailyCount + 1 > limits.dailyTransactionLimit) return limit(`the daily limit of ${limits.dailyTransactionLimit} transactions is reached`);
  if (limits.dailyLimit !== undefined && limits.dailyLimit !== null && used.dailySpend + c.amount > limits.dailyLimit) {
    return limit(`${c.amount} ${cur} is above what is left of the daily limit (${limits.dailyLimit - used.dailySpend} of ${limits.dailyLimit} ${cur})`);
  }
  if (limits.monthlyLimit !== undefined && limits.monthlyLimit !== null && used.monthlySpend + c.amount > limits.monthlyLimit) {
    return limit(`${c.amount} ${cur} is above what is left of the monthly limit (${limits.monthlyLimit - used.monthlySpend} of ${limits.monthlyLimit} ${cur})`);
  }
  return [{ type: 'AgentSpendReserved.v1', data: { actionId: c.actionId, amount: c.amount, day: dayOf(c.now), month: monthOf(c.now), at: c.now } }];
}
