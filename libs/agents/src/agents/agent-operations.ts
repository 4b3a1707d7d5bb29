import type { DataSource } from 'typeorm';
import { v7 as uuidv7 } from 'uuid';
import {
  Agent,
  AgentAction,
  AgentCreateExternalAccountRequest,
  AgentListExternalAccountsQuery,
  AgentListTransactionsQuery,
  AgentPermission,
  ApiError,
  CallerContext,
  CreateQuoteRequest,
  ExternalAccount,
  InternalAccount,
  invalidInput,
  ListAgentActionsQuery,
  Page,
  PageQuery,
  Quote,
  Transaction,
  TransferInRequest,
  TransferOutRequest,
} from '@payments/contracts';
import { DomainError, queryRows } from '@payments/eventsourcing';
import { keysetBodyPage, SqlWhere } from '@payments/runtime';
import type { ActionRunner } from '../actions/action-runner';
import { ActionTerms } from '../actions/action.events';
import type { AgentPeers } from '../peers';
import { systemCaller } from '../peers';
import { convertAmount } from '../policy/amounts';
import { accountAllowed, needsApproval, perTransactionLimitFor, requirePermission } from '../policy/policy';
import type { AgentManagement } from './agent-management';
import { ExistingAgent } from './agent.state';
import { toAgent } from './agent.view';

const now = () => new Date().toISOString();
const notFound = (code: string, what: string) => new ApiError(code, `${what} not found`);

/**
 * Agent Operations (an agent's access token; the gateway put the agent on the caller): everything is the agent's
 * customer's, within its policy, and made with the platform as caller once the policy allowed it.
 */
export class AgentOperations {
  constructor(
    private readonly dataSource: DataSource,
    private readonly peers: AgentPeers,
    private readonly management: AgentManagement,
    private readonly actions: ActionRunner,
  ) {}

  async me(caller: CallerContext): Promise<Agent> {
    return toAgent(await this.agent(caller), now());
  }

  async listActions(caller: CallerContext, query: ListAgentActionsQuery): Promise<Page<AgentAction>> {
    const agent = await this.agent(caller);
    const where = new SqlWhere().add('agent_id = ?', agent.agentId).add('status = ?', query.status);
    return keysetBodyPage<AgentAction>({ db: this.dataSource, table: 'agent_actions', keyColumn: 'action_id', where, order: 'desc', limit: query.limit, cursor: query.cursor });
  }

  async action(caller: CallerContext, actionId: string): Promise<AgentAction> {
    const agent = await this.agent(caller);
    const [row] = await queryRows<{ agent_id: string }>(this.dataSource, `SELECT agent_id FROM agent_actions WHERE action_id = $1`, [actionId]);
    if (!row || row.agent_id !== agent.agentId) throw notFound('AGENT_ACTION_NOT_FOUND', 'agent action');
    return this.actions.view(actionId);
  }

  async createQuote(caller: CallerContext, request: CreateQuoteRequest): Promise<Quote> {
    const agent = await this.agent(caller, 'CREATE_QUOTES');
    // Executing is EXECUTE_QUOTES under the policy (limits, approval), through the execute operation; the platform's
    // fees are the platform's to set. An agent's quote is only ever a quote.
    if (request.immediatelyExecute === true) throw invalidInput('immediatelyExecute', 'an agent executes a quote with POST /agents/me/quotes/{quoteId}/execute, where its policy decides');
    if (request.platformFeeOverride !== undefined) throw invalidInput('platformFeeOverride', "an agent cannot set the platform's fees");
    if (request.source.sourceType === 'ACCOUNT') await this.ownAccount(caller, agent, request.source.accountId!, 'source.accountId');
    else if (request.source.customerId !== undefined && request.source.customerId !== agent.customerId) throw this.notOwn('source.customerId');
    if (request.destination.destinationType === 'ACCOUNT') await this.ownAccount(caller, agent, request.destination.accountId!, 'destination.accountId', false);
    const quote = await this.peers.createQuote(this.agentKeyed(caller, agent), request.source.sourceType === 'REALTIME_FUNDING' ? { ...request, source: { ...request.source, customerId: agent.customerId } } : request);
    await this.dataSource.query(`INSERT INTO agent_quotes (quote_id, agent_id) VALUES ($1, $2) ON CONFLICT DO NOTHING`, [quote.id, agent.agentId]);
    return quote;
  }

  async quote(caller: CallerContext, quoteId: string): Promise<Quote> {
    const agent = await this.agent(caller);
    await this.ownQuote(agent, quoteId);
    return this.peers.quote(this.platform(caller), quoteId);
  }

