import type { DataSource, EntityManager } from 'typeorm';
import { v5 as uuidv5, v7 as uuidv7 } from 'uuid';
import {
  ApiError,
  CallerContext,
  isStablecoinOperationId,
  ListStablecoinOperationsQuery,
  Page,
  StablecoinBurnRequest,
  StablecoinMintRequest,
  StablecoinOperation,
} from '@payments/contracts';
import { ClaimInTransaction, CommandExecutor, fold, IdempotencyClaims, PostgresEventStore, queryRows, TimerHandler, TimerRow } from '@payments/eventsourcing';
import { idempotencyScopeOf, keysetBodyPage, SqlWhere } from '@payments/runtime';
import type { Peers } from '../../rpc/peers';
import { systemCaller } from '../../rpc/peers';
import type { LinkService } from '../links/link.service';
import type { ProviderCredentials, ProviderOperationRequest, ProviderReport } from '../provider/provider.port';
import type { StablecoinService } from '../registry/stablecoin.service';
import type { StablecoinProviders } from '../stablecoin-providers';
import { projectOperation } from '../stablecoins.projections';
import { isFinal, OperationCommand, operationDecider } from './operation.decider';
import { OperationEvent, OperationTerms } from './operation.events';
import type { CustomerDirectory } from '../../customers/customer-directory';
import { OperationRequests } from './operation-requests';
import { ExistingOperation, OperationState } from './operation.state';

export const STABLECOIN_STEP_TIMER = 'payments.stablecoin.step';
const TIMER_NAMESPACE = '6f0e2b8d-1c93-4a57-b2e4-8d5a0c7f3e19';
/** Before the first inline step finishes, a timer is already due to take over if this process dies. */
const SAFETY_NET_MS = 5_000;
/** Never poll faster than this, whatever the provider says. */
const POLL_MIN_MS = 50;
type Scope = Pick<CallerContext, 'platformId' | 'mode'>;

const notFound = () => new ApiError('REFERENCE_NOT_FOUND', 'stablecoin operation not found');
export const holdIdOf = (operationId: string) => `${operationId}/hold`;
export const fiatEntryIdOf = (operationId: string) => `${operationId}/fiat`;

/**
 * Mint and burn operations (docs/stablecoins.md). Creating one records it CREATED; one idempotent step function then
 * moves it as the provider answers (submission, funding, processing, completion or failure, expiry), run inline after
 * each change and by durable timers, so a crash or restart resumes where it stopped. The fiat leg is posted to the
 * ledger (by an id derived from the operation) before the completion is recorded.
 */
export class OperationService {
  private readonly requests: OperationRequests;

  constructor(
    private readonly dataSource: DataSource,
    private readonly store: PostgresEventStore,
    private readonly executor: CommandExecutor<EntityManager>,
    private readonly timers: { schedule(tx: EntityManager | DataSource, timer: { id: string; name: string; delayMs: number; realTime: boolean; streamId: string; platformId: string; payload: Record<string, unknown> }): Promise<string> },
    private readonly claims: IdempotencyClaims,
    private readonly providers: StablecoinProviders,
    private readonly links: LinkService,
    private readonly stablecoins: StablecoinService,
    private readonly peers: Peers,
    customers: CustomerDirectory,
    private readonly log?: (message: string, error?: unknown) => void,
  ) {
    this.requests = new OperationRequests(peers, customers);
  }

  mint(caller: CallerContext, request: StablecoinMintRequest & { stablecoinId: string }, now: string): Promise<StablecoinOperation> {
    return this.create(caller, 'stablecoin-mint', request.stablecoinId, request.amount, request.description, now, (stablecoin, common) => this.requests.mintTerms(caller, stablecoin, request, common));
  }

  burn(caller: CallerContext, request: StablecoinBurnRequest & { stablecoinId: string }, now: string): Promise<StablecoinOperation> {
    return this.create(caller, 'stablecoin-burn', request.stablecoinId, request.amount, request.description, now, (stablecoin, common) => this.requests.burnTerms(caller, stablecoin, request, common));
  }

  async get(caller: Scope, operationId: string): Promise<StablecoinOperation> {
    const rows = isStablecoinOperationId(operationId)
      ? await queryRows<{ body: StablecoinOperation }>(this.dataSource, `SELECT body FROM stablecoin_operations WHERE operation_id = $1 AND platform_id = $2 AND mode = $3`, [operationId, caller.platformId, caller.mode])
      : [];
    if (!rows[0]) throw notFound();
    return rows[0].body;
  }

