import type { EntityManager } from 'typeorm';
import type { Projection } from '@payments/eventsourcing';
import { AgentEvent } from './agent.events';
import { AgentState } from './agent.state';

/** The agents read model (state kept whole: usage is counted at read time), device codes and access tokens by hash. */
export const projectAgent: Projection<EntityManager, AgentState, AgentEvent> = async (tx, events, s) => {
  if (s.status === 'NONE') return;
  await tx.query(
    `INSERT INTO agents (agent_id, platform_id, mode, customer_id, is_paused, is_connected, deleted, state, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
     ON CONFLICT (agent_id) DO UPDATE SET is_paused = $5, is_connected = $6, deleted = $7, state = $8, updated_at = $10`,
    [s.agentId, s.platformId, s.mode, s.customerId, s.isPaused, s.isConnected, s.status === 'DELETED', JSON.stringify(s), s.createdAt, s.updatedAt],
  );
  for (const e of events) {
    if (e.type === 'AgentDeviceCodeIssued.v1') {
      await tx.query(`INSERT INTO agent_device_codes (code_hash, agent_id, platform_id, mode) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING`, [e.data.codeHash, s.agentId, s.platformId, s.mode]);
    }
    if (e.type === 'AgentConnected.v1') {
      await tx.query(`INSERT INTO agent_tokens (token_hash, agent_id) VALUES ($1, $2) ON CONFLICT DO NOTHING`, [e.data.tokenHash, s.agentId]);
    }
  }
};
