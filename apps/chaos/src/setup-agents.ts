import { ApiClient } from './client';
import type { CustomerWorld } from './setup';

/**
 * The agent's policy (docs/agents.md): every permission, AUTO below the approval threshold, PENDING_APPROVAL above
 * it, 403 LIMIT_EXCEEDED above the per-transaction limit. The workload's amounts are placed around these.
 */
export const AGENT_LIMITS = { approvalThreshold: 15_000, perTransactionLimit: 30_000 } as const;
/** Amount bands of agent operations, each `base + index` so every amount stays unique in the run. */
export const AGENT_AMOUNT_BASE = { auto: 0, approval: 10_000, overLimit: 30_000 } as const;

export interface AgentWorld {
  agentId: string;
  customer: number;
  /** The agent's access token (Agent Operations use `Authorization: Bearer`). */
  token: string;
}

/** An agent for the first customer under the policy above, connected: its device code redeemed for a token. */
export async function setUpAgent(platform: ApiClient, anonymous: ApiClient, customers: CustomerWorld[]): Promise<AgentWorld> {
  const customer = customers.findIndex((c) => c.client === 'sandbox');
  const policy = {
    permissions: ['VIEW_TRANSACTIONS', 'CREATE_TRANSFERS', 'CREATE_QUOTES', 'EXECUTE_QUOTES', 'MANAGE_EXTERNAL_ACCOUNTS'],
    defaultExecutionMode: 'AUTO',
    approvalThresholds: { currency: 'USD', amount: AGENT_LIMITS.approvalThreshold },
    spendingLimits: { currency: 'USD', perTransactionLimit: AGENT_LIMITS.perTransactionLimit, dailyLimit: null, monthlyLimit: null },
  };
  const created = await platform.must('POST', '/agents', { name: 'Chaos agent', customerId: customers[customer].id, policy }, 'chaos-agent');
  // The device code alone is the credential of the redemption: no Authorization header.
  const redeemed = await anonymous.must('POST', `/agents/device-codes/${encodeURIComponent(created.deviceCode.code)}/redeem`, {});
  return { agentId: created.agent.id, customer, token: redeemed.accessToken };
}