  async list(caller: Scope, query: ListStablecoinOperationsQuery & { stablecoinId: string }): Promise<Page<StablecoinOperation>> {
    await this.stablecoins.get(caller, query.stablecoinId); // 404 for an unknown or foreign stablecoin, not an empty page
    const where = new SqlWhere().add('stablecoin_id = ?', query.stablecoinId).add('platform_id = ?', caller.platformId).add('mode = ?', caller.mode).add('operation_type = ?', query.operationType);
    return keysetBodyPage<StablecoinOperation>({ db: this.dataSource, table: 'stablecoin_operations', keyColumn: 'operation_id', where, order: 'desc', limit: query.limit, cursor: query.cursor });
  }

  /** Sandbox: the simulated provider receives the funds the operation waits for; then it moves on at once. */
  /**
   * The sandbox delivers the funds a PENDING_FUNDING operation waits for. Once per Idempotency-Key, claimed with the
   * funding: a retry whose first attempt funded it (its answer lost in a crash) is answered the operation as it is
   * now, not 409 for the status that funding moved it to.
   */
  async sandboxFund(caller: CallerContext, operationId: string, now: string): Promise<StablecoinOperation> {
    const op = await this.load(caller, operationId);
    await this.claims.run(
      idempotencyScopeOf(caller),
      'stablecoin-sandbox-fund',
      operationId,
      (claim) => this.execute(op, { type: 'Fund', at: now }, true, claim),
      async () => undefined,
    );
    await this.stepQuietly(operationId, 0);
    return this.get(caller, operationId);
  }

  timerHandlers(): Record<string, TimerHandler> {
    return { [STABLECOIN_STEP_TIMER]: (timer: TimerRow) => this.step(String(timer.payload.operationId), Number(timer.payload.attempt ?? 0)) };
  }

  private async create(
    caller: CallerContext,
    kind: 'stablecoin-mint' | 'stablecoin-burn',
    stablecoinId: string,
    amount: string,
    description: string | undefined,
    now: string,
    termsOf: (stablecoin: Awaited<ReturnType<StablecoinService['load']>>, common: Omit<OperationTerms, 'operationType' | 'source' | 'destination' | 'fundingRequired'>) => Promise<OperationTerms>,
  ): Promise<StablecoinOperation> {
    const operationId = `StablecoinOperation:${uuidv7()}`;
    // A retry of a request whose operation exists answers it before anything is checked again (the link may have
    // changed since, the accounts too): the claim decides first.
    return this.claims.run(
      idempotencyScopeOf(caller),
      kind,
      operationId,
      async (claim) => {
        const stablecoin = await this.stablecoins.load(caller, stablecoinId);
        this.providers.for(caller.mode); // 501 in production without a provider (no stablecoin can be registered there either)
        if (stablecoin.issuanceStatus !== 'PROVISIONED') throw new ApiError('CONFLICT', `the stablecoin is ${stablecoin.issuanceStatus} at the provider, not PROVISIONED`);
        const fiatAmount = this.requests.fiatAmount(stablecoin, amount);
        // The body's accounts are resolved before the link is re-verified: verifying records the link's status (an
        // event), and a request naming an unknown or another platform's account must record nothing.
        const terms = await termsOf(stablecoin, {
          operationId,
          platformId: caller.platformId,
          mode: caller.mode,
          stablecoinId: stablecoin.id,
          amount: BigInt(amount).toString(), // leading zeros dropped: one spelling per amount
          fiatAmount,
          fiatCurrency: stablecoin.baseCurrency,
          provider: stablecoin.provider,
          providerEnvironment: stablecoin.providerEnvironment,
          stablecoinProviderAccountId: stablecoin.stablecoinProviderAccountId,
          providerAccountId: stablecoin.providerAccountId,
          providerTokenIdentifier: stablecoin.providerTokenIdentifier,
          ...(description !== undefined ? { description } : {}),
          createdAt: now,
        });
        await this.links.usable(caller, stablecoin.stablecoinProviderAccountId, now);
        await this.record(caller, terms, claim);
        await this.stepQuietly(operationId, 0);
        return this.get(caller, operationId);
      },
      (existing) => this.get(caller, existing),
    );
  }

  private async record(caller: CallerContext, terms: OperationTerms, claim: ClaimInTransaction): Promise<void> {
    await this.executor.execute({
      decider: operationDecider,
      streamId: terms.operationId,
      platformId: caller.platformId,
      command: { type: 'Create', terms },
      claim,
      newStream: true,
      metadata: { correlationId: caller.correlationId, actor: caller.clientId },
      project: async (tx, events, state) => {
        await projectOperation(tx, events, state);
        await this.schedule(tx, terms, 'CREATED', -1, SAFETY_NET_MS);
      },
    });
  }

  /** One step, its failure logged: the timer it left behind runs it again. */
  private async stepQuietly(operationId: string, attempt: number): Promise<void> {
    await this.step(operationId, attempt).catch((error: unknown) => this.log?.(`stablecoin operation ${operationId}: step failed, a timer retries it`, error));
  }