  /** EXECUTE_QUOTES on a quote of this agent; the policy decides whether it runs now or waits for the platform. */
  async executeQuote(caller: CallerContext, quoteId: string, walletSignature: string | undefined): Promise<AgentAction> {
    const agent = await this.agent(caller, 'EXECUTE_QUOTES');
    await this.ownQuote(agent, quoteId);
    // A retry whose first attempt executed the quote (its answer lost in a crash) finds the quote no longer PENDING:
    // it is answered the action that attempt made, as every retry under the same key is.
    const replayed = await this.actions.replayOf(caller, agent.agentId);
    if (replayed) return replayed;
    const quote = await this.peers.quote(this.platform(caller), quoteId);
    if (quote.status !== 'PENDING') throw new ApiError('INVALID_STATE_TRANSITION', `the quote is ${quote.status}, not PENDING`);
    const accountId = 'accountId' in quote.source ? (quote.source.accountId as string) : undefined;
    // The policy may have changed since the quote was made: its source must still be an account the agent may use.
    if (accountId !== undefined && !accountAllowed(agent.policy, accountId)) throw notFound('QUOTE_NOT_FOUND', 'quote');
    return this.submit(caller, agent, { type: 'EXECUTE_QUOTE', quote, ...(walletSignature ? { walletSignature } : {}) }, accountId, quote.totalSendingAmount, quote.sendingCurrency.code);
  }

  async transferOut(caller: CallerContext, request: TransferOutRequest): Promise<AgentAction> {
    const agent = await this.agent(caller, 'CREATE_TRANSFERS');
    const source = await this.ownAccount(caller, agent, request.source.accountId, 'source.accountId');
    await this.ownAccount(caller, agent, request.destination.accountId, 'destination.accountId', false);
    const details = { amount: request.amount, currency: source.currency, sourceAccountId: request.source.accountId, destinationAccountId: request.destination.accountId };
    return this.submit(caller, agent, { type: 'TRANSFER_OUT', transferDetails: details, transfer: request }, request.source.accountId, request.amount, source.currency);
  }

  async transferIn(caller: CallerContext, request: TransferInRequest): Promise<AgentAction> {
    const agent = await this.agent(caller, 'CREATE_TRANSFERS');
    await this.ownAccount(caller, agent, request.source.accountId, 'source.accountId', false);
    const destination = await this.ownAccount(caller, agent, request.destination.accountId, 'destination.accountId');
    const details = { amount: request.amount, currency: destination.currency, sourceAccountId: request.source.accountId, destinationAccountId: request.destination.accountId };
    return this.submit(caller, agent, { type: 'TRANSFER_IN', transferDetails: details, transfer: request }, request.destination.accountId, request.amount, destination.currency);
  }

  async transactions(caller: CallerContext, query: AgentListTransactionsQuery): Promise<Page<Transaction>> {
    const agent = await this.agent(caller, 'VIEW_TRANSACTIONS');
    return this.peers.transactions(this.platform(caller), { ...query, customerId: agent.customerId });
  }

  async transaction(caller: CallerContext, transactionId: string): Promise<Transaction> {
    const agent = await this.agent(caller, 'VIEW_TRANSACTIONS');
    const transaction = await this.peers.transaction(this.platform(caller), transactionId);
    if (transaction.customerId !== agent.customerId) throw notFound('TRANSACTION_NOT_FOUND', 'transaction');
    return transaction;
  }

  async internalAccounts(caller: CallerContext, query: PageQuery): Promise<Page<InternalAccount>> {
    const agent = await this.agent(caller);
    const page = await this.peers.internalAccounts(this.platform(caller), { customerId: agent.customerId, limit: 100 });
    const data = page.data.filter((a) => accountAllowed(agent.policy, a.id));
    const limit = query.limit ?? 20;
    const start = query.cursor ? Math.max(0, data.findIndex((a) => a.id === Buffer.from(query.cursor!, 'base64url').toString()) + 1) : 0;
    const slice = data.slice(start, start + limit);
    const hasMore = start + limit < data.length;
    return { data: slice, hasMore, ...(hasMore ? { nextCursor: Buffer.from(slice[slice.length - 1].id).toString('base64url') } : {}), totalCount: data.length };
  }

  async externalAccounts(caller: CallerContext, query: AgentListExternalAccountsQuery): Promise<Page<ExternalAccount>> {
    const agent = await this.agent(caller, 'MANAGE_EXTERNAL_ACCOUNTS');
    return this.peers.externalAccounts(this.platform(caller), { ...query, customerId: agent.customerId });
  }

  async createExternalAccount(caller: CallerContext, request: AgentCreateExternalAccountRequest): Promise<ExternalAccount> {
    const agent = await this.agent(caller, 'MANAGE_EXTERNAL_ACCOUNTS');
    if (request.customerId !== undefined && request.customerId !== agent.customerId) throw notFound('USER_NOT_FOUND', 'customer');
    return this.peers.createExternalAccount(this.agentKeyed(caller, agent), { ...request, customerId: agent.customerId });
  }

  async externalAccount(caller: CallerContext, externalAccountId: string): Promise<ExternalAccount> {
    const agent = await this.agent(caller, 'MANAGE_EXTERNAL_ACCOUNTS');
    return this.ownExternal(caller, agent, externalAccountId);
  }

