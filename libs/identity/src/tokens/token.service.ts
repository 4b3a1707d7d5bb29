import type { DataSource, EntityManager } from 'typeorm';
import { v7 as uuidv7 } from 'uuid';
import { ApiError, ApiToken, CallerContext, CreateTokenRequest, isTokenId, ListTokensQuery, Mode, Page, Permission, requireCallerHolds } from '@payments/contracts';
import { CommandExecutor, IdempotencyClaims } from '@payments/eventsourcing';
import { idempotencyScopeOf, keysetPage, SqlWhere } from '@payments/runtime';
import { generateClientId, generateClientSecret, SecretHasher } from '../credentials/secrets';
import { tokenDecider } from './token.decider';
import { projectToken } from './token.projection';

interface TokenRow {
  token_id: string;
  client_id: string;
  mode: Mode;
  name: string;
  permissions: Permission[];
  created_at: Date;
  updated_at: Date;
}

export interface NewToken {
  platformId: string;
  mode: Mode;
  name: string;
  permissions: Permission[];
  /** Given for bootstrap credentials from the environment; generated otherwise. */
  clientId?: string;
  clientSecret?: string;
  tokenId?: string;
}

/** API tokens: client id and secret pairs scoped to one platform and one mode. */
export class TokenService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly executor: CommandExecutor<EntityManager>,
    private readonly hasher: SecretHasher,
    private readonly claims: IdempotencyClaims,
  ) {}

  /** Appends inside the caller's transaction; the only time the secret is visible is this return value. */
  async issue(tx: EntityManager, token: NewToken, now: string): Promise<ApiToken> {
    const tokenId = token.tokenId ?? `Token:${uuidv7()}`;
    const clientId = token.clientId ?? generateClientId();
    const clientSecret = token.clientSecret ?? generateClientSecret();
    await this.executor.decideAndAppend(tx, {
      decider: tokenDecider,
      streamId: tokenId,
      platformId: token.platformId,
      command: { type: 'CreateToken', tokenId, platformId: token.platformId, mode: token.mode, name: token.name, permissions: token.permissions, clientId, secretHash: this.hasher.hash(clientSecret), now },
      project: projectToken,
    });
    const [row] = await tx.query(`SELECT * FROM api_tokens WHERE token_id = $1`, [tokenId]);
    return { ...toApiToken(row), clientSecret };
  }

  /** One token per Idempotency-Key: a retry (also after a crash) answers it without its secret, which is shown once. */
  async create(caller: CallerContext, request: CreateTokenRequest, now: string): Promise<ApiToken> {
    requireCallerHolds(caller, request.permissions, 'a token with these permissions');
    const tokenId = `Token:${uuidv7()}`;
    return this.claims.run(
      idempotencyScopeOf(caller),
      'token-create',
      tokenId,
      (claim) =>
        this.dataSource.transaction(async (tx) => {
          const token = await this.issue(tx, { platformId: caller.platformId, mode: caller.mode, ...request, tokenId }, now);
          await claim(tx);
          return token;
        }),
      (id) => this.get(caller, id),
    );
  }

  async get(caller: CallerContext, tokenId: string): Promise<ApiToken> {
    const rows: TokenRow[] = isTokenId(tokenId)
      ? await this.dataSource.query(`SELECT * FROM api_tokens WHERE token_id = $1 AND platform_id = $2 AND mode = $3 AND deleted_at IS NULL`, [tokenId, caller.platformId, caller.mode])
      : [];
    if (rows.length === 0) throw new ApiError('TOKEN_NOT_FOUND', 'token not found');
    return toApiToken(rows[0]);
  }

  list(caller: CallerContext, query: ListTokensQuery): Promise<Page<ApiToken>> {
    const where = new SqlWhere()
      .add('platform_id = ?', caller.platformId)
      .add('mode = ?', caller.mode)
      .add('deleted_at IS NULL')
      .add('name = ?', query.name)
      .add('created_at > ?', query.createdAfter)
      .add('created_at < ?', query.createdBefore)
      .add('updated_at > ?', query.updatedAfter)
      .add('updated_at < ?', query.updatedBefore);
    return keysetPage<TokenRow, ApiToken>({
      db: this.dataSource,
      from: `FROM api_tokens WHERE ${where.sql}`,
      params: where.params,
      keyColumn: 'token_id',
      limit: query.limit,
      cursor: query.cursor,
      toItem: toApiToken,
      keyOf: (row) => row.token_id,
    });
  }

  /** Returns the deleted token's client id so the gateway can drop it from its cache at once. */
  async delete(caller: CallerContext, tokenId: string, now: string): Promise<{ clientId: string }> {
    if (!isTokenId(tokenId)) throw new ApiError('TOKEN_NOT_FOUND', 'token not found');
    const result = await this.executor.execute({
      decider: tokenDecider,
      streamId: tokenId,
      platformId: caller.platformId,
      metadata: { correlationId: caller.correlationId, actor: caller.clientId },
      command: { type: 'DeleteToken', platformId: caller.platformId, mode: caller.mode, now },
      project: projectToken,
    });
    if (result.state.status === 'NONE') throw new ApiError('TOKEN_NOT_FOUND', 'token not found');
    return { clientId: result.state.clientId };
  }
}

function toApiToken(row: TokenRow): ApiToken {
  return {
    id: row.token_id,
    name: row.name,
    permissions: row.permissions,
    mode: row.mode,
    clientId: row.client_id,
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}
