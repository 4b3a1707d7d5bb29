import type { DataSource, EntityManager } from 'typeorm';
import { v7 as uuidv7 } from 'uuid';
import {
  ApiError,
  BeneficiaryVerificationStatusValue,
  CallerContext,
  ConfirmUntrustRequest,
  CreateExternalAccountRequest,
  CreatePlatformExternalAccountRequest,
  ExternalAccount,
  externalAccountLookupId,
  externalAccountNotActive,
  isCustomerId,
  isExternalAccountId,
  ListExternalAccountsQuery,
  ListPlatformExternalAccountsQuery,
  Mode,
  notConfigured,
  Page,
  ReceiverLookup,
  ReceiverLookupQuery,
  UntrustChallenge,
  UntrustConfirmed,
} from '@payments/contracts';
import { ClaimInTransaction, CommandExecutor, CommandRequest, EventMetadata, IdempotencyClaims, queryRows, ScheduleTimer, TimerHandler, TimerRow } from '@payments/eventsourcing';
import { awaitArrival, idempotencyScopeOf, keysetBodyPage, SqlWhere } from '@payments/runtime';
import { ExternalAccountCommand, externalAccountDecider } from './external-account.decider';
import { ExternalAccountEvent } from './external-account.events';
import { projectExternalAccount } from './external-account.projection';
import { ExternalAccountState } from './external-account.state';
import { presentStored, toExternalAccount } from './external-account.view';
import { RateSource, receiverCurrency, sendingCurrencyCandidates, StoredCurrencyConfig } from './receiver-lookup';
import { checksumsIn, normalizeAccountInfo, sandboxBeneficiaryCheck, validateExternalAccount } from './rules';
import { verificationMethodFor } from './verification/verification-methods';

export const EXTERNAL_ACCOUNT_VERIFY_TIMER = 'accounts.external-account.verify';

export interface ExternalAccountServiceOptions {
  /** Sandbox verification delay at the spec's timing; the timers scale it by SANDBOX_TIME_SCALE. */
  verificationDelayMs: number;
  /** The sandbox SCA code that confirms an untrust. */
  sandboxCode: string;
  untrustCodeTtlMs: number;
  /** How long a create waits for a customer identity created moments ago (its event is on its way). */
  customerArrivalWaitMs: number;
}

type Scope = Pick<CallerContext, 'platformId' | 'mode'> & Partial<Pick<CallerContext, 'correlationId' | 'clientId'>>;
interface KnownCustomer {
  customer_type: 'INDIVIDUAL' | 'BUSINESS';
}

/** Public 404 of a missing or foreign account: the published Error404 code for a reference (here an account id) that resolves to nothing. */
const notFound = () => new ApiError('REFERENCE_NOT_FOUND', 'external account not found');
const customerNotFound = (details?: Record<string, unknown>) => new ApiError('USER_NOT_FOUND', 'customer not found', details);

/**
 * Whose accounts a route addresses: the platform routes only the platform's own (no customerId), the customer routes
 * and the other services' RPCs (payments, quoting, webhooks) any account of the caller's platform and mode.
 */
export type ExternalAccountOwner = 'ANY' | 'PLATFORM';