  /**
   * Moves the operation one step as the provider answers. Idempotent: each effect is keyed by the operation (provider
   * submission, ledger hold and entry, timer ids), and each command is a no-op on a status already past.
   */
  async step(operationId: string, attempt: number): Promise<void> {
    const op = await this.fold(operationId);
    if (op.status === 'NONE' || isFinal(op.status)) return;
    const { credentials } = await this.links.credentialsOf(op.stablecoinProviderAccountId);
    const provider = this.providers.for(op.mode);
    const now = new Date().toISOString();
    if (op.status === 'CREATED') return this.submit(op, credentials, now);
    if (op.status === 'PENDING_FUNDING' && op.expiresAt && op.expiresAt <= now) {
      await this.execute(op, { type: 'Expire', at: now });
      return;
    }
    const report = await provider.status(credentials, { operationId, providerAccountId: op.providerAccountId, providerOperationId: op.providerOperationId!, amount: op.amount, fiatAmount: op.fiatAmount, fundingRequired: op.fundingRequired, submittedAt: op.submittedAt!, fundedAt: op.fundedAt });
    const after = await this.apply(op, report, now);
    await this.scheduleNext(op, after, report, attempt);
  }

  private async submit(op: ExistingOperation, credentials: ProviderCredentials, now: string): Promise<void> {
    const hold = await this.placeHold(op);
    if (hold === 'INSUFFICIENT_FUNDS') {
      await this.execute(op, { type: 'Reject', failureReason: 'INSUFFICIENT_FUNDS', providerStatus: 'not_submitted', at: now });
      return;
    }
    // The provider answers a repeat with the operation it already has, so a step retried after any interruption
    // learns the same outcome again.
    const submission = await this.providers.for(op.mode).submit(credentials, providerRequestOf(op));
    // A hold already released means an earlier step saw this submission fail and was cut off before recording it:
    // the funds are gone from the hold, so the operation can only be refused, whatever the provider says now.
    if (submission.stage === 'FAILED' || hold === 'RELEASED_BEFORE') {
      if (submission.stage !== 'FAILED') this.log?.(`stablecoin operation ${op.operationId}: its hold was released by an earlier step, yet the provider now answers ${submission.providerStatus}; refused`);
      await this.releaseHold(op);
      await this.execute(op, { type: 'Reject', failureReason: submission.failureReason ?? 'PROVIDER_REJECTED', providerStatus: submission.providerStatus, at: now });
      return;
    }
    const waiting = submission.stage === 'PENDING_FUNDING';
    const expiresAt = waiting ? new Date(Date.parse(now) + (submission.fundingWindowMs ?? 0)).toISOString() : undefined;
    const after = await this.execute(op, {
      type: 'Submit',
      submission: {
        providerOperationId: submission.providerOperationId,
        status: waiting ? 'PENDING_FUNDING' : 'PENDING_PROVIDER',
        providerStatus: submission.providerStatus,
        ...(submission.fundingInstructions ? { fundingInstructions: submission.fundingInstructions } : {}),
        ...(expiresAt ? { expiresAt } : {}),
        at: now,
      },
    });
    if (waiting && expiresAt) await this.schedule(this.dataSource, op, 'EXPIRY', 0, Date.parse(expiresAt) - Date.now());
    await this.scheduleNext(op, after, submission, 0);
  }

  /** Records what the provider reports; a completion first posts the fiat leg, a failure first releases the hold. */
  private async apply(op: ExistingOperation, report: ProviderReport, now: string): Promise<OperationState> {
    if (report.stage === 'COMPLETED') {
      await this.postFiatLeg(op);
      return this.execute(op, { type: 'Report', stage: 'COMPLETED', providerStatus: report.providerStatus, ledgerEntryId: fiatEntryIdOf(op.operationId), at: now });
    }
    if (report.stage === 'FAILED') await this.releaseHold(op);
    return this.execute(op, { type: 'Report', stage: report.stage, providerStatus: report.providerStatus, failureReason: report.failureReason, at: now });
  }

  /** The balanced entry of the operation's fiat side: into the reserve for a mint, out of it for a burn's payout. */
  private async postFiatLeg(op: ExistingOperation): Promise<void> {
    const { fiatAmount: amount, fiatCurrency: currency } = op;
    const legs =
      op.operationType === 'BURN'
        ? [{ purpose: 'STABLECOIN_RESERVE' as const, currency, amount: -amount }, { purpose: 'CLEARING' as const, currency, amount }]
        : [op.heldAccountId ? { accountId: op.heldAccountId, currency, amount: -amount, holdId: holdIdOf(op.operationId) } : { purpose: 'CLEARING' as const, currency, amount: -amount }, { purpose: 'STABLECOIN_RESERVE' as const, currency, amount }];
    await this.peers.ledger.transfer(systemCaller(op.platformId, op.mode), { entryId: fiatEntryIdOf(op.operationId), legs, reference: op.operationId, kind: op.operationType === 'BURN' ? 'STABLECOIN_BURN' : 'STABLECOIN_MINT' });
  }

