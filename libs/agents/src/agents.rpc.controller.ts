import { Controller, Inject } from '@nestjs/common';
import {
  AgentAccessToken,
  ActionIdBody,
  Agent,
  AgentAction,
  AgentActionIdBody,
  AgentCreateExternalAccountRequest,
  AgentCreateResponse,
  AgentDeviceCode,
  AgentDeviceCodeRedeemResponse,
  AgentDeviceCodeStatus,
  AgentIdBody,
  AgentListExternalAccountsQuery,
  AgentListTransactionsQuery,
  AgentPrincipal,
  AgentsRpc,
  CreateAgentRequest,
  CreateQuoteRequest,
  DeviceCodeBody,
  ExternalAccount,
  InternalAccount,
  ListAgentActionsQuery,
  ListAgentApprovalsQuery,
  ListAgentsQuery,
  Page,
  PageQuery,
  Quote,
  RejectAgentActionRequest,
  RpcRequest,
  Transaction,
  TransferInRequest,
  TransferOutRequest,
  UpdateAgentPolicyRequest,
  UpdateAgentRequest,
} from '@payments/contracts';
import { Handles } from '@payments/runtime';
import type { Agents } from './agents';
import { AGENTS } from './agents.tokens';

/** Thin RPC adapter of the agents service. */
@Controller()
export class AgentsRpcController {
  constructor(@Inject(AGENTS) private readonly agents: Agents) {}

  @Handles(AgentsRpc.create)
  create(r: RpcRequest<CreateAgentRequest>): Promise<AgentCreateResponse> {
    return this.agents.management.create(r.caller, r.body);
  }

  @Handles(AgentsRpc.list)
  list(r: RpcRequest<ListAgentsQuery>): Promise<Page<Agent>> {
    return this.agents.management.list(r.caller, r.body);
  }

  @Handles(AgentsRpc.get)
  get(r: RpcRequest<AgentIdBody>): Promise<Agent> {
    return this.agents.management.get(r.caller, r.body.agentId);
  }

  @Handles(AgentsRpc.update)
  update(r: RpcRequest<AgentIdBody & UpdateAgentRequest>): Promise<Agent> {
    const { agentId, ...request } = r.body;
    return this.agents.management.update(r.caller, agentId, request);
  }

  @Handles(AgentsRpc.delete)
  delete(r: RpcRequest<AgentIdBody>): Promise<null> {
    return this.agents.management.delete(r.caller, r.body.agentId);
  }

  @Handles(AgentsRpc.updatePolicy)
  updatePolicy(r: RpcRequest<AgentIdBody & UpdateAgentPolicyRequest>): Promise<Agent> {
    const { agentId, ...patch } = r.body;
    return this.agents.management.updatePolicy(r.caller, agentId, patch);
  }

  @Handles(AgentsRpc.issueDeviceCode)
  issueDeviceCode(r: RpcRequest<AgentIdBody>): Promise<AgentDeviceCode> {
    return this.agents.management.issueDeviceCode(r.caller, r.body.agentId);
  }

  @Handles(AgentsRpc.deviceCodeStatus)
  deviceCodeStatus(r: RpcRequest<DeviceCodeBody>): Promise<AgentDeviceCodeStatus> {
    return this.agents.management.deviceCodeStatus(r.caller, r.body.code);
  }

  /** The caller is anonymous: the code is the credential. */
  @Handles(AgentsRpc.redeemDeviceCode)
  redeemDeviceCode(r: RpcRequest<DeviceCodeBody>): Promise<AgentDeviceCodeRedeemResponse> {
    return this.agents.management.redeem(String(r.body?.code ?? ''));
  }

  @Handles(AgentsRpc.listAccessTokens)
  listAccessTokens(r: RpcRequest<AgentIdBody & PageQuery>): Promise<Page<AgentAccessToken>> {
    const { agentId, ...query } = r.body;
    return this.agents.management.listAccessTokens(r.caller, agentId, query);
  }

  @Handles(AgentsRpc.revokeAccessToken)
  revokeAccessToken(r: RpcRequest<AgentIdBody & { tokenId: string }>): Promise<null> {
    return this.agents.management.revokeAccessToken(r.caller, r.body.agentId, String(r.body.tokenId ?? ''));
  }

  @Handles(AgentsRpc.authenticate)
  authenticate(payload: { accessToken: string }): Promise<AgentPrincipal> {
    return this.agents.management.authenticate(String(payload?.accessToken ?? ''));
  }

