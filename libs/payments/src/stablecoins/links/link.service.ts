import type { DataSource, EntityManager } from 'typeorm';
import { v5 as uuidv5 } from 'uuid';
import {
  ApiError,
  CallerContext,
  isStablecoinProviderAccountId,
  LinkStablecoinProviderAccountRequest,
  ListStablecoinProviderAccountsQuery,
  Page,
  StablecoinProviderAccount,
  StablecoinProviderAccountStatus,
} from '@payments/contracts';
import { ClaimInTransaction, CommandExecutor, fold, IdempotencyClaims, PostgresEventStore, queryRows } from '@payments/eventsourcing';
import { idempotencyScopeOf, keysetBodyPage, SecretSealer, SqlWhere } from '@payments/runtime';
import type { ProviderCredentials } from '../provider/provider.port';
import type { StablecoinProviders } from '../stablecoin-providers';
import { projectLink } from '../stablecoins.projections';
import { ExistingLink, LinkCommand, linkDecider, LinkEvent, LinkTerms, toProviderAccount } from './link.decider';

const LINK_NAMESPACE = '3b1f7c52-8e0d-4d6a-9a41-0c7e52b9d1a4';
type Scope = Pick<CallerContext, 'platformId' | 'mode'>;

const notFound = () => new ApiError('STABLECOIN_PROVIDER_ACCOUNT_NOT_FOUND', 'stablecoin provider account link not found');
const unusable: Record<Exclude<StablecoinProviderAccountStatus, 'ACTIVE'>, () => ApiError> = {
  INVALID: () => new ApiError('STABLECOIN_PROVIDER_ACCOUNT_INVALID', 'the provider no longer accepts this link\'s credentials; link the provider account again'),
  REVOKED: () => new ApiError('STABLECOIN_PROVIDER_ACCOUNT_REVOKED', 'the provider revoked this link\'s credentials; link the provider account again'),
};

/**
 * Provider account links (docs/stablecoins.md): credentials verified with the provider, the secret sealed under a key
 * derived from SECRET_HASH_KEY and bound to the link id, re-verified before each use.
 */