  /** Holds the fiat of an internal-account funding; placing it again is a no-op, and a closed hold says so. */
  private async placeHold(op: ExistingOperation): Promise<'HELD' | 'NOT_NEEDED' | 'INSUFFICIENT_FUNDS' | 'RELEASED_BEFORE'> {
    if (!op.heldAccountId) return 'NOT_NEEDED';
    return this.peers.ledger
      .placeHold(systemCaller(op.platformId, op.mode), { accountId: op.heldAccountId, holdId: holdIdOf(op.operationId), amount: op.fiatAmount, currency: op.fiatCurrency, reference: op.operationId })
      .then(() => 'HELD' as const)
      .catch((error: unknown) => {
        if (error instanceof ApiError && error.code === 'INSUFFICIENT_FUNDS') return 'INSUFFICIENT_FUNDS' as const;
        // Only a failed submission releases the hold of an operation still CREATED (a capture records COMPLETED).
        if (error instanceof ApiError && error.code === 'HOLD_ALREADY_CLOSED') return 'RELEASED_BEFORE' as const;
        throw error;
      });
  }

  private async releaseHold(op: ExistingOperation): Promise<void> {
    if (!op.heldAccountId) return;
    await this.peers.ledger.releaseHold(systemCaller(op.platformId, op.mode), { accountId: op.heldAccountId, holdId: holdIdOf(op.operationId) }).catch((error: unknown) => {
      // Released (or never placed) before: the effect already holds.
      if (error instanceof ApiError && (error.code === 'HOLD_ALREADY_CLOSED' || error.code === 'HOLD_NOT_FOUND')) return;
      throw error;
    });
  }

  /** The next look at the provider: when it said, with a fresh attempt number once the status moved. */
  private async scheduleNext(before: ExistingOperation, after: OperationState, report: ProviderReport, attempt: number): Promise<void> {
    if (after.status === 'NONE' || isFinal(after.status) || report.nextCheckInMs === undefined) return;
    const moved = after.status !== before.status;
    await this.schedule(this.dataSource, after, after.status, moved ? 0 : attempt + 1, Math.max(POLL_MIN_MS, report.nextCheckInMs));
  }

  /** Timer ids derive from (operation, status, attempt): however many steps run, each wait is scheduled once. */
  private schedule(tx: EntityManager | DataSource, op: Pick<OperationTerms, 'operationId' | 'platformId'>, stage: string, attempt: number, delayMs: number): Promise<string> {
    return this.timers.schedule(tx, {
      id: uuidv5(`${op.operationId}/${stage}/${attempt}`, TIMER_NAMESPACE),
      name: STABLECOIN_STEP_TIMER,
      delayMs: Math.max(0, delayMs),
      realTime: true,
      streamId: op.operationId,
      platformId: op.platformId,
      payload: { operationId: op.operationId, attempt: Math.max(0, attempt) },
    });
  }

  private async execute(op: ExistingOperation, command: OperationCommand, strict = false, claim?: (tx: EntityManager) => Promise<void>): Promise<OperationState> {
    const result = await this.executor.execute({ decider: operationDecider, streamId: op.operationId, platformId: op.platformId, command, claim, project: projectOperation, metadata: { correlationId: op.operationId } }).catch((error: unknown) => {
      // A step that lost a race to another step of the same operation finds nothing left to do.
      if (!strict && (error as { code?: string }).code === 'INVALID_STATE_TRANSITION') return undefined;
      throw error;
    });
    return result ? result.state : this.fold(op.operationId);
  }

  private async load(caller: Scope, operationId: string): Promise<ExistingOperation> {
    if (!isStablecoinOperationId(operationId)) throw notFound();
    const op = await this.fold(operationId);
    if (op.status === 'NONE' || op.platformId !== caller.platformId || op.mode !== caller.mode) throw notFound();
    return op;
  }

  private async fold(operationId: string): Promise<OperationState> {
    return fold(operationDecider, (await this.store.readStream(this.dataSource, operationId)) as unknown as OperationEvent[]);
  }
}

function providerRequestOf(op: ExistingOperation): ProviderOperationRequest {
  return {
    operationId: op.operationId,
    providerAccountId: op.providerAccountId,
    operationType: op.operationType,
    amount: op.amount,
    fiatAmount: op.fiatAmount,
    fiatCurrency: op.fiatCurrency,
    valueType: op.providerTokenIdentifier,
    source: op.source,
    ...(op.tokenDestinationAddress ? { tokenDestinationAddress: op.tokenDestinationAddress } : {}),
    ...(op.payoutAccountInfo && op.destination.rail ? { payout: { rail: op.destination.rail, accountInfo: op.payoutAccountInfo } } : {}),
  };
}
