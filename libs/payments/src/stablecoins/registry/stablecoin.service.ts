import type { DataSource, EntityManager } from 'typeorm';
import { v5 as uuidv5 } from 'uuid';
import { sparkTokenIdentifierProblem } from '@payments/addresses';
import { ApiError, CallerContext, invalidInput, isStablecoinId, ListStablecoinsQuery, Page, RegisterStablecoinRequest, Stablecoin } from '@payments/contracts';
import { CommandExecutor, fold, IdempotencyClaims, PostgresEventStore, queryRows } from '@payments/eventsourcing';
import { idempotencyScopeOf, keysetBodyPage, SqlWhere } from '@payments/runtime';
import type { LinkService } from '../links/link.service';
import type { StablecoinProviders } from '../stablecoin-providers';
import { projectStablecoin } from '../stablecoins.projections';
import { stablecoinDecider, StablecoinEvent, StablecoinTerms, toStablecoin } from './stablecoin.decider';

const STABLECOIN_NAMESPACE = 'c4a9e0d2-5b7f-4e13-8f26-9d0b1a7e6c35';
type Scope = Pick<CallerContext, 'platformId' | 'mode'>;

const notFound = () => new ApiError('REFERENCE_NOT_FOUND', 'stablecoin not found');

/** Registered stablecoins: provider metadata linked to the platform (registration creates no token). */
export class StablecoinService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly store: PostgresEventStore,
    private readonly executor: CommandExecutor<EntityManager>,
    private readonly claims: IdempotencyClaims,
    private readonly providers: StablecoinProviders,
    private readonly links: LinkService,
  ) {}

  async register(caller: CallerContext, request: RegisterStablecoinRequest, now: string): Promise<Stablecoin> {
    const provider = this.providers.for(caller.mode);
    const problem = sparkTokenIdentifierProblem(request.networkTokenIdentifier, caller.mode === 'PRODUCTION');
    if (problem) throw invalidInput('networkTokenIdentifier', `networkTokenIdentifier ${problem}`);
    const linkId = request.stablecoinProviderAccountId ?? (await this.onlyActiveLink(caller));
    const { link, credentials } = await this.links.usable(caller, linkId, now);
    const token = await provider.token(credentials, link.providerAccountId, request.providerTokenIdentifier);
    const id = `Stablecoin:${uuidv5(`${caller.platformId}/${caller.mode}/${request.network}/${request.networkTokenIdentifier}`, STABLECOIN_NAMESPACE)}`;
    const terms: StablecoinTerms = {
      id,
      platformId: caller.platformId,
      mode: caller.mode,
      name: token.name,
      symbol: token.symbol,
      baseCurrency: token.baseCurrency,
      network: request.network,
      decimals: token.decimals,
      issuanceStatus: token.issuanceStatus,
      // Enabling a token for Grid operations (internal balances) is an operator decision this API does not take.
      gridOperationsStatus: 'NOT_ENABLED',
      networkTokenIdentifier: request.networkTokenIdentifier,
      provider: link.provider,
      stablecoinProviderAccountId: link.linkId,
      providerEnvironment: link.providerEnvironment,
      providerTokenIdentifier: request.providerTokenIdentifier,
      providerAccountId: link.providerAccountId,
      createdAt: now,
    };
    return this.claims.run(
      idempotencyScopeOf(caller),
      'stablecoin-register',
      id,
      async (claim) => {
        await this.executor.execute({ decider: stablecoinDecider, streamId: id, platformId: caller.platformId, command: { type: 'Register', terms }, project: projectStablecoin, claim, metadata: { correlationId: caller.correlationId, actor: caller.clientId } });
        return toStablecoin(terms);
      },
      (existing) => this.get(caller, existing),
    );
  }

  async get(caller: Scope, stablecoinId: string): Promise<Stablecoin> {
    const rows = isStablecoinId(stablecoinId) ? await queryRows<{ body: Stablecoin }>(this.dataSource, `SELECT body FROM stablecoins WHERE stablecoin_id = $1 AND platform_id = $2 AND mode = $3`, [stablecoinId, caller.platformId, caller.mode]) : [];
    if (!rows[0]) throw notFound();
    return rows[0].body;
  }

  list(caller: Scope, query: ListStablecoinsQuery): Promise<Page<Stablecoin>> {
    const where = new SqlWhere()
      .add('platform_id = ?', caller.platformId)
      .add('mode = ?', caller.mode)
      .add('issuance_status = ?', query.issuanceStatus)
      .add('grid_operations_status = ?', query.gridOperationsStatus)
      .add('provider = ?', query.provider);
    return keysetBodyPage<Stablecoin>({ db: this.dataSource, table: 'stablecoins', keyColumn: 'sort_key', where, order: 'desc', limit: query.limit, cursor: query.cursor });
  }

  /** The registration with what operations need beyond the API view (the provider account). */
  async load(caller: Scope, stablecoinId: string): Promise<StablecoinTerms> {
    if (!isStablecoinId(stablecoinId)) throw notFound();
    const state = fold(stablecoinDecider, (await this.store.readStream(this.dataSource, stablecoinId)) as unknown as StablecoinEvent[]);
    if (state.status === 'NONE' || state.terms.platformId !== caller.platformId || state.terms.mode !== caller.mode) throw notFound();
    return state.terms;
  }

  private async onlyActiveLink(caller: Scope): Promise<string> {
    const active = await this.links.activeLinkIds(caller);
    if (active.length === 0) throw new ApiError('STABLECOIN_PROVIDER_ACCOUNT_NOT_FOUND', 'no ACTIVE stablecoin provider account link; link one first (POST /stablecoin-provider-accounts)');
    if (active.length > 1) throw new ApiError('STABLECOIN_PROVIDER_ACCOUNT_SELECTION_REQUIRED', `${active.length} ACTIVE provider account links exist; name one in stablecoinProviderAccountId`);
    return active[0];
  }
}