  async deleteExternalAccount(caller: CallerContext, externalAccountId: string): Promise<null> {
    const agent = await this.agent(caller, 'MANAGE_EXTERNAL_ACCOUNTS');
    await this.ownExternal(caller, agent, externalAccountId);
    return this.peers.deleteExternalAccount(this.platform(caller), externalAccountId);
  }

  /** Allowance, approval and the action: amounts in the action's currency, converted for the limits and the threshold. */
  private async submit(caller: CallerContext, agent: ExistingAgent, what: Pick<ActionTerms, 'type' | 'quote' | 'walletSignature' | 'transferDetails' | 'transfer'>, accountId: string | undefined, amount: number, currency: string): Promise<AgentAction> {
    const policy = agent.policy;
    const platform = this.platform(caller);
    const inLimits = await convertAmount(this.peers, platform, amount, currency, policy.spendingLimits.currency);
    const threshold = policy.approvalThresholds;
    const inThreshold = threshold?.currency && typeof threshold.amount === 'number' ? await convertAmount(this.peers, platform, amount, currency, threshold.currency) : undefined;
    const terms: ActionTerms = {
      actionId: `AgentAction:${uuidv7()}`,
      agentId: agent.agentId,
      platformId: agent.platformId,
      mode: agent.mode,
      customerId: agent.customerId,
      platformCustomerId: agent.platformCustomerId,
      ...what,
      needsApproval: needsApproval(policy, accountId ?? '', inThreshold),
      createdAt: now(),
    };
    return this.actions.submit(caller, terms, { amount: inLimits, perTransactionLimit: perTransactionLimitFor(policy, accountId ?? '') });
  }

  /** The caller's agent (deleted or paused: 401, as the gateway would have said), with the permission checked. */
  private async agent(caller: CallerContext, permission?: AgentPermission): Promise<ExistingAgent> {
    if (!caller.agent) throw new ApiError('UNAUTHORIZED', 'Agent Operations need an agent access token');
    const agent = await this.management.state(caller.agent.agentId);
    if (!agent || agent.platformId !== caller.platformId || agent.mode !== caller.mode) throw new ApiError('UNAUTHORIZED', 'the access token is not valid');
    if (agent.isPaused) throw new ApiError('UNAUTHORIZED', 'the agent is paused');
    if (permission) {
      try {
        requirePermission(agent.policy, permission);
      } catch (error) {
        throw error instanceof DomainError ? new ApiError(error.code, error.message) : error;
      }
    }
    return agent;
  }

  /** An account of the agent's customer (and, for internal accounts the agent moves money from or to, one the policy allows); 404 otherwise. */
  private async ownAccount(caller: CallerContext, agent: ExistingAgent, accountId: string, field: string, restricted = true): Promise<{ currency: string }> {
    const account = await this.peers.accountCurrency(this.platform(caller), accountId).catch((error: unknown) => {
      if (error instanceof ApiError && error.status === 404) return undefined;
      throw error;
    });
    if (!account || account.customerId !== agent.customerId) throw this.notOwn(field);
    if (restricted && account.kind === 'INTERNAL' && !accountAllowed(agent.policy, accountId)) throw this.notOwn(field);
    return account;
  }

  private notOwn(field: string): ApiError {
    return new ApiError('REFERENCE_NOT_FOUND', `${field} is not an account of the agent's customer that its policy allows`, { errors: [{ field, message: 'not found' }] });
  }

  private async ownQuote(agent: ExistingAgent, quoteId: string): Promise<void> {
    const [row] = await queryRows<{ agent_id: string }>(this.dataSource, `SELECT agent_id FROM agent_quotes WHERE quote_id = $1`, [quoteId]);
    if (!row || row.agent_id !== agent.agentId) throw notFound('QUOTE_NOT_FOUND', 'quote');
  }

  private async ownExternal(caller: CallerContext, agent: ExistingAgent, externalAccountId: string): Promise<ExternalAccount> {
    const account = await this.peers.externalAccount(this.platform(caller), externalAccountId);
    if (account.customerId !== agent.customerId) throw notFound('REFERENCE_NOT_FOUND', 'external account');
    return account;
  }

  private platform(caller: CallerContext): CallerContext {
    return systemCaller(caller.platformId, caller.mode, { correlationId: caller.correlationId });
  }

  /**
   * The platform as caller, with the agent's Idempotency-Key scoped to the agent (as the action runner does): the
   * service claims keys per platform, so two agents, or an agent and its platform, never share an effect by key.
   */
  private agentKeyed(caller: CallerContext, agent: ExistingAgent): CallerContext {
    const idempotency = caller.idempotency ? { key: `${agent.agentId}:${caller.idempotency.key}`, requestHash: caller.idempotency.requestHash } : undefined;
    return { ...this.platform(caller), ...(idempotency ? { idempotency } : {}) };
  }
}
