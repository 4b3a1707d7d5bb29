import type { Quote } from '../quotes/quotes.dto';
import type { Transaction } from '../transactions/transactions.dto';

export const AGENT_PERMISSIONS = ['VIEW_TRANSACTIONS', 'CREATE_TRANSFERS', 'CREATE_QUOTES', 'EXECUTE_QUOTES', 'MANAGE_EXTERNAL_ACCOUNTS'] as const;
export type AgentPermission = (typeof AGENT_PERMISSIONS)[number];
export const AGENT_EXECUTION_MODES = ['AUTO', 'APPROVAL_REQUIRED'] as const;
export type AgentExecutionMode = (typeof AGENT_EXECUTION_MODES)[number];

/** Amounts in the smallest unit of `currency`; an amount in another currency is converted at the rate of the moment. */
export interface AgentSpendingLimits {
  currency: string;
  /** @asType integer */
  perTransactionLimit: number;
  /** null: no daily limit. */
  dailyLimit?: number | null;
  /** @asType integer */
  dailyTransactionLimit?: number;
  /** null: no monthly limit. */
  monthlyLimit?: number | null;
}

export interface AgentAccountRule {
  accountId: string;
  executionMode?: AgentExecutionMode;
  /** null: the spending limits' per-transaction limit. */
  perTransactionLimit?: number | null;
}

export interface AgentAccountRestrictions {
  /** null: every account of the customer. */
  allowedAccountIds?: string[] | null;
  accountRules?: AgentAccountRule[];
}

/** An amount above which an action waits for the platform's approval, whatever the execution mode. */
export interface AgentApprovalThresholds {
  currency?: string;
  amount?: number | null;
}

export interface AgentPolicy {
  permissions: AgentPermission[];
  defaultExecutionMode: AgentExecutionMode;
  spendingLimits: AgentSpendingLimits;
  accountRestrictions?: AgentAccountRestrictions;
  approvalThresholds?: AgentApprovalThresholds;
}

/** Counters against the limits, in the smallest unit of `spendingLimits.currency`; they restart each UTC day and month. */
export interface AgentUsage {
  /** @asType integer */
  dailyTransactionCount: number;
  /** @asType integer */
  dailySpend: number;
  /** @format date */
  dailyResetDate?: string;
  /** YYYY-MM */
  monthlyResetMonth?: string;
  /** @asType integer */
  monthlySpend: number;
}

export interface Agent {
  /** @pattern ^Agent: */
  id: string;
  name: string;
  customerId: string;
  isPaused: boolean;
  /** A device code was redeemed: the agent software holds an access token. */
  isConnected: boolean;
  policy: AgentPolicy;
  usage: AgentUsage;
  /** @format date-time */
  createdAt: string;
  /** @format date-time */
  updatedAt: string;
}

export interface AgentDeviceCode {
  /** The device code; absent on an Idempotency-Key replay (shown once). */
  code?: string;
  agentId: string;
  /** @format date-time */
  expiresAt: string;
  redeemed: boolean;
}

/** POST /agents: the agent and its first device code. */
export interface AgentCreateResponse {
  agent: Agent;
  deviceCode: AgentDeviceCode;
}

export interface AgentDeviceCodeStatus {
  code: string;
  redeemed: boolean;
}

export const AGENT_ACCESS_TOKEN_STATUSES = ['ACTIVE', 'EXPIRED', 'REVOKED'] as const;
export type AgentAccessTokenStatus = (typeof AGENT_ACCESS_TOKEN_STATUSES)[number];

/** GET /agents/{agentId}/access-tokens: one access token the agent's software redeemed (its id, never the token). */
export interface AgentAccessToken {
  /** @pattern ^AgentAccessToken: */
  id: string;
  agentId: string;
  status: AgentAccessTokenStatus;
  /**
   * When the device code was redeemed.
   * @format date-time
   */
  createdAt: string;
  /**
   * The token answers 401 from then on (AGENT_ACCESS_TOKEN_TTL_SECONDS after the redemption).
   * @format date-time
   */
  expiresAt: string;
}

/** POST /agents/device-codes/{code}/redeem: the bearer access token, shown this once. */
export interface AgentDeviceCodeRedeemResponse {
  agentId: string;
  agentName: string;
  /** Expires AGENT_ACCESS_TOKEN_TTL_SECONDS after this (GET /agents/{agentId}/access-tokens shows when). */
  accessToken: string;
  policy: AgentPolicy;
}

export const AGENT_ACTION_STATUSES = ['PENDING_APPROVAL', 'APPROVED', 'REJECTED', 'FAILED'] as const;
export type AgentActionStatus = (typeof AGENT_ACTION_STATUSES)[number];
export const AGENT_ACTION_TYPES = ['EXECUTE_QUOTE', 'TRANSFER_OUT', 'TRANSFER_IN'] as const;
export type AgentActionType = (typeof AGENT_ACTION_TYPES)[number];

export interface AgentTransferDetails {
  /** @asType integer */
  amount: number;
  currency: string;
  sourceAccountId: string;
  destinationAccountId: string;
}

/** What an agent asked for, and what became of it. */
export interface AgentAction {
  /** @pattern ^AgentAction: */
  id: string;
  agentId: string;
  customerId: string;
  platformCustomerId: string;
  status: AgentActionStatus;
  type: AgentActionType;
  quote?: Quote;
  transferDetails?: AgentTransferDetails;
  transaction?: Transaction;
  rejectionReason?: string;
  /** Why execution failed (FAILED): the error code of the operation. */
  failureReason?: string;
  /** @format date-time */
  createdAt: string;
  /** @format date-time */
  updatedAt: string;
}

/** Who an agent access token belongs to (agents → gateway, never public). */
export interface AgentPrincipal {
  agentId: string;
  platformId: string;
  mode: 'SANDBOX' | 'PRODUCTION';
  customerId: string;
}

export const isAgentId = (value: string): boolean => /^Agent:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(value);
export const isAgentActionId = (value: string): boolean => /^AgentAction:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(value);
