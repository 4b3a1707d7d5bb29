import type { EntityManager } from 'typeorm';
import { v5 as uuidv5 } from 'uuid';
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
      const { tokenId, expiresAt } = tokenTermsOf(e.data);
      await tx.query(`INSERT INTO agent_tokens (token_hash, agent_id, token_id, created_at, expires_at) VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING`, [
        e.data.tokenHash,
        s.agentId,
        tokenId,
        e.data.at,
        expiresAt,
      ]);
    }
    if (e.type === 'AgentAccessTokenRevoked.v1') {
      await tx.query(`UPDATE agent_tokens SET revoked_at = $3 WHERE token_id = $1 AND agent_id = $2 AND revoked_at IS NULL`, [e.data.tokenId, s.agentId, e.data.at]);
    }
  }
};

const LEGACY_TOKEN_NAMESPACE = '5f0c6f3e-2b8e-4a51-9d7e-6a0f3c1d2e4b';
/** Tokens redeemed before they had ids and expiry: the same id and a 30-day life, as migration 2 gave their rows. */
const LEGACY_TOKEN_TTL_MS = 30 * 86_400_000;

function tokenTermsOf(data: { tokenHash: string; tokenId?: string; expiresAt?: string; at: string }): { tokenId: string; expiresAt: string } {
  return {
    tokenId: data.tokenId ?? `AgentAccessToken:${uuidv5(data.tokenHash, LEGACY_TOKEN_NAMESPACE)}`,
    expiresAt: data.expiresAt ?? new Date(Date.parse(data.at) + LEGACY_TOKEN_TTL_MS).toISOString(),
  };
}
