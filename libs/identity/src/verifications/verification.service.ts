import type { DataSource, EntityManager } from 'typeorm';
import { v7 as uuidv7 } from 'uuid';
import {
  ApiError,
  BeneficialOwner,
  CallerContext,
  CreateVerificationRequest,
  Customer,
  isCustomerId,
  isVerificationId,
  ListVerificationsQuery,
  Mode,
  Page,
  Verification,
} from '@payments/contracts';
import { ClaimInTransaction, CommandExecutor, CommandRequest, EventMetadata, IdempotencyClaims, queryRows, retryOnConflict, ScheduleTimer, TimerHandler, TimerRow } from '@payments/eventsourcing';
import { idempotencyScopeOf, keysetBodyPage, SqlWhere } from '@payments/runtime';
import { BeneficialOwnerService } from '../beneficial-owners/beneficial-owner.service';
import { setCustomerKycStatus, setCustomerKycStatusIfLive } from './customer-kyc-status';
import { KycDecision, KycDecisionContext, KycDecisions, KycDecisionTarget, KycProvider } from './kyc-provider';
import { VerificationCommand, verificationDecider } from './verification.decider';
import { VerificationEvent, VerificationSubmitted } from './verification.events';
import { CustomerSnapshot, DocumentRef, OwnerSnapshot, VerificationInputs } from './verification-inputs';
import { projectVerification } from './verification.projection';
import { OpenVerification, VerificationState } from './verification.state';
import { toVerification } from './verification.view';

/** The part of DocumentService a verification uses (structural, so either side can change without the other). */
export interface VerificationDocuments {
  listForHolders(tx: EntityManager, platformId: string, mode: Mode, holderIds: readonly string[]): Promise<Record<string, DocumentRef[]>>;
  markSubmitted(tx: EntityManager, documentIds: readonly string[], now?: string): Promise<void>;
}

export interface VerificationServiceOptions {
  /** Sandbox: from submission to the simulated provider's decision, at SANDBOX_TIME_SCALE 1. */
  decisionDelayMs: number;
}

export const VERIFICATION_DEFAULTS: VerificationServiceOptions = { decisionDelayMs: 5_000 };
export const VERIFICATION_DECISION_TIMER = 'identity.verification.decide';

const customerNotFound = () => new ApiError('USER_NOT_FOUND', 'customer not found'); // the published 404 code for a customer

/**
 * KYC (individuals) and KYB (businesses) verifications: one case per customer, submitted and resubmitted through
 * POST /verifications. A complete sandbox submission is decided by a durable timer; a complete production one is
 * handed to the KYC provider (kyc-provider.ts), whose decision comes back through `apply`. Both decisions take the
 * same path (`decideAndApply`).
 */
export class VerificationService implements KycDecisions {
  constructor(
    private readonly dataSource: DataSource,
    private readonly executor: CommandExecutor<EntityManager>,
    private readonly timers: { schedule(tx: EntityManager, timer: ScheduleTimer): Promise<string> },
    private readonly documents: VerificationDocuments,
    private readonly owners: BeneficialOwnerService,
    private readonly claims: IdempotencyClaims,
    private readonly provider: KycProvider,
    private readonly options: VerificationServiceOptions = VERIFICATION_DEFAULTS,
    private readonly versionConflictRetriesMax = 5,
  ) {}

  /**
   * One submission per Idempotency-Key: a retry (also after a crash) answers the customer's verification as it is now
   * instead of submitting again. The claim names the customer: its one verification case may be created by this call.
   */
  async submit(caller: CallerContext, request: CreateVerificationRequest, now: string): Promise<Verification> {
    const customerId = String(request.customerId);
    if (!isCustomerId(customerId)) throw customerNotFound();
    return this.claims.run(
      idempotencyScopeOf(caller),
      'verification-submit',
      customerId,
      async (claim) => toVerification(await retryOnConflict(() => this.dataSource.transaction((tx) => this.submitIn(tx, caller, customerId, now, claim)), this.versionConflictRetriesMax)),
      (id) => this.ofCustomer(caller, id),
    );
  }

  async get(caller: CallerContext, verificationId: string): Promise<Verification> {
    if (!isVerificationId(verificationId)) throw new ApiError('REFERENCE_NOT_FOUND', 'verification not found');
    const rows = await queryRows<{ body: Verification }>(this.dataSource, `SELECT body FROM verifications WHERE verification_id = $1 AND platform_id = $2 AND mode = $3`, [
      verificationId,
      caller.platformId,
      caller.mode,
    ]);
    if (!rows[0]) throw new ApiError('REFERENCE_NOT_FOUND', 'verification not found');
    return rows[0].body;
  }

