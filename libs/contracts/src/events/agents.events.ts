import type { AgentAction } from '../agents/agents';
import type { Mode } from '../rpc/rpc';
import { dataSchema, defineCatalogue, defineEvent } from './catalogue';

const service = 'agents';
const internal = <const N extends string>(name: N, description: string) => defineEvent({ service, name, version: 1, visibility: 'internal', description });

/** AgentActionPendingApproval.v1: the action as the platform's approval queue shows it. */
export interface AgentActionPendingApprovalData {
  platformId: string;
  mode: Mode;
  action: AgentAction;
}

/** AgentDeleted.v1: the agent is gone; its tokens answer 401. */
export interface AgentDeletedData {
  agentId: string;
  platformId: string;
  mode: Mode;
  customerId: string;
  at: string;
}

/** The agents service's events (topic `payments.agents.events.v1`): streams `Agent:<uuid>` and `AgentAction:<uuid>`. */
export const AGENTS_EVENTS = defineCatalogue(service, [
  internal('AgentCreated', 'An agent was created for a customer with its policy.'),
  internal('AgentRenamed', 'The agent was renamed.'),
  internal('AgentPaused', 'The agent was paused: its token answers 401 until it is resumed.'),
  internal('AgentResumed', 'The agent was resumed.'),
  internal('AgentPolicyUpdated', 'The policy after a partial update.'),
  defineEvent({ service, name: 'AgentDeleted', version: 1, visibility: 'public', data: dataSchema<AgentDeletedData>('AgentDeletedData'), description: 'The agent was deleted for good.' }),
  internal('AgentDeviceCodeIssued', 'A device code was issued (its keyed hash); earlier unredeemed ones stop working.'),
  internal('AgentConnected', 'A device code was redeemed: an access token (its keyed hash, id and expiry) speaks for the agent.'),
  internal('AgentAccessTokenRevoked', 'The platform revoked one access token of the agent: it answers 401 from then on.'),
  internal('AgentSpendReserved', 'An action took its amount (in the limits currency) from the daily and monthly allowance.'),
  internal('AgentSpendReleased', 'A rejected or failed action gave its amount back.'),
  internal('AgentActionSubmitted', 'The agent asked for a quote execution or a transfer; the policy said whether it waits for approval.'),
  defineEvent({ service, name: 'AgentActionPendingApproval', version: 1, visibility: 'public', data: dataSchema<AgentActionPendingApprovalData>('AgentActionPendingApprovalData'), description: 'An action waits for the platform (webhook AGENT_ACTION.PENDING_APPROVAL).' }),
  internal('AgentActionApproved', 'The platform approved the action (or the policy did): it runs.'),
  internal('AgentActionRejected', 'The platform rejected the action; nothing ran.'),
  internal('AgentActionExecuted', 'The operation ran: its transaction.'),
  internal('AgentActionFailed', 'The operation could not run (an expired quote, insufficient funds, ...).'),
]);