  @Handles(AgentsRpc.listApprovals)
  listApprovals(r: RpcRequest<ListAgentApprovalsQuery>): Promise<Page<AgentAction>> {
    return this.agents.management.listApprovals(r.caller, r.body);
  }

  @Handles(AgentsRpc.approveAction)
  approveAction(r: RpcRequest<AgentActionIdBody>): Promise<AgentAction> {
    return this.agents.management.approve(r.caller, r.body.agentId, r.body.actionId);
  }

  @Handles(AgentsRpc.rejectAction)
  rejectAction(r: RpcRequest<AgentActionIdBody & RejectAgentActionRequest>): Promise<AgentAction> {
    return this.agents.management.reject(r.caller, r.body.agentId, r.body.actionId, r.body.reason);
  }

  @Handles(AgentsRpc.me)
  me(r: RpcRequest<Record<string, never>>): Promise<Agent> {
    return this.agents.operations.me(r.caller);
  }

  @Handles(AgentsRpc.myActions)
  myActions(r: RpcRequest<ListAgentActionsQuery>): Promise<Page<AgentAction>> {
    return this.agents.operations.listActions(r.caller, r.body);
  }

  @Handles(AgentsRpc.myAction)
  myAction(r: RpcRequest<ActionIdBody>): Promise<AgentAction> {
    return this.agents.operations.action(r.caller, r.body.actionId);
  }

  @Handles(AgentsRpc.createQuote)
  createQuote(r: RpcRequest<CreateQuoteRequest>): Promise<Quote> {
    return this.agents.operations.createQuote(r.caller, r.body);
  }

  @Handles(AgentsRpc.getQuote)
  getQuote(r: RpcRequest<{ quoteId: string }>): Promise<Quote> {
    return this.agents.operations.quote(r.caller, r.body.quoteId);
  }

  @Handles(AgentsRpc.executeQuote)
  executeQuote(r: RpcRequest<{ quoteId: string; walletSignature?: string }>): Promise<AgentAction> {
    return this.agents.operations.executeQuote(r.caller, r.body.quoteId, r.body.walletSignature);
  }

  @Handles(AgentsRpc.transferIn)
  transferIn(r: RpcRequest<TransferInRequest>): Promise<AgentAction> {
    return this.agents.operations.transferIn(r.caller, r.body);
  }

  @Handles(AgentsRpc.transferOut)
  transferOut(r: RpcRequest<TransferOutRequest>): Promise<AgentAction> {
    return this.agents.operations.transferOut(r.caller, r.body);
  }

  @Handles(AgentsRpc.myTransactions)
  myTransactions(r: RpcRequest<AgentListTransactionsQuery>): Promise<Page<Transaction>> {
    return this.agents.operations.transactions(r.caller, r.body);
  }

  @Handles(AgentsRpc.myTransaction)
  myTransaction(r: RpcRequest<{ transactionId: string }>): Promise<Transaction> {
    return this.agents.operations.transaction(r.caller, r.body.transactionId);
  }

  @Handles(AgentsRpc.myInternalAccounts)
  myInternalAccounts(r: RpcRequest<PageQuery>): Promise<Page<InternalAccount>> {
    return this.agents.operations.internalAccounts(r.caller, r.body);
  }

  @Handles(AgentsRpc.myExternalAccounts)
  myExternalAccounts(r: RpcRequest<AgentListExternalAccountsQuery>): Promise<Page<ExternalAccount>> {
    return this.agents.operations.externalAccounts(r.caller, r.body);
  }

  @Handles(AgentsRpc.createExternalAccount)
  createExternalAccount(r: RpcRequest<AgentCreateExternalAccountRequest>): Promise<ExternalAccount> {
    return this.agents.operations.createExternalAccount(r.caller, r.body);
  }

  @Handles(AgentsRpc.getExternalAccount)
  getExternalAccount(r: RpcRequest<{ externalAccountId: string }>): Promise<ExternalAccount> {
    return this.agents.operations.externalAccount(r.caller, r.body.externalAccountId);
  }

  @Handles(AgentsRpc.deleteExternalAccount)
  deleteExternalAccount(r: RpcRequest<{ externalAccountId: string }>): Promise<null> {
    return this.agents.operations.deleteExternalAccount(r.caller, r.body.externalAccountId);
  }

  @Handles(AgentsRpc.ping)
  async ping(): Promise<'pong'> {
    return 'pong';
  }
}
