import {
  AgentCreateExternalAccountRequest,
  AgentListExternalAccountsQuery,
  AgentListTransactionsQuery,
  CreateAgentRequest,
  ListAgentActionsQuery,
  ListAgentApprovalsQuery,
  ListAgentsQuery,
  RejectAgentActionRequest,
  UpdateAgentPolicyRequest,
  UpdateAgentRequest,
} from '../agents';
import { PageQuery } from '../pagination/pagination';
import { CreateQuoteRequest } from '../quotes/quotes.dto';
import { AgentsRpc } from '../rpc/agents.rpc';
import { TransferInRequest, TransferOutRequest } from '../transactions/transactions.dto';
import { AnyHttpOperation, operation } from './http-operation';

const MANAGEMENT = 'Agent Management';
const OPERATIONS = 'Agent Operations';
const AGENT = 'agent' as const;
const DECIDES =
  ' The policy decides: a permission the agent lacks is 403 FORBIDDEN; an amount above the per-transaction, daily or ' +
  'monthly limit (converted at the rate of the moment), or past the daily count, is 403 LIMIT_EXCEEDED. When the ' +
  'execution mode of the account (its rule, else the default) is APPROVAL_REQUIRED, or the amount is above the ' +
  'approval threshold, the action waits in PENDING_APPROVAL (webhook AGENT_ACTION.PENDING_APPROVAL) for the platform; ' +
  'otherwise it runs at once and the action is APPROVED with its transaction. Accounts must be the customer\'s and ' +
  'allowed by accountRestrictions (404 otherwise).';