export class LinkService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly store: PostgresEventStore,
    private readonly executor: CommandExecutor<EntityManager>,
    private readonly claims: IdempotencyClaims,
    private readonly providers: StablecoinProviders,
    private readonly sealer: SecretSealer,
  ) {}

  async link(caller: CallerContext, request: LinkStablecoinProviderAccountRequest, now: string): Promise<StablecoinProviderAccount> {
    const provider = this.providers.for(caller.mode);
    const credentials: ProviderCredentials = { owner: `${caller.platformId}/${caller.mode}`, environment: caller.mode, apiClientId: request.apiClientId, apiClientSecret: request.apiClientSecret };
    const check = await provider.verify(credentials, true);
    if (check.status !== 'ACTIVE') throw new ApiError(check.status === 'REVOKED' ? 'STABLECOIN_PROVIDER_ACCOUNT_REVOKED' : 'STABLECOIN_PROVIDER_ACCOUNT_INVALID', 'the provider refused these credentials');
    const providerAccountId = chooseAccount(check.providerAccountIds, request.providerAccountId);
    const linkId = `StablecoinProviderAccount:${uuidv5(`${caller.platformId}/${caller.mode}/${request.provider}/${providerAccountId}`, LINK_NAMESPACE)}`;
    const terms: LinkTerms = {
      linkId,
      platformId: caller.platformId,
      mode: caller.mode,
      provider: request.provider,
      providerAccountId,
      providerEnvironment: caller.mode,
      apiClientId: request.apiClientId,
      sealedSecret: this.sealer.seal(request.apiClientSecret, linkId),
      at: now,
    };
    return this.claims.run(
      idempotencyScopeOf(caller),
      'stablecoin-provider-link',
      linkId,
      async (claim) => this.view(await this.execute(caller.platformId, linkId, { type: 'Link', terms }, claim)),
      (existing) => this.get(caller, existing),
    );
  }

  async get(caller: Scope, linkId: string): Promise<StablecoinProviderAccount> {
    const rows = isStablecoinProviderAccountId(linkId)
      ? await queryRows<{ body: StablecoinProviderAccount }>(this.dataSource, `SELECT body FROM stablecoin_provider_accounts WHERE link_id = $1 AND platform_id = $2 AND mode = $3`, [linkId, caller.platformId, caller.mode])
      : [];
    if (!rows[0]) throw notFound();
    return rows[0].body;
  }

  list(caller: Scope, query: ListStablecoinProviderAccountsQuery): Promise<Page<StablecoinProviderAccount>> {
    const where = new SqlWhere().add('platform_id = ?', caller.platformId).add('mode = ?', caller.mode).add('provider = ?', query.provider).add('status = ?', query.status);
    return keysetBodyPage<StablecoinProviderAccount>({ db: this.dataSource, table: 'stablecoin_provider_accounts', keyColumn: 'sort_key', where, order: 'desc', limit: query.limit, cursor: query.cursor });
  }

  /** The ACTIVE links of the caller's platform and mode (registration picks the one when none is named). */
  async activeLinkIds(caller: Scope): Promise<string[]> {
    const rows = await queryRows<{ link_id: string }>(this.dataSource, `SELECT link_id FROM stablecoin_provider_accounts WHERE platform_id = $1 AND mode = $2 AND status = 'ACTIVE'`, [caller.platformId, caller.mode]);
    return rows.map((r) => r.link_id);
  }

  /**
   * The link re-verified with the provider now (its status recorded), for an operation that is about to use it: 400
   * STABLECOIN_PROVIDER_ACCOUNT_INVALID / _REVOKED unless the provider still accepts it.
   */
  async usable(caller: Scope, linkId: string, now: string): Promise<{ link: ExistingLink; credentials: ProviderCredentials }> {
    const link = await this.load(caller, linkId);
    const credentials = this.credentials(link);
    const check = link.linkStatus === 'REVOKED' ? { status: 'REVOKED' as const } : await this.providers.for(caller.mode).verify(credentials, false);
    const after = await this.execute(link.platformId, link.linkId, { type: 'RecordVerification', status: check.status, at: now });
    if (after.linkStatus !== 'ACTIVE') throw unusable[after.linkStatus]();
    return { link: after, credentials };
  }

  /** A link's credentials, the secret opened for this call only (timers use them with no caller). */
  async credentialsOf(linkId: string): Promise<{ link: ExistingLink; credentials: ProviderCredentials }> {
    const link = await this.fold(linkId);
    if (link.status === 'NONE') throw notFound();
    return { link, credentials: this.credentials(link) };
  }

  private credentials(link: ExistingLink): ProviderCredentials {
    return { owner: link.linkId, environment: link.providerEnvironment, apiClientId: link.apiClientId, apiClientSecret: this.sealer.open(link.sealedSecret, link.linkId) };
  }

  private async load(caller: Scope, linkId: string): Promise<ExistingLink> {
    if (!isStablecoinProviderAccountId(linkId)) throw notFound();
    const link = await this.fold(linkId);
    if (link.status === 'NONE' || link.platformId !== caller.platformId || link.mode !== caller.mode) throw notFound();
    return link;
  }

  private async fold(linkId: string) {
    return fold(linkDecider, (await this.store.readStream(this.dataSource, linkId)) as unknown as LinkEvent[]);
  }

  private async execute(platformId: string, linkId: string, command: LinkCommand, claim?: ClaimInTransaction): Promise<ExistingLink> {
    const result = await this.executor.execute({ decider: linkDecider, streamId: linkId, platformId, command, project: projectLink, claim, metadata: { correlationId: linkId } });
    if (result.state.status === 'NONE') throw notFound();
    return result.state;
  }

  private view(link: ExistingLink): StablecoinProviderAccount {
    return toProviderAccount(link);
  }
}

/** The provider account the credentials reach: the one named (it must be among them), or the only one. */
function chooseAccount(reachable: string[], named: string | undefined): string {
  if (named !== undefined) {
    if (!reachable.includes(named)) throw new ApiError('INVALID_INPUT', 'providerAccountId is not reachable with these credentials', { errors: [{ field: 'providerAccountId', message: 'not an account of these credentials' }] });
    return named;
  }
  if (reachable.length === 1) return reachable[0];
  if (reachable.length === 0) throw new ApiError('STABLECOIN_PROVIDER_ACCOUNT_INVALID', 'these credentials reach no provider account');
  throw new ApiError('STABLECOIN_PROVIDER_ACCOUNT_SELECTION_REQUIRED', `these credentials reach ${reachable.length} provider accounts; name one in providerAccountId`);
}
