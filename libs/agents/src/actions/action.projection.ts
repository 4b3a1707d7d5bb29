import type { EntityManager } from 'typeorm';
import type { Projection } from '@payments/eventsourcing';
import { AgentActionEvent } from './action.events';
import { ActionState } from './action.state';
import { toAgentAction } from './action.view';

/** Actions by agent and status (GET /agents/me/actions, GET /agents/approvals). */
export const projectAction: Projection<EntityManager, ActionState, AgentActionEvent> = async (tx, _events, s) => {
  if (s.status === 'NONE') return;
  await tx.query(
    `INSERT INTO agent_actions (action_id, agent_id, platform_id, mode, customer_id, status, body, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
     ON CONFLICT (action_id) DO UPDATE SET status = $6, body = $7, updated_at = $9`,
    [s.actionId, s.agentId, s.platformId, s.mode, s.customerId, s.status, JSON.stringify(toAgentAction(s)), s.createdAt, s.updatedAt],
  );
};