/** Agent Management (platform credentials) and Agent Operations (an agent's access token), agents service. */
export const AGENT_OPERATIONS: AnyHttpOperation[] = [
  operation({
    operationId: 'createAgent', shownOnce: ['deviceCode.code'], method: 'POST', path: '/agents', tag: MANAGEMENT, summary: 'Create an agent',
    description: 'An agent acting for one customer of the platform under `policy`; answers the agent and its first device code (valid 24 hours).',
    permission: 'MANAGE', service: 'agents', rpc: AgentsRpc.create, body: CreateAgentRequest, status: 201, response: 'AgentCreateResponse', request: ({ body }) => body,
  }),
  operation({
    operationId: 'listAgents', method: 'GET', path: '/agents', tag: MANAGEMENT, summary: 'List agents',
    description: 'Filters customerId, isPaused, isConnected and the created/updated ranges, combined; newest first.',
    permission: 'VIEW', service: 'agents', rpc: AgentsRpc.list, query: ListAgentsQuery, status: 200, response: { page: 'Agent' }, request: ({ query }) => query,
  }),
  operation({
    operationId: 'listAgentApprovals', method: 'GET', path: '/agents/approvals', tag: MANAGEMENT, summary: 'List actions waiting for approval',
    description: 'PENDING_APPROVAL actions of the platform\'s agents; filters agentId, customerId, startDate/endDate (createdAt, inclusive); newest first unless sortOrder=asc.',
    permission: 'VIEW', service: 'agents', rpc: AgentsRpc.listApprovals, query: ListAgentApprovalsQuery, status: 200, response: { page: 'AgentAction' }, request: ({ query }) => query,
  }),
  operation({
    operationId: 'getAgentDeviceCodeStatus', method: 'GET', path: '/agents/device-codes/{code}/status', tag: MANAGEMENT, summary: 'Get device code status',
    permission: 'VIEW', service: 'agents', rpc: AgentsRpc.deviceCodeStatus, status: 200, response: 'AgentDeviceCodeStatus', request: ({ params }) => ({ code: params.code }),
  }),
  operation({
    operationId: 'redeemAgentDeviceCode', shownOnce: ['accessToken'], method: 'POST', path: '/agents/device-codes/{code}/redeem', tag: MANAGEMENT, summary: 'Redeem a device code',
    description:
      'Needs no credentials: the code is the proof. Answers the bearer access token of the agent, shown this once and kept only as a keyed hash. ' +
      'A redeemed, expired or replaced code is 400; an unknown one 404.',
    permission: 'VIEW', auth: 'none', service: 'agents', rpc: AgentsRpc.redeemDeviceCode, status: 200, response: 'AgentDeviceCodeRedeemResponse', errors: [404],
    request: ({ params }) => ({ code: params.code }),
  }),
  operation({
    operationId: 'getAgentById', method: 'GET', path: '/agents/{agentId}', tag: MANAGEMENT, summary: 'Get an agent',
    permission: 'VIEW', service: 'agents', rpc: AgentsRpc.get, status: 200, response: 'Agent', request: ({ params }) => ({ agentId: params.agentId }),
  }),
  operation({
    operationId: 'updateAgent', method: 'PATCH', path: '/agents/{agentId}', tag: MANAGEMENT, summary: 'Update an agent',
    description: 'Renames it, or pauses it (its token answers 401 at once, on every gateway) and resumes it.',
    permission: 'MANAGE', service: 'agents', rpc: AgentsRpc.update, body: UpdateAgentRequest, status: 200, response: 'Agent', request: ({ params, body }) => ({ ...body, agentId: params.agentId }),
  }),
  operation({
    operationId: 'deleteAgent', method: 'DELETE', path: '/agents/{agentId}', tag: MANAGEMENT, summary: 'Delete an agent',
    description: 'For good: its token answers 401 from the next request on, its waiting actions are rejected.',
    permission: 'MANAGE', service: 'agents', rpc: AgentsRpc.delete, status: 204, request: ({ params }) => ({ agentId: params.agentId }),
  }),
  operation({
    operationId: 'updateAgentPolicy', method: 'PATCH', path: '/agents/{agentId}/policy', tag: MANAGEMENT, summary: 'Update an agent policy',
    description: 'Only the fields given change (spendingLimits field by field; a new spendingLimits.currency converts the kept limits at the rate of the moment; permissions replaces the list); effective for the next request.',
    permission: 'MANAGE', service: 'agents', rpc: AgentsRpc.updatePolicy, body: UpdateAgentPolicyRequest, status: 200, response: 'Agent', request: ({ params, body }) => ({ ...body, agentId: params.agentId }),
  }),
  operation({
    operationId: 'regenerateAgentDeviceCode', shownOnce: ['code'], method: 'POST', path: '/agents/{agentId}/device-codes', tag: MANAGEMENT, summary: 'Issue a new device code',
    description: 'Earlier codes not yet redeemed stop working.',
    permission: 'MANAGE', service: 'agents', rpc: AgentsRpc.issueDeviceCode, status: 201, response: 'AgentDeviceCode', request: ({ params }) => ({ agentId: params.agentId }),
  }),
  operation({
    operationId: 'listAgentAccessTokens', method: 'GET', path: '/agents/{agentId}/access-tokens', tag: MANAGEMENT, summary: "List an agent's access tokens",
    description:
      'Not in the published API (it has no way to revoke one token). The access tokens redeemed for the agent, newest first: ids, status and expiry, never the tokens. ' +
      'Tokens expire AGENT_ACCESS_TOKEN_TTL_SECONDS after their redemption.',
    permission: 'VIEW', service: 'agents', rpc: AgentsRpc.listAccessTokens, query: PageQuery, status: 200, response: { page: 'AgentAccessToken' }, request: ({ params, query }) => ({ ...query, agentId: params.agentId }),
  }),
  operation({
    operationId: 'revokeAgentAccessToken', method: 'DELETE', path: '/agents/{agentId}/access-tokens/{tokenId}', tag: MANAGEMENT, summary: 'Revoke one access token of an agent',
    description: 'Not in the published API. The token answers 401 from the next request on; the agent\'s other tokens keep working (DELETE /agents/{agentId} stops them all). Revoking a revoked token changes nothing.',
    permission: 'MANAGE', service: 'agents', rpc: AgentsRpc.revokeAccessToken, status: 204, request: ({ params }) => ({ agentId: params.agentId, tokenId: params.tokenId }),
  }),
  operation({
    operationId: 'approveAgentAction', method: 'POST', path: '/agents/{agentId}/actions/{actionId}/approve', tag: MANAGEMENT, summary: 'Approve an agent action',
    description: 'Runs the quote execution or transfer of a PENDING_APPROVAL action: APPROVED with its transaction, or FAILED (an expired quote, insufficient funds). Any other status is 409 INVALID_STATE_TRANSITION.',
    permission: 'TRANSACT', service: 'agents', rpc: AgentsRpc.approveAction, status: 200, response: 'AgentAction', errors: [409],
    request: ({ params }) => ({ agentId: params.agentId, actionId: params.actionId }),
  }),
  operation({
    operationId: 'rejectAgentAction', method: 'POST', path: '/agents/{agentId}/actions/{actionId}/reject', tag: MANAGEMENT, summary: 'Reject an agent action',
    description: 'A PENDING_APPROVAL action becomes REJECTED with the reason; nothing runs. Any other status is 409 INVALID_STATE_TRANSITION.',
    permission: 'TRANSACT', service: 'agents', rpc: AgentsRpc.rejectAction, body: RejectAgentActionRequest, bodyOptional: true, status: 200, response: 'AgentAction', errors: [409],
    request: ({ params, body }) => ({ ...(body ?? {}), agentId: params.agentId, actionId: params.actionId }),
  }),
  operation({
    operationId: 'getAgentMe', method: 'GET', path: '/agents/me', tag: OPERATIONS, summary: 'Get current agent',
    permission: 'VIEW', auth: AGENT, service: 'agents', rpc: AgentsRpc.me, status: 200, response: 'Agent', request: () => ({}),
  }),
  operation({
    operationId: 'agentListActions', method: 'GET', path: '/agents/me/actions', tag: OPERATIONS, summary: "List the agent's actions",
    permission: 'VIEW', auth: AGENT, service: 'agents', rpc: AgentsRpc.myActions, query: ListAgentActionsQuery, status: 200, response: { page: 'AgentAction' }, request: ({ query }) => query,
  }),
  operation({
    operationId: 'agentGetAction', method: 'GET', path: '/agents/me/actions/{actionId}', tag: OPERATIONS, summary: 'Get an action',
    permission: 'VIEW', auth: AGENT, service: 'agents', rpc: AgentsRpc.myAction, status: 200, response: 'AgentAction', request: ({ params }) => ({ actionId: params.actionId }),
  }),
  operation({
    operationId: 'agentCreateQuote', method: 'POST', path: '/agents/me/quotes', tag: OPERATIONS, summary: 'Create a quote',
    description: 'CREATE_QUOTES. As POST /quotes, for the agent\'s customer; the source must be one of its accounts the policy allows.',
    permission: 'TRANSACT', auth: AGENT, service: 'agents', rpc: AgentsRpc.createQuote, body: CreateQuoteRequest, status: 201, response: 'Quote', errors: [404, 424], request: ({ body }) => body,
  }),
  operation({
    operationId: 'agentGetQuote', method: 'GET', path: '/agents/me/quotes/{quoteId}', tag: OPERATIONS, summary: 'Get a quote',
    description: '404 for a quote this agent did not create.',
    permission: 'VIEW', auth: AGENT, service: 'agents', rpc: AgentsRpc.getQuote, status: 200, response: 'Quote', request: ({ params }) => ({ quoteId: params.quoteId }),
  }),
  operation({
    operationId: 'agentExecuteQuote', method: 'POST', path: '/agents/me/quotes/{quoteId}/execute', tag: OPERATIONS, summary: 'Execute a quote',
    description: 'EXECUTE_QUOTES, on a quote this agent created.' + DECIDES,
    permission: 'TRANSACT', auth: AGENT, service: 'agents', rpc: AgentsRpc.executeQuote, status: 200, response: 'AgentAction', walletSignature: true, errors: [404],
    request: ({ params, signature }) => ({ quoteId: params.quoteId, ...(signature.walletSignature ? { walletSignature: signature.walletSignature } : {}) }),
  }),
  operation({
    operationId: 'agentCreateTransferIn', method: 'POST', path: '/agents/me/transfer-in', tag: OPERATIONS, summary: 'Create a transfer-in',
    description: 'CREATE_TRANSFERS: from a pull-capable external account of the customer to one of its internal accounts.' + DECIDES,
    permission: 'TRANSACT', auth: AGENT, service: 'agents', rpc: AgentsRpc.transferIn, body: TransferInRequest, status: 201, response: 'AgentAction', errors: [404], request: ({ body }) => body,
  }),
  operation({
    operationId: 'agentCreateTransferOut', method: 'POST', path: '/agents/me/transfer-out', tag: OPERATIONS, summary: 'Create a transfer-out',
    description: 'CREATE_TRANSFERS: from an internal account of the customer to one of its external accounts.' + DECIDES,
    permission: 'TRANSACT', auth: AGENT, service: 'agents', rpc: AgentsRpc.transferOut, body: TransferOutRequest, status: 201, response: 'AgentAction', errors: [404], request: ({ body }) => body,
  }),
  operation({
    operationId: 'agentListTransactions', method: 'GET', path: '/agents/me/transactions', tag: OPERATIONS, summary: "List the customer's transactions",
    description: 'VIEW_TRANSACTIONS. The customer\'s transactions only; no customer filter.',
    permission: 'VIEW', auth: AGENT, service: 'agents', rpc: AgentsRpc.myTransactions, query: AgentListTransactionsQuery, status: 200, response: { page: 'Transaction' }, request: ({ query }) => query,
  }),
  operation({
    operationId: 'agentGetTransaction', method: 'GET', path: '/agents/me/transactions/{transactionId}', tag: OPERATIONS, summary: 'Get a transaction',
    description: 'VIEW_TRANSACTIONS. Another customer\'s transaction is 404.',
    permission: 'VIEW', auth: AGENT, service: 'agents', rpc: AgentsRpc.myTransaction, status: 200, response: 'Transaction', request: ({ params }) => ({ transactionId: params.transactionId }),
  }),
  operation({
    operationId: 'agentListInternalAccounts', method: 'GET', path: '/agents/me/internal-accounts', tag: OPERATIONS, summary: "List the customer's internal accounts",
    description: 'Those accountRestrictions.allowedAccountIds allows (all of them when it is null).',
    permission: 'VIEW', auth: AGENT, service: 'agents', rpc: AgentsRpc.myInternalAccounts, query: PageQuery, status: 200, response: { page: 'InternalAccount' }, request: ({ query }) => query,
  }),
  operation({
    operationId: 'agentListExternalAccounts', method: 'GET', path: '/agents/me/external-accounts', tag: OPERATIONS, summary: "List the customer's external accounts",
    description: 'MANAGE_EXTERNAL_ACCOUNTS.',
    permission: 'VIEW', auth: AGENT, service: 'agents', rpc: AgentsRpc.myExternalAccounts, query: AgentListExternalAccountsQuery, status: 200, response: { page: 'ExternalAccount' }, request: ({ query }) => query,
  }),
  operation({
    operationId: 'agentCreateExternalAccount', method: 'POST', path: '/agents/me/external-accounts', tag: OPERATIONS, summary: 'Create an external account',
    description: 'MANAGE_EXTERNAL_ACCOUNTS. As POST /customers/external-accounts; customerId is the agent\'s customer (another one is 404).',
    permission: 'MANAGE', auth: AGENT, service: 'agents', rpc: AgentsRpc.createExternalAccount, body: AgentCreateExternalAccountRequest, status: 201, response: 'ExternalAccount', errors: [404], request: ({ body }) => body,
  }),
  operation({
    operationId: 'agentGetExternalAccount', method: 'GET', path: '/agents/me/external-accounts/{externalAccountId}', tag: OPERATIONS, summary: 'Get an external account',
    description: 'MANAGE_EXTERNAL_ACCOUNTS. Another customer\'s account is 404.',
    permission: 'VIEW', auth: AGENT, service: 'agents', rpc: AgentsRpc.getExternalAccount, status: 200, response: 'ExternalAccount', request: ({ params }) => ({ externalAccountId: params.externalAccountId }),
  }),
  operation({
    operationId: 'agentDeleteExternalAccount', method: 'DELETE', path: '/agents/me/external-accounts/{externalAccountId}', tag: OPERATIONS, summary: 'Delete an external account',
    description: 'MANAGE_EXTERNAL_ACCOUNTS. Another customer\'s account is 404.',
    permission: 'MANAGE', auth: AGENT, service: 'agents', rpc: AgentsRpc.deleteExternalAccount, status: 204, request: ({ params }) => ({ externalAccountId: params.externalAccountId }),
  }),
];
