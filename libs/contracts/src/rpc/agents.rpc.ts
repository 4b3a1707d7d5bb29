import type {
  Agent,
  AgentAccessToken,
  AgentAction,
  AgentCreateExternalAccountRequest,
  AgentCreateResponse,
  AgentDeviceCode,
  AgentDeviceCodeRedeemResponse,
  AgentDeviceCodeStatus,
  AgentListExternalAccountsQuery,
  AgentListTransactionsQuery,
  AgentPrincipal,
  CreateAgentRequest,
  ListAgentActionsQuery,
  ListAgentApprovalsQuery,
  ListAgentsQuery,
  RejectAgentActionRequest,
  UpdateAgentPolicyRequest,
  UpdateAgentRequest,
} from '../agents';
import type { ExternalAccount, InternalAccount } from '../accounts';
import type { Page, PageQuery } from '../pagination';
import type { CreateQuoteRequest, Quote } from '../quotes';
import type { Transaction, TransferInRequest, TransferOutRequest } from '../transactions';
import { pingRpc } from './rpc';
import { rawRpc, rpc } from './rpc-contract';

/**
 * RPC contracts of the agents service. Agent Management is called with platform credentials; Agent Operations
 * (`me*`) with an agent's: the gateway authenticates its bearer token (`authenticate`) and the caller carries the
 * agent (CallerContext.agent), so no body names the agent.
 */
export const AgentsRpc = {
  create: rpc<CreateAgentRequest, AgentCreateResponse>('agents.agents.create'),
  list: rpc<ListAgentsQuery, Page<Agent>>('agents.agents.list'),
  get: rpc<AgentIdBody, Agent>('agents.agents.get'),
  update: rpc<AgentIdBody & UpdateAgentRequest, Agent>('agents.agents.update'),
  /** Answers null (HTTP 204). */
  delete: rpc<AgentIdBody, null>('agents.agents.delete'),
  updatePolicy: rpc<AgentIdBody & UpdateAgentPolicyRequest, Agent>('agents.agents.policy.update'),
  issueDeviceCode: rpc<AgentIdBody, AgentDeviceCode>('agents.device-codes.issue'),
  deviceCodeStatus: rpc<DeviceCodeBody, AgentDeviceCodeStatus>('agents.device-codes.status'),
  /** The device code is the credential: the gateway's caller is anonymous (no platform, no permission) and ignored. */
  redeemDeviceCode: rpc<DeviceCodeBody, AgentDeviceCodeRedeemResponse>('agents.device-codes.redeem'),
  listAccessTokens: rpc<AgentIdBody & PageQuery, Page<AgentAccessToken>>('agents.access-tokens.list'),
  /** Answers null (HTTP 204). */
  revokeAccessToken: rpc<AgentIdBody & { tokenId: string }, null>('agents.access-tokens.revoke'),
  /** For the gateway: the agent an access token belongs to; 401 UNAUTHORIZED when unknown, expired, revoked, deleted or paused. */
  authenticate: rawRpc<{ accessToken: string }, AgentPrincipal>('agents.tokens.authenticate'),
  listApprovals: rpc<ListAgentApprovalsQuery, Page<AgentAction>>('agents.approvals.list'),
  approveAction: rpc<AgentActionIdBody, AgentAction>('agents.actions.approve'),
  rejectAction: rpc<AgentActionIdBody & RejectAgentActionRequest, AgentAction>('agents.actions.reject'),
  me: rpc<Record<string, never>, Agent>('agents.me.get'),
  myActions: rpc<ListAgentActionsQuery, Page<AgentAction>>('agents.me.actions.list'),
  myAction: rpc<ActionIdBody, AgentAction>('agents.me.actions.get'),
  createQuote: rpc<CreateQuoteRequest, Quote>('agents.me.quotes.create'),
  getQuote: rpc<{ quoteId: string }, Quote>('agents.me.quotes.get'),
  executeQuote: rpc<{ quoteId: string; walletSignature?: string }, AgentAction>('agents.me.quotes.execute'),
  transferIn: rpc<TransferInRequest, AgentAction>('agents.me.transfer-in'),
  transferOut: rpc<TransferOutRequest, AgentAction>('agents.me.transfer-out'),
  myTransactions: rpc<AgentListTransactionsQuery, Page<Transaction>>('agents.me.transactions.list'),
  myTransaction: rpc<{ transactionId: string }, Transaction>('agents.me.transactions.get'),
  myInternalAccounts: rpc<PageQuery, Page<InternalAccount>>('agents.me.internal-accounts.list'),
  myExternalAccounts: rpc<AgentListExternalAccountsQuery, Page<ExternalAccount>>('agents.me.external-accounts.list'),
  createExternalAccount: rpc<AgentCreateExternalAccountRequest, ExternalAccount>('agents.me.external-accounts.create'),
  getExternalAccount: rpc<{ externalAccountId: string }, ExternalAccount>('agents.me.external-accounts.get'),
  deleteExternalAccount: rpc<{ externalAccountId: string }, null>('agents.me.external-accounts.delete'),
  ping: pingRpc('agents.ping'),
} as const;

export interface AgentIdBody {
  agentId: string;
}

export interface AgentActionIdBody extends AgentIdBody {
  actionId: string;
}

export interface ActionIdBody {
  actionId: string;
}

export interface DeviceCodeBody {
  code: string;
}