  private async ofCustomer(caller: CallerContext, customerId: string): Promise<Verification> {
    const rows = await queryRows<{ body: Verification }>(this.dataSource, `SELECT body FROM verifications WHERE customer_id = $1 AND platform_id = $2 AND mode = $3`, [customerId, caller.platformId, caller.mode]);
    if (!rows[0]) throw new ApiError('REFERENCE_NOT_FOUND', 'verification not found');
    return rows[0].body;
  }

  list(caller: CallerContext, query: ListVerificationsQuery): Promise<Page<Verification>> {
    if (query.status && query.verificationStatus && query.status !== query.verificationStatus) {
      throw new ApiError('INVALID_INPUT', 'status and verificationStatus disagree', { errors: [{ field: 'verificationStatus', message: 'send one of status and verificationStatus, or the same value' }] });
    }
    const where = new SqlWhere().add('platform_id = ?', caller.platformId).add('mode = ?', caller.mode).add('customer_id = ?', query.customerId).add('status = ?', query.status ?? query.verificationStatus);
    return keysetBodyPage<Verification>({ db: this.dataSource, table: 'verifications', keyColumn: 'verification_id', where, limit: query.limit, cursor: query.cursor });
  }

  /** For ServiceHost's durable timers. */
  timerHandlers(): Record<string, TimerHandler> {
    return { [VERIFICATION_DECISION_TIMER]: (timer) => this.decide(timer) };
  }

