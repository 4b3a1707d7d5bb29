import type { DataSource, EntityManager } from 'typeorm';
import { v7 as uuidv7 } from 'uuid';
import {
  Agent,
  AgentAccessToken,
  AgentAction,
  AgentCreateResponse,
  AgentDeviceCode,
  AgentDeviceCodeRedeemResponse,
  AgentDeviceCodeStatus,
  AgentPrincipal,
  ApiError,
  CallerContext,
  CreateAgentRequest,
  isAgentId,
  ListAgentApprovalsQuery,
  ListAgentsQuery,
  Page,
  PageQuery,
  UpdateAgentPolicyRequest,
  UpdateAgentRequest,
  requireCallerHolds,
} from '@payments/contracts';
import { CommandExecutor, EventMetadata, fold, IdempotencyClaims, PostgresEventStore, queryRows } from '@payments/eventsourcing';
import { idempotencyScopeOf, keysetBodyPage, keysetPage, SqlWhere } from '@payments/runtime';
import type { ActionRunner } from '../actions/action-runner';
import type { AgentSecrets } from '../agent-secrets';
import type { AgentPeers } from '../peers';
import { convertAmount } from '../policy/amounts';
import { platformPermissionsToGrant } from '../policy/policy';
import { patchPolicy, validatePolicy } from '../policy/policy-patch';
import { AgentCommand, agentDecider } from './agent.decider';
import { AgentEvent } from './agent.events';
import { projectAgent } from './agent.projection';
import { AgentState, ExistingAgent } from './agent.state';
import { toAgent } from './agent.view';

/** How long device codes and access tokens work (AGENT_DEVICE_CODE_TTL_SECONDS, AGENT_ACCESS_TOKEN_TTL_SECONDS). */
export interface CredentialLifetimes {
  deviceCodeMs: number;
  accessTokenMs: number;
}

export const DEFAULT_LIFETIMES: CredentialLifetimes = { deviceCodeMs: 15 * 60_000, accessTokenMs: 30 * 86_400_000 };

type Scope = Pick<CallerContext, 'platformId' | 'mode'>;
const notFound = () => new ApiError('AGENT_NOT_FOUND', 'agent not found');
const unauthorized = (message: string) => new ApiError('UNAUTHORIZED', message);
const now = () => new Date().toISOString();

/**
 * Agent Management (platform credentials): agents, their policy, device codes, the access tokens they redeem for, and
 * the platform's approval queue. Codes and tokens are shown once and kept as keyed hashes.
 */
export class AgentManagement {
  constructor(
    private readonly dataSource: DataSource,
    private readonly store: PostgresEventStore,
    private readonly executor: CommandExecutor<EntityManager>,
    private readonly claims: IdempotencyClaims,
    private readonly peers: AgentPeers,
    private readonly secrets: AgentSecrets,
    private readonly actions: ActionRunner,
    private readonly lifetimes: CredentialLifetimes = DEFAULT_LIFETIMES,
  ) {}

  /** One agent per Idempotency-Key; a retry answers the agent with a fresh device code (the first one was shown once). */
  async create(caller: CallerContext, request: CreateAgentRequest): Promise<AgentCreateResponse> {
    requireCallerHolds(caller, platformPermissionsToGrant(request.policy), 'an agent that can move money');
    const agentId = `Agent:${uuidv7()}`;
    return this.claims.run(
      idempotencyScopeOf(caller),
      'agent-create',
      agentId,
      async (claim) => {
        const customer = await this.peers.customer(caller, request.customerId).catch((error: unknown) => {
          if (error instanceof ApiError && (error.status === 404 || error.status === 410)) throw new ApiError('INVALID_INPUT', 'customerId is not a customer of this platform', { errors: [{ field: 'customerId', message: 'no such customer' }] });
          throw error;
        });
        const at = now();
        const terms = { agentId, platformId: caller.platformId, mode: caller.mode, customerId: customer.id, platformCustomerId: customer.platformCustomerId, name: request.name, policy: validatePolicy(request.policy), createdAt: at };
        const code = this.secrets.newDeviceCode();
        const expiresAt = new Date(Date.parse(at) + this.lifetimes.deviceCodeMs).toISOString();
        const metadata = this.metadata(caller);
        await this.executor.execute({ decider: agentDecider, streamId: agentId, platformId: caller.platformId, metadata, command: { type: 'CreateAgent', terms }, newStream: true, claim, project: projectAgent });
        const state = await this.command(caller, agentId, { type: 'IssueDeviceCode', codeHash: this.secrets.codeHash(code), expiresAt, now: at }, metadata);
        return { agent: toAgent(state, now()), deviceCode: { code, agentId, expiresAt, redeemed: false } };
      },
      async (existing) => ({ agent: await this.get(caller, existing), deviceCode: await this.issueDeviceCode(caller, existing) }),
    );
  }

