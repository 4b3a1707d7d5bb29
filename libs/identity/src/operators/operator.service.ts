import type { DataSource, EntityManager } from 'typeorm';
import { v7 as uuidv7 } from 'uuid';
import {
  ApiError,
  CallerContext,
  isOperatorRole,
  ListOperatorPlatformsQuery,
  operatorActionStream,
  OperatorPlatformView,
  OperatorPrincipal,
  OperatorRole,
  OperatorView,
  Page,
  requireOperator,
  VerifyOperatorCredentialRequest,
} from '@payments/contracts';
import { CommandExecutor, queryRows } from '@payments/eventsourcing';
import { keysetPage } from '@payments/runtime';
import { generateClientSecret, SecretHasher } from '../credentials/secrets';
import { operatorDecider } from './operator.decider';
import { projectOperator } from './operator.projection';

/** An operator as `operator:create` prints it: the secret appears here once, only its keyed hash is stored. */
export interface CreatedOperator {
  id: string;
  name: string;
  role: OperatorRole;
  clientId: string;
  clientSecret: string;
}

/**
 * Who created or disabled an operator from the command line: the audit log names the CLI (and the OS user that ran
 * it, when known) as the actor, since no operator credential is involved.
 */
export const ADMIN_CLI_ACTOR: OperatorPrincipal = { operatorId: 'admin-cli', name: `admin CLI${process.env.USER ? ` (${process.env.USER})` : ''}`, role: 'ADMIN' };

interface OperatorRow {
  operator_id: string;
  name: string;
  role: OperatorRole;
  secret_hash: string;
  created_at: Date;
  disabled_at: Date | null;
}

/** Operators of the deployment: created and disabled by `npm run admin`, authenticated by the gateway on /operator/v1. */
export class OperatorService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly executor: CommandExecutor<EntityManager>,
    private readonly hasher: SecretHasher,
  ) {}

  async create(name: string, role: OperatorRole, actor: OperatorPrincipal = ADMIN_CLI_ACTOR, now = new Date().toISOString()): Promise<CreatedOperator> {
    if (!isOperatorRole(role)) throw new ApiError('INVALID_INPUT', `role must be one of VIEWER, REVIEWER, ADMIN`);
    const operatorId = `Operator:${uuidv7()}`;
    // Not a uuid alone: an operator's client id says what it is in logs and in the Basic user part (never a colon).
    const clientId = `op_${uuidv7()}`;
    const clientSecret = generateClientSecret();
    const result = await this.executor.execute({
      decider: operatorDecider,
      streamId: operatorId,
      newStream: true,
      command: { type: 'CreateOperator', operatorId, name, role, clientId, secretHash: this.hasher.hash(clientSecret), now },
      project: projectOperator,
      also: [operatorActionStream({ actionId: uuidv7(), operator: actor, action: 'operator.create', target: { type: 'Operator', id: operatorId }, details: { name: name.trim(), role }, occurredAt: now })],
    });
    const state = result.state as { name: string };
    return { id: operatorId, name: state.name, role, clientId, clientSecret };
  }

  async disable(operatorId: string, actor: OperatorPrincipal = ADMIN_CLI_ACTOR, now = new Date().toISOString()): Promise<void> {
    await this.executor.execute({
      decider: operatorDecider,
      streamId: operatorId,
      command: { type: 'DisableOperator', operatorId, now },
      project: projectOperator,
      also: [operatorActionStream({ actionId: uuidv7(), operator: actor, action: 'operator.disable', target: { type: 'Operator', id: operatorId }, occurredAt: now })],
    });
  }

  async list(): Promise<(OperatorView & { disabledAt?: string })[]> {
    const rows = await queryRows<OperatorRow>(this.dataSource, `SELECT * FROM operators ORDER BY operator_id COLLATE "C"`);
    return rows.map((r) => ({ ...view(r), ...(r.disabled_at ? { disabledAt: r.disabled_at.toISOString() } : {}) }));
  }

  /** The gateway's check on every operator request: a disabled operator, or any wrong part, is the same 401. */
  async verify(request: VerifyOperatorCredentialRequest): Promise<OperatorPrincipal> {
    const rows = await queryRows<OperatorRow & { client_id: string }>(this.dataSource, `SELECT * FROM operators WHERE client_id = $1`, [String(request?.clientId ?? '')]);
    const row = rows[0];
    const matches = this.hasher.verify(String(request?.clientSecret ?? ''), row?.secret_hash);
    if (!row || !matches || row.disabled_at) throw new ApiError('UNAUTHORIZED', 'invalid client credentials');
    return { operatorId: row.operator_id, name: row.name, role: row.role };
  }

  async me(caller: CallerContext): Promise<OperatorView> {
    const { operatorId } = requireOperator(caller, 'VIEWER');
    const [row] = await queryRows<OperatorRow>(this.dataSource, `SELECT * FROM operators WHERE operator_id = $1`, [operatorId]);
    if (!row) throw new ApiError('NOT_FOUND', 'no such operator');
    return view(row);
  }

  /** Every platform of the deployment, oldest first (operators oversee them all). */
  listPlatforms(query: ListOperatorPlatformsQuery): Promise<Page<OperatorPlatformView>> {
    return keysetPage<{ platform_id: string; name: string; created_at: Date }, OperatorPlatformView>({
      db: this.dataSource,
      from: 'FROM platforms WHERE TRUE',
      params: [],
      keyColumn: 'platform_id',
      order: 'asc',
      limit: query.limit,
      cursor: query.cursor,
      toItem: (r) => ({ id: r.platform_id, name: r.name, createdAt: r.created_at.toISOString() }),
      keyOf: (r) => r.platform_id,
    });
  }
}

const view = (r: OperatorRow): OperatorView => ({ id: r.operator_id, name: r.name, role: r.role, createdAt: r.created_at.toISOString() });