  private async submitIn(tx: EntityManager, caller: CallerContext, customerId: string, now: string, claim: ClaimInTransaction): Promise<OpenVerification> {
    // One submission per customer at a time: the first one creates the case, the next ones find it.
    await tx.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`Verification/${customerId}`]);
    const inputs = await this.inputs(tx, caller, customerId);
    const existing = await queryRows<{ verification_id: string }>(tx, `SELECT verification_id FROM verifications WHERE customer_id = $1`, [customerId]);
    const verificationId = existing[0]?.verification_id ?? `Verification:${uuidv7()}`;
    const command: VerificationCommand = { type: 'SubmitVerification', verificationId, platformId: caller.platformId, mode: caller.mode, inputs, now };
    const result = await this.executor.decideAndAppend(tx, this.request(caller.platformId, verificationId, command, { correlationId: caller.correlationId, actor: caller.clientId }));
    await claim(tx);
    for (const event of result.events) if (event.type === 'VerificationSubmitted.v1') await this.handOver(tx, event.data, now);
    return result.state as OpenVerification;
  }

  /**
   * A complete submission: its documents become evidence and the customer PENDING; the sandbox's decision is timed,
   * a production one is the provider's.
   */
  private async handOver(tx: EntityManager, submitted: VerificationSubmitted['data'], now: string): Promise<void> {
    const { verificationId, customerId, platformId, customerType, attempt, documentIds, submittedAt } = submitted;
    await this.documents.markSubmitted(tx, documentIds, now);
    await setCustomerKycStatus(this.executor, tx, { platformId, customerId, verificationId }, 'PENDING', now);
    if (submitted.mode === 'PRODUCTION') return this.provider.submitted(tx, { verificationId, customerId, platformId, customerType, attempt, documentIds, submittedAt });
    if (!submitted.sandboxDecision) return; // sandbox 001: a manual review nobody performs
    await this.timers.schedule(tx, { name: VERIFICATION_DECISION_TIMER, delayMs: this.options.decisionDelayMs, streamId: verificationId, platformId, payload: { verificationId, attempt } });
  }

  /** KycDecisions: a production provider's decision, in the caller's transaction (with what it records alongside). */
  async apply(tx: EntityManager, target: KycDecisionTarget, decision: KycDecision, context: KycDecisionContext): Promise<void> {
    const command: VerificationCommand = { type: 'RecordDecision', attempt: target.attempt, decision, now: context.now };
    await this.decideAndApply(tx, target.platformId, target.verificationId, command, context.metadata, decision);
  }

  /** The sandbox's timed decision: once, in one transaction. */
  private decide(timer: TimerRow): Promise<void> {
    return retryOnConflict(() => this.dataSource.transaction((tx) => this.decideIn(tx, timer)), this.versionConflictRetriesMax);
  }

  private async decideIn(tx: EntityManager, timer: TimerRow): Promise<void> {
    const { verificationId, attempt } = timer.payload as { verificationId: string; attempt: number };
    const command: VerificationCommand = { type: 'DecideVerification', attempt, now: new Date().toISOString() };
    await this.decideAndApply(tx, timer.platform_id, verificationId, command, { correlationId: verificationId, causationId: timer.id, actor: 'timer' });
  }

  /**
   * Every decision's one path, whoever decided (the sandbox's timer, a provider): the verification's events, then in
   * the same transaction the customer's kycStatus/kybStatus (the source of CUSTOMER.KYC_* / KYB_*) and a business's
   * owners. Changes requested (RESOLVE_ERRORS) leave the customer PENDING and the owners as they are: nothing is
   * decided yet. A decision that appends nothing (a repeat, a stale timer) has no effect.
   */
  private async decideAndApply(
    tx: EntityManager,
    platformId: string | null,
    verificationId: string,
    command: Extract<VerificationCommand, { type: 'DecideVerification' | 'RecordDecision' }>,
    metadata: EventMetadata,
    decision?: KycDecision,
  ): Promise<void> {
    const result = await this.executor.decideAndAppend(tx, this.request(platformId, verificationId, command, metadata));
    const decided = result.events.find((e) => e.type === 'VerificationApproved.v1' || e.type === 'VerificationRejected.v1');
    if (!decided) return;
    const state = result.state as OpenVerification;
    const target = { platformId: state.platformId, customerId: state.customerId, verificationId };
    const outcome = decided.type === 'VerificationApproved.v1' ? 'APPROVED' : 'REJECTED';
    await setCustomerKycStatusIfLive(this.executor, tx, target, outcome, command.now);
    if (state.customerType !== 'BUSINESS') return;
    // The sandbox's owners follow their own lastName suffix; a provider's, its outcome for each (else the business's).
    const ownerOutcome = state.mode === 'SANDBOX' ? undefined : (ownerId: string) => (decision && 'owners' in decision ? decision.owners?.[ownerId] : undefined) ?? outcome;
    await this.owners.verifyOwnersOf(tx, state, state.customerId, verificationId, command.now, ownerOutcome);
  }

  private async inputs(tx: EntityManager, caller: CallerContext, customerId: string): Promise<VerificationInputs> {
    const rows = await queryRows<{ body: Customer }>(tx, `SELECT body FROM customers WHERE customer_id = $1 AND platform_id = $2 AND mode = $3 AND deleted_at IS NULL`, [
      customerId,
      caller.platformId,
      caller.mode,
    ]);
    if (!rows[0]) throw customerNotFound();
    const customer = customerSnapshot(rows[0].body);
    const owners = customer.customerType === 'BUSINESS' ? (await this.owners.ownersOf(tx, caller, customerId)).map(ownerSnapshot) : [];
    const documents = await this.documents.listForHolders(tx, caller.platformId, caller.mode, [customerId, ...owners.map((o) => o.beneficialOwnerId)]);
    return { customer, owners, documents };
  }

  private request(
    platformId: string | null,
    verificationId: string,
    command: VerificationCommand,
    metadata: EventMetadata,
  ): CommandRequest<EntityManager, VerificationState, VerificationCommand, VerificationEvent> {
    return { decider: verificationDecider, streamId: verificationId, platformId, metadata, command, project: projectVerification };
  }
}

function customerSnapshot(c: Customer): CustomerSnapshot {
  const { id: customerId, customerType, fullName, birthDate, nationality, address, sourceOfWealthCategories, purposeOfAccount, annualIncomeRange, businessInfo } = c;
  const kycStatus = (customerType === 'BUSINESS' ? c.kybStatus : c.kycStatus) ?? 'UNVERIFIED';
  return { customerId, customerType, kycStatus, fullName, birthDate, nationality, address, sourceOfWealthCategories, purposeOfAccount, annualIncomeRange, businessInfo };
}

function ownerSnapshot(o: BeneficialOwner): OwnerSnapshot {
  const { nationality, idType, countryOfIssuance } = o.personalInfo;
  return { beneficialOwnerId: o.id, roles: o.roles, ownershipPercentage: o.ownershipPercentage, nationality, idType, countryOfIssuance };
}