  list(caller: Scope, query: ListAgentsQuery): Promise<Page<Agent>> {
    const where = new SqlWhere()
      .add('platform_id = ?', caller.platformId)
      .add('mode = ?', caller.mode)
      .add('NOT deleted')
      .add('customer_id = ?', query.customerId)
      .add('is_paused = ?', query.isPaused === undefined ? undefined : query.isPaused === 'true')
      .add('is_connected = ?', query.isConnected === undefined ? undefined : query.isConnected === 'true')
      .add('created_at >= ?::timestamptz', query.createdAfter)
      .add('created_at <= ?::timestamptz', query.createdBefore)
      .add('updated_at >= ?::timestamptz', query.updatedAfter)
      .add('updated_at <= ?::timestamptz', query.updatedBefore);
    const at = now();
    return keysetPage<{ agent_id: string; state: ExistingAgent }, Agent>({
      db: this.dataSource,
      from: `FROM agents WHERE ${where.sql}`,
      params: where.params,
      keyColumn: 'agent_id',
      order: 'desc',
      limit: query.limit,
      cursor: query.cursor,
      select: 'agent_id, state',
      toItem: (row) => toAgent(row.state, at),
      keyOf: (row) => row.agent_id,
    });
  }

  async get(caller: Scope, agentId: string): Promise<Agent> {
    return toAgent(await this.existing(caller, agentId), now());
  }

  async update(caller: CallerContext, agentId: string, request: UpdateAgentRequest): Promise<Agent> {
    await this.existing(caller, agentId);
    return toAgent(await this.command(caller, agentId, { type: 'UpdateAgent', name: request.name, isPaused: request.isPaused, now: now() }, this.metadata(caller)), now());
  }

  /** For good: the token stops at once; actions still waiting for approval are rejected. */
  async delete(caller: CallerContext, agentId: string): Promise<null> {
    await this.existing(caller, agentId);
    await this.command(caller, agentId, { type: 'DeleteAgent', now: now() }, this.metadata(caller));
    const waiting = await queryRows<{ action_id: string }>(this.dataSource, `SELECT action_id FROM agent_actions WHERE agent_id = $1 AND status = 'PENDING_APPROVAL'`, [agentId]);
    for (const { action_id } of waiting) await this.actions.reject(caller, action_id, 'AGENT_DELETED').catch(() => undefined);
    return null;
  }

  async updatePolicy(caller: CallerContext, agentId: string, patch: UpdateAgentPolicyRequest): Promise<Agent> {
    const agent = await this.existing(caller, agentId);
    const from = agent.policy.spendingLimits.currency;
    const to = patch.spendingLimits?.currency ?? from;
    const rate = to === from ? undefined : await convertAmount(this.peers, caller, 1_000_000, from, to);
    const recast = (amount: number) => (rate === undefined ? amount : Math.round((amount * rate) / 1_000_000));
    const policy = patchPolicy(agent.policy, patch, recast);
    requireCallerHolds(caller, platformPermissionsToGrant(policy), 'an agent that can move money');
    return toAgent(await this.command(caller, agentId, { type: 'UpdatePolicy', policy, now: now() }, this.metadata(caller)), now());
  }

  /** A new code; earlier codes not yet redeemed stop working. */
  async issueDeviceCode(caller: CallerContext, agentId: string): Promise<AgentDeviceCode> {
    const agent = await this.existing(caller, agentId);
    requireCallerHolds(caller, platformPermissionsToGrant(agent.policy), 'connecting an agent that can move money');
    const code = this.secrets.newDeviceCode();
    const at = now();
    const expiresAt = new Date(Date.parse(at) + this.lifetimes.deviceCodeMs).toISOString();
    await this.command(caller, agentId, { type: 'IssueDeviceCode', codeHash: this.secrets.codeHash(code), expiresAt, now: at }, this.metadata(caller));
    return { code, agentId, expiresAt, redeemed: false };
  }