/** External accounts of customers and of the platform. Reads from `external_accounts`, writes through the decider. */
export class ExternalAccountService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly executor: CommandExecutor<EntityManager>,
    private readonly timers: { schedule(tx: EntityManager, timer: ScheduleTimer): Promise<string> },
    private readonly rates: RateSource,
    private readonly options: ExternalAccountServiceOptions,
    private readonly claims: IdempotencyClaims,
  ) {}

  /** One account per Idempotency-Key (also for the platform's): a retry, also after a crash, answers it as it is now. */
  createForCustomer(caller: CallerContext, request: CreateExternalAccountRequest, now: string): Promise<ExternalAccount> {
    const id = `ExternalAccount:${uuidv7()}`;
    return this.claims.run(idempotencyScopeOf(caller), 'external-account-create', id, (claim) => this.createCustomerAccount(caller, request, now, id, claim), (existing) => this.get(caller, existing));
  }

  createForPlatform(caller: CallerContext, request: CreatePlatformExternalAccountRequest, now: string): Promise<ExternalAccount> {
    const id = `ExternalAccount:${uuidv7()}`;
    return this.claims.run(idempotencyScopeOf(caller), 'platform-external-account-create', id, (claim) => this.create(caller, null, 'PLATFORM', request, now, id, claim), (existing) => this.get(caller, existing));
  }

  private async createCustomerAccount(caller: CallerContext, request: CreateExternalAccountRequest, now: string, id: string, claim: ClaimInTransaction): Promise<ExternalAccount> {
    if (request.defaultUmaDepositAccount === true) {
      throw new ApiError('NOT_IMPLEMENTED', 'UMA payments are deposited to the customer\'s internal account: defaultUmaDepositAccount true is not supported yet');
    }
    const customer = await this.knownCustomer(caller, request.customerId, this.options.customerArrivalWaitMs);
    if (!customer) throw customerNotFound({ errors: [{ field: 'customerId', message: 'no such customer' }] });
    return this.create(caller, request.customerId, customer.customer_type, request, now, id, claim);
  }

  /** The account, if it is the caller's platform's and mode's (and, for owner PLATFORM, the platform's own); else 404. */
  async get(caller: Scope, externalAccountId: string, owner: ExternalAccountOwner = 'ANY'): Promise<ExternalAccount> {
    const platformOnly = owner === 'PLATFORM' ? ' AND customer_id IS NULL' : '';
    const rows = isExternalAccountId(externalAccountId)
      ? await this.dataSource.query(`SELECT body FROM external_accounts WHERE external_account_id = $1 AND platform_id = $2 AND mode = $3 AND deleted_at IS NULL${platformOnly}`, [
          externalAccountId,
          caller.platformId,
          caller.mode,
        ])
      : [];
    if (!rows[0]) throw notFound();
    return presentStored(rows[0].body);
  }

  listForCustomers(caller: CallerContext, query: ListExternalAccountsQuery): Promise<Page<ExternalAccount>> {
    return this.list(this.scope(caller).add('customer_id IS NOT NULL').add('customer_id = ?', query.customerId).add('currency = ?', query.currency), query);
  }

  listForPlatform(caller: CallerContext, query: ListPlatformExternalAccountsQuery): Promise<Page<ExternalAccount>> {
    return this.list(this.scope(caller).add('customer_id IS NULL').add('currency = ?', query.currency), query);
  }

  /** Soft delete: INACTIVE, then a 404 like any unknown account. 409 BENEFICIARY_TRUSTED while trusted. */
  async delete(caller: CallerContext, externalAccountId: string, now: string, owner: ExternalAccountOwner = 'ANY'): Promise<void> {
    await this.get(caller, externalAccountId, owner);
    await this.run(caller, externalAccountId, { type: 'DeleteExternalAccount', now });
  }

  /** Marks a trusted beneficiary; for the SCA flow (quoting), which calls it once the customer confirmed. */
  async trust(caller: Scope, externalAccountId: string, now: string): Promise<ExternalAccount> {
    await this.get(caller, externalAccountId);
    return this.run(caller, externalAccountId, { type: 'TrustExternalAccount', now });
  }

  /** Starts an untrust; the code comes from SCA (sandbox: always the fixed code, nothing delivered). */
  async beginUntrust(caller: CallerContext, externalAccountId: string, now: string): Promise<UntrustChallenge> {
    const account = await this.get(caller, externalAccountId);
    if (!account.trustedBeneficiary) throw new ApiError('CONFLICT', 'the account is not a trusted beneficiary');
    if (caller.mode !== 'SANDBOX') throw notConfigured('SMS_PROVIDER', 'untrust codes need an SCA delivery channel, which production does not have yet', 'an SMS provider (not available in this release)');
    const expiresAt = new Date(Date.parse(now) + this.options.untrustCodeTtlMs).toISOString();
    const challengeId = `ScaChallenge:${uuidv7()}`;
    await this.run(caller, externalAccountId, { type: 'BeginUntrust', challengeId, expiresAt, now });
    const scaChallenge = { id: challengeId, expiresAt, factor: 'SMS_OTP' as const, availableFactors: ['SMS_OTP' as const], purpose: null };
    return { externalAccountId, factor: 'SMS_OTP', expiresAt, scaChallenge };
  }

  /** The untrust challenge's factor is SMS_OTP: a passkey proof cannot answer it. */
  async confirmUntrust(caller: CallerContext, externalAccountId: string, proof: ConfirmUntrustRequest, now: string): Promise<UntrustConfirmed> {
    await this.get(caller, externalAccountId);
    if (proof.code === undefined) {
      const message = proof.passkeyAssertion ? "the untrust challenge's factor is SMS_OTP: send its code, not a passkey assertion" : 'code is required';
      throw new ApiError('INVALID_INPUT', message, { errors: [{ field: 'code', message }] });
    }
    const codeMatches = caller.mode === 'SANDBOX' && proof.code === this.options.sandboxCode;
    const account = await this.run(caller, externalAccountId, { type: 'ConfirmUntrust', codeMatches, challengeId: proof.challengeId, now });
    return { ...account, trusted: false };
  }

  /** For payments: only ACTIVE accounts receive. 404 for none (or another tenant's), 400 otherwise. */
  async assertCanReceive(platformId: string, mode: Mode, externalAccountId: string): Promise<ExternalAccount> {
    const account = await this.get({ platformId, mode }, externalAccountId);
    if (account.status !== 'ACTIVE') throw externalAccountNotActive(account.status);
    return account;
  }

  /**
   * GET /receiver/external-account/{id}: the currency the account receives, at the estimated rate from the sender's
   * currency, within the platform's limits (as the UMA lookup answers). The sender's currency is the first of the
   * platform's sending currencies the customer (customerId) holds, else the platform's first that can reach the account.
   */
  async receiverLookup(caller: CallerContext, externalAccountId: string, query: ReceiverLookupQuery): Promise<ReceiverLookup> {
    if (query.customerId !== undefined && !(await this.knownCustomer(caller, query.customerId, 0))) throw customerNotFound();
    const account = await this.assertCanReceive(caller.platformId, caller.mode, externalAccountId);
    const rows = await queryRows<{ configs: StoredCurrencyConfig[] }>(this.dataSource, `SELECT configs FROM platform_currencies WHERE platform_id = $1 AND mode = $2`, [caller.platformId, caller.mode]);
    const configs = rows.flatMap((r) => r.configs);
    const held = query.customerId === undefined ? [] : await this.customerCurrencies(caller, query.customerId);
    const estimate = await this.firstEstimate(caller, sendingCurrencyCandidates(configs, held), account.currency);
    return {
      supportedCurrencies: estimate ? [receiverCurrency(account.currency, estimate.rate, configs, estimate.sending)] : [],
      lookupId: externalAccountLookupId(caller, account.id),
      accountId: account.id,
    };
  }

  /** The first sending currency with a rate to `receiving`, and that rate. */
  private async firstEstimate<T extends { currencyCode: string }>(caller: Scope, candidates: T[], receiving: string): Promise<{ sending: T; rate: number } | undefined> {
    for (const sending of candidates) {
      const rate = await this.rates.estimate(caller.platformId, caller.mode, sending.currencyCode, receiving);
      if (rate !== undefined) return { sending, rate };
    }
    return undefined;
  }

  /** For ServiceHost's durable timers. */
  timerHandlers(): Record<string, TimerHandler> {
    return { [EXTERNAL_ACCOUNT_VERIFY_TIMER]: (timer) => this.completeVerification(timer) };
  }

  /** Only a PENDING sandbox account moves on: a repeat appends nothing. */
  private async completeVerification(timer: TimerRow): Promise<void> {
    const { externalAccountId } = timer.payload as { externalAccountId: string };
    const metadata = { correlationId: externalAccountId, causationId: timer.id, actor: 'timer' };
    await this.executor.execute(this.request(timer.platform_id, externalAccountId, { type: 'CompleteVerification', now: new Date().toISOString() }, metadata));
  }

  private async create(
    caller: CallerContext,
    customerId: string | null,
    ownerType: 'INDIVIDUAL' | 'BUSINESS' | 'PLATFORM',
    request: CreatePlatformExternalAccountRequest,
    now: string,
    externalAccountId: string,
    claim: ClaimInTransaction,
  ): Promise<ExternalAccount> {
    const errors = validateExternalAccount({ currency: request.currency, accountInfo: request.accountInfo, ownerType, today: now.slice(0, 10), checksums: checksumsIn(caller.mode) });
    const { accountInfo, platformAccountId = request.platformAccountId } = normalizeAccountInfo(request.accountInfo);
    if (request.platformAccountId !== undefined && platformAccountId !== request.platformAccountId) {
      errors.push({ field: 'accountInfo.platformAccountId', message: 'accountInfo.platformAccountId differs from platformAccountId: send one of them' });
    }
    if (errors.length > 0) throw new ApiError('INVALID_INPUT', 'the external account is not valid', { errors });
    const sandbox = caller.mode === 'SANDBOX';
    // Production: the currency's method now, fixed on the account (a later change applies to new accounts only).
    const verificationMethod = sandbox ? undefined : await verificationMethodFor(this.dataSource, request.currency);
    const command: ExternalAccountCommand = {
      type: 'CreateExternalAccount',
      externalAccountId,
      platformId: caller.platformId,
      mode: caller.mode,
      customerId,
      currency: request.currency,
      platformAccountId: platformAccountId ?? null,
      ...(request.ownershipType ? { ownershipType: request.ownershipType } : {}),
      accountInfo,
      beneficiaryVerificationStatus: beneficiaryCheck(accountInfo, sandbox),
      sandbox,
      ...(verificationMethod ? { verificationMethod } : {}),
      now,
    };
    const metadata = { correlationId: caller.correlationId, actor: caller.clientId };
    const result = await this.executor.execute({
      ...this.request(caller.platformId, externalAccountId, command, metadata),
      claim,
      project: async (tx, events, state) => {
        await projectExternalAccount(tx, events, state);
        // Sandbox only: production accounts wait for their verification method (an operator or the payout rail),
        // never for a clock.
        if (sandbox) await this.timers.schedule(tx, { name: EXTERNAL_ACCOUNT_VERIFY_TIMER, delayMs: this.options.verificationDelayMs, streamId: externalAccountId, platformId: caller.platformId, payload: { externalAccountId } });
      },
    });
    return this.view(result.state);
  }

  private async run(caller: Scope, externalAccountId: string, command: ExternalAccountCommand): Promise<ExternalAccount> {
    const result = await this.executor.execute(this.request(caller.platformId, externalAccountId, command, { correlationId: caller.correlationId, actor: caller.clientId }));
    return this.view(result.state);
  }

  private view(state: ExternalAccountState): ExternalAccount {
    if (state.status === 'NONE') throw notFound();
    return toExternalAccount(state);
  }

  private request(
    platformId: string | null,
    streamId: string,
    command: ExternalAccountCommand,
    metadata: EventMetadata,
  ): CommandRequest<EntityManager, ExternalAccountState, ExternalAccountCommand, ExternalAccountEvent> {
    return { decider: externalAccountDecider, streamId, platformId, metadata, command, project: projectExternalAccount };
  }

  private async list(where: SqlWhere, query: { limit?: number; cursor?: string }): Promise<Page<ExternalAccount>> {
    const page = await keysetBodyPage<ExternalAccount>({ db: this.dataSource, table: 'external_accounts', keyColumn: 'external_account_id', where, limit: query.limit, cursor: query.cursor });
    return { ...page, data: page.data.map(presentStored) };
  }

  /** The currencies of the customer's internal accounts (opened from identity's CustomerCreated.v1). */
  private async customerCurrencies(caller: Scope, customerId: string): Promise<string[]> {
    const rows = await queryRows<{ currency: string }>(
      this.dataSource,
      `SELECT DISTINCT currency FROM ledger_accounts WHERE platform_id = $1 AND mode = $2 AND owner = 'CUSTOMER' AND customer_id = $3`,
      [caller.platformId, caller.mode, customerId],
    );
    return rows.map((r) => r.currency);
  }

  private scope(caller: Scope): SqlWhere {
    return new SqlWhere().add('platform_id = ?', caller.platformId).add('mode = ?', caller.mode).add('deleted_at IS NULL');
  }

  /**
   * A live customer of the caller's platform and mode, from the known_customers read model. Identity's event may
   * still be on its way for a customer created a moment ago: wait for it, boundedly.
   */
  private async knownCustomer(caller: Scope, customerId: string, waitMs: number): Promise<KnownCustomer | undefined> {
    if (!isCustomerId(customerId)) return undefined;
    return awaitArrival(async () => {
      const rows = await queryRows<KnownCustomer & { deleted_at: Date | null }>(
        this.dataSource,
        `SELECT customer_type, deleted_at FROM known_customers WHERE customer_id = $1 AND platform_id = $2 AND mode = $3`,
        [customerId, caller.platformId, caller.mode],
      );
      return rows[0] ? (rows[0].deleted_at ? null : rows[0]) : undefined;
    }, waitMs);
  }
}

/**
 * Sandbox: the magic-suffix name check (105 is a 400, nothing stored). Production: PENDING until a name-check
 * provider answers (none yet); the operator reviewing the account sees it.
 */
function beneficiaryCheck(accountInfo: Record<string, unknown>, sandbox: boolean): BeneficiaryVerificationStatusValue | null {
  const check = sandboxBeneficiaryCheck(String(accountInfo.accountType), accountInfo);
  if (check.outcome === 'NOT_APPLICABLE') return null;
  if (!sandbox) return 'PENDING';
  if (check.outcome === 'INVALID_ACCOUNT') {
    throw new ApiError(check.code, check.message, { errors: [{ field: 'accountInfo', message: 'the receiving institution reports the account as invalid' }] });
  }
  return check.status;
}