  async deviceCodeStatus(caller: Scope, code: string): Promise<AgentDeviceCodeStatus> {
    const codeHash = this.secrets.codeHash(code);
    const [row] = await queryRows<{ agent_id: string }>(this.dataSource, `SELECT agent_id FROM agent_device_codes WHERE code_hash = $1 AND platform_id = $2 AND mode = $3`, [codeHash, caller.platformId, caller.mode]);
    const agent = row ? await this.state(row.agent_id) : undefined;
    const known = agent && agent.status === 'ACTIVE' ? agent.deviceCodes.find((c) => c.codeHash === codeHash) : undefined;
    if (!agent || agent.status !== 'ACTIVE' || !known) throw new ApiError('DEVICE_CODE_NOT_FOUND', 'device code not found');
    return { code, redeemed: known.redeemed === true };
  }

  /** No credentials: the code is the proof. The token is shown this once. */
  async redeem(code: string): Promise<AgentDeviceCodeRedeemResponse> {
    const codeHash = this.secrets.codeHash(code);
    const [row] = await queryRows<{ agent_id: string; platform_id: string }>(this.dataSource, `SELECT agent_id, platform_id FROM agent_device_codes WHERE code_hash = $1`, [codeHash]);
    if (!row) throw new ApiError('DEVICE_CODE_NOT_FOUND', 'device code not found');
    const token = this.secrets.newAccessToken();
    const at = now();
    const tokenExpiresAt = new Date(Date.parse(at) + this.lifetimes.accessTokenMs).toISOString();
    const command: AgentCommand = { type: 'RedeemDeviceCode', codeHash, tokenHash: this.secrets.tokenHash(token), tokenId: this.secrets.newTokenId(), tokenExpiresAt, now: at };
    const state = await this.commandOn(row.platform_id, row.agent_id, command, { actor: 'device-code' });
    return { agentId: state.agentId, agentName: state.name, accessToken: token, policy: state.policy };
  }

  /**
   * For the gateway, on every agent request (it keeps no cache of agent tokens): unknown, expired and revoked tokens,
   * deleted and paused agents are refused at once.
   */
  async authenticate(accessToken: string): Promise<AgentPrincipal> {
    if (typeof accessToken !== 'string' || !/^agt_[A-Za-z0-9_-]{43}$/.test(accessToken)) throw unauthorized('the access token is not valid');
    type Row = { agent_id: string; platform_id: string; mode: 'SANDBOX' | 'PRODUCTION'; customer_id: string; is_paused: boolean; deleted: boolean; expired: boolean; revoked: boolean };
    const [row] = await queryRows<Row>(
      this.dataSource,
      `SELECT a.agent_id, a.platform_id, a.mode, a.customer_id, a.is_paused, a.deleted, t.expires_at <= now() AS expired, t.revoked_at IS NOT NULL AS revoked
       FROM agent_tokens t JOIN agents a ON a.agent_id = t.agent_id WHERE t.token_hash = $1`,
      [this.secrets.tokenHash(accessToken)],
    );
    if (!row || row.deleted || row.revoked) throw unauthorized('the access token is not valid');
    if (row.expired) throw unauthorized('the access token expired: redeem a new device code');
    if (row.is_paused) throw unauthorized('the agent is paused');
    return { agentId: row.agent_id, platformId: row.platform_id, mode: row.mode, customerId: row.customer_id };
  }

  /** The agent's access tokens (ids, never the tokens), newest first, with their expiry and whether revoked. */
  async listAccessTokens(caller: Scope, agentId: string, query: PageQuery): Promise<Page<AgentAccessToken>> {
    await this.existing(caller, agentId);
    type Row = { token_id: string; agent_id: string; created_at: Date; expires_at: Date; revoked_at: Date | null };
    const at = Date.now();
    return keysetPage<Row, AgentAccessToken>({
      db: this.dataSource,
      from: 'FROM agent_tokens WHERE agent_id = $1',
      params: [agentId],
      keyColumn: 'token_id',
      order: 'desc',
      limit: query.limit,
      cursor: query.cursor,
      select: 'token_id, agent_id, created_at, expires_at, revoked_at',
      toItem: (row) => ({
        id: row.token_id,
        agentId: row.agent_id,
        status: row.revoked_at ? 'REVOKED' : row.expires_at.getTime() <= at ? 'EXPIRED' : 'ACTIVE',
        createdAt: row.created_at.toISOString(),
        expiresAt: row.expires_at.toISOString(),
      }),
      keyOf: (row) => row.token_id,
    });
  }

  /** One access token stops at once (the gateway asks on every request); the agent's other tokens keep working. */
  async revokeAccessToken(caller: CallerContext, agentId: string, tokenId: string): Promise<null> {
    await this.existing(caller, agentId);
    const [row] = await queryRows<{ revoked: boolean }>(this.dataSource, `SELECT revoked_at IS NOT NULL AS revoked FROM agent_tokens WHERE token_id = $1 AND agent_id = $2`, [tokenId, agentId]);
    if (!row) throw new ApiError('NOT_FOUND', 'agent access token not found');
    if (!row.revoked) await this.command(caller, agentId, { type: 'RevokeAccessToken', tokenId, now: now() }, this.metadata(caller));
    return null;
  }

  listApprovals(caller: Scope, query: ListAgentApprovalsQuery): Promise<Page<AgentAction>> {
    const where = new SqlWhere()
      .add('platform_id = ?', caller.platformId)
      .add('mode = ?', caller.mode)
      .add("status = 'PENDING_APPROVAL'")
      .add('agent_id = ?', query.agentId)
      .add('customer_id = ?', query.customerId)
      .add('created_at >= ?::timestamptz', query.startDate)
      .add('created_at <= ?::timestamptz', query.endDate);
    return keysetBodyPage<AgentAction>({ db: this.dataSource, table: 'agent_actions', keyColumn: 'action_id', where, order: query.sortOrder ?? 'desc', limit: query.limit, cursor: query.cursor });
  }

  async approve(caller: CallerContext, agentId: string, actionId: string): Promise<AgentAction> {
    await this.ownAction(caller, agentId, actionId);
    return this.actions.approve(caller, actionId);
  }

  async reject(caller: CallerContext, agentId: string, actionId: string, reason: string | undefined): Promise<AgentAction> {
    await this.ownAction(caller, agentId, actionId);
    return this.actions.reject(caller, actionId, reason);
  }

  /** The agent's state, when it exists and is not deleted (any platform: the caller checks the scope). */
  async state(agentId: string): Promise<ExistingAgent | undefined> {
    if (!isAgentId(agentId)) return undefined;
    const s = fold(agentDecider, (await this.store.readStream(this.dataSource, agentId)) as unknown as AgentEvent[]) as AgentState;
    return s.status === 'ACTIVE' ? s : undefined;
  }

  async existing(caller: Scope, agentId: string): Promise<ExistingAgent> {
    const s = await this.state(agentId);
    if (!s || s.platformId !== caller.platformId || s.mode !== caller.mode) throw notFound();
    return s;
  }

  private async ownAction(caller: Scope, agentId: string, actionId: string): Promise<void> {
    await this.existing(caller, agentId);
    const [row] = await queryRows<{ agent_id: string }>(this.dataSource, `SELECT agent_id FROM agent_actions WHERE action_id = $1 AND platform_id = $2 AND mode = $3`, [actionId, caller.platformId, caller.mode]);
    if (!row || row.agent_id !== agentId) throw new ApiError('AGENT_ACTION_NOT_FOUND', 'agent action not found');
  }

  private command(caller: CallerContext, agentId: string, command: AgentCommand, metadata: EventMetadata): Promise<ExistingAgent> {
    return this.commandOn(caller.platformId, agentId, command, metadata);
  }

  private async commandOn(platformId: string, agentId: string, command: AgentCommand, metadata: EventMetadata): Promise<ExistingAgent> {
    const result = await this.executor.execute({ decider: agentDecider, streamId: agentId, platformId, metadata, command, project: projectAgent });
    if (result.state.status === 'NONE') throw notFound();
    return result.state as ExistingAgent;
  }

  private metadata(caller: CallerContext): EventMetadata {
    return { correlationId: caller.correlationId, actor: caller.clientId };
  }
}

