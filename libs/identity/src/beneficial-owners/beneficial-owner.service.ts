import type { DataSource, EntityManager } from 'typeorm';
import { v7 as uuidv7 } from 'uuid';
import {
  ApiError,
  BeneficialOwner,
  CallerContext,
  CreateBeneficialOwnerRequest,
  isBeneficialOwnerId,
  isCustomerId,
  KycStatus,
  ListBeneficialOwnersQuery,
  Mode,
  Page,
  UpdateBeneficialOwnerRequest,
} from '@payments/contracts';
import { ClaimInTransaction, CommandExecutor, CommandRequest, EventMetadata, IdempotencyClaims, queryRows, retryOnConflict } from '@payments/eventsourcing';
import { idempotencyScopeOf, keysetBodyPage } from '@payments/runtime';
import { IdentityChanges, NO_IDENTITY_CHANGES } from '../kyc-reviews/identity-changes';
import { BeneficialOwnerCommand, beneficialOwnerDecider } from './beneficial-owner.decider';
import { BeneficialOwnerEvent } from './beneficial-owner.events';
import { projectBeneficialOwner } from './beneficial-owner.projection';
import { BeneficialOwnerState } from './beneficial-owner.state';

interface Scope {
  platformId: string;
  mode: Mode;
}

const DECIDED: readonly KycStatus[] = ['APPROVED', 'REJECTED'];
const notFound = () => new ApiError('REFERENCE_NOT_FOUND', 'beneficial owner not found');
const customerNotFound = () => new ApiError('USER_NOT_FOUND', 'customer not found'); // the published 404 code for a customer

/**
 * Beneficial owners, directors and officers of BUSINESS customers. Every write to a business's owners runs under
 * one advisory lock per business, so the 100 % ownership bound holds under concurrent writes, and an owner added
 * while the business's verification is being decided is either seen by the decision or sees its result.
 */
export class BeneficialOwnerService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly executor: CommandExecutor<EntityManager>,
    private readonly claims: IdempotencyClaims,
    private readonly identityChanges: IdentityChanges = NO_IDENTITY_CHANGES,
    private readonly versionConflictRetriesMax = 5,
  ) {}

  /** One owner per Idempotency-Key: a retry (also after a crash) answers it as it is now. */
  create(caller: CallerContext, request: CreateBeneficialOwnerRequest, now: string): Promise<BeneficialOwner> {
    const beneficialOwnerId = `BeneficialOwner:${uuidv7()}`;
    return this.claims.run(idempotencyScopeOf(caller), 'beneficial-owner-create', beneficialOwnerId, (claim) => this.createNew(caller, request, now, beneficialOwnerId, claim), (id) => this.get(caller, id));
  }

  private async createNew(caller: CallerContext, request: CreateBeneficialOwnerRequest, now: string, beneficialOwnerId: string, claim: ClaimInTransaction): Promise<BeneficialOwner> {
    const { customerId, ...fields } = request;
    await this.transaction(async (tx) => {
      const kybStatus = await this.lockBusiness(tx, caller, customerId);
      assertIdentityOpen(caller, kybStatus);
      const othersPercentage = await this.ownershipOfOthers(tx, customerId, beneficialOwnerId);
      const verifyAtOnce = caller.mode === 'SANDBOX' && DECIDED.includes(kybStatus);
      const command: BeneficialOwnerCommand = { type: 'AddBeneficialOwner', beneficialOwnerId, customerId, platformId: caller.platformId, mode: caller.mode, request: fields, othersPercentage, verifyAtOnce, now };
      await this.executor.decideAndAppend(tx, this.request(caller, beneficialOwnerId, command, callerMetadata(caller)));
      await claim(tx);
    });
    if (caller.mode === 'PRODUCTION') await this.identityChanges.changed(customerId, caller.correlationId, now);
    return this.get(caller, beneficialOwnerId);
  }

  async update(caller: CallerContext, beneficialOwnerId: string, patch: UpdateBeneficialOwnerRequest, now: string): Promise<BeneficialOwner> {
    const current = await this.get(caller, beneficialOwnerId);
    await this.transaction(async (tx) => {
      assertIdentityOpen(caller, await this.lockBusiness(tx, caller, current.customerId));
      const othersPercentage = await this.ownershipOfOthers(tx, current.customerId, beneficialOwnerId);
      const command: BeneficialOwnerCommand = { type: 'UpdateBeneficialOwner', request: patch, othersPercentage, now };
      await this.executor.decideAndAppend(tx, this.request(caller, beneficialOwnerId, command, callerMetadata(caller)));
    });
    if (caller.mode === 'PRODUCTION') await this.identityChanges.changed(current.customerId, caller.correlationId, now);
    return this.get(caller, beneficialOwnerId);
  }

  async get(caller: CallerContext, beneficialOwnerId: string): Promise<BeneficialOwner> {
    if (!isBeneficialOwnerId(beneficialOwnerId)) throw notFound();
    // An owner lives as long as its business: a deleted customer's owners read as not found.
    const rows = await queryRows<{ body: BeneficialOwner }>(
      this.dataSource,
      `SELECT o.body FROM beneficial_owners o JOIN customers c ON c.customer_id = o.customer_id
        WHERE o.beneficial_owner_id = $1 AND o.platform_id = $2 AND o.mode = $3 AND c.deleted_at IS NULL`,
      [beneficialOwnerId, caller.platformId, caller.mode],
    );
    if (!rows[0]) throw notFound();
    return rows[0].body;
  }

  async list(caller: CallerContext, query: ListBeneficialOwnersQuery): Promise<Page<BeneficialOwner>> {
    if (!(await this.customerStatus(this.dataSource, caller, query.customerId))) throw customerNotFound();
    return keysetBodyPage<BeneficialOwner>({
      db: this.dataSource,
      table: 'beneficial_owners',
      keyColumn: 'beneficial_owner_id',
      where: { sql: 'platform_id = $1 AND mode = $2 AND customer_id = $3', params: [caller.platformId, caller.mode, query.customerId] },
      limit: query.limit,
      cursor: query.cursor,
    });
  }

  /** For the verification, inside its transaction: the business's owners as the API shows them, oldest first. */
  async ownersOf(tx: EntityManager, scope: Scope, customerId: string): Promise<BeneficialOwner[]> {
    const rows = await queryRows<{ body: BeneficialOwner }>(
      tx,
      `SELECT body FROM beneficial_owners WHERE customer_id = $1 AND platform_id = $2 AND mode = $3 ORDER BY beneficial_owner_id COLLATE "C"`,
      [customerId, scope.platformId, scope.mode],
    );
    return rows.map((r) => r.body);
  }

  /**
   * When the business's verification is decided (inside the decision's transaction): every owner still PENDING gets
   * `outcome(ownerId)` (a production decision), or without it the status its lastName suffix calls for (the sandbox).
   * Idempotent: decided owners are left alone.
   */
  async verifyOwnersOf(tx: EntityManager, scope: Scope, customerId: string, verificationId: string, now: string, outcome?: (beneficialOwnerId: string) => 'APPROVED' | 'REJECTED'): Promise<void> {
    await lockBusinessOwners(tx, customerId);
    for (const owner of await this.ownersOf(tx, scope, customerId)) {
      const command: BeneficialOwnerCommand = { type: 'VerifyBeneficialOwner', verificationId, ...(outcome ? { decided: outcome(owner.id) } : {}), now };
      await this.executor.decideAndAppend(tx, this.request(scope, owner.id, command, { correlationId: verificationId, actor: 'verification' }));
    }
  }

  /** 404 for a missing or foreign customer, 400 for an individual; returns the business's kybStatus, read under the lock. */
  private async lockBusiness(tx: EntityManager, caller: CallerContext, customerId: string): Promise<KycStatus> {
    await lockBusinessOwners(tx, customerId);
    const customer = await this.customerStatus(tx, caller, customerId);
    if (!customer) throw customerNotFound();
    if (customer.customer_type !== 'BUSINESS') {
      throw new ApiError('INVALID_INPUT', 'beneficial owners belong to BUSINESS customers only', { errors: [{ field: 'customerId', message: 'not a BUSINESS customer' }] });
    }
    return customer.status;
  }

  private async customerStatus(db: DataSource | EntityManager, caller: CallerContext, customerId: string) {
    if (!isCustomerId(customerId)) return undefined;
    const rows = await queryRows<{ customer_type: string; status: KycStatus }>(
      db,
      `SELECT customer_type, status FROM customers WHERE customer_id = $1 AND platform_id = $2 AND mode = $3 AND deleted_at IS NULL`,
      [customerId, caller.platformId, caller.mode],
    );
    return rows[0];
  }

  private async ownershipOfOthers(tx: EntityManager, customerId: string, beneficialOwnerId: string): Promise<number> {
    const rows = await queryRows<{ total: number }>(
      tx,
      `SELECT coalesce(sum((body->>'ownershipPercentage')::int), 0)::int AS total FROM beneficial_owners WHERE customer_id = $1 AND beneficial_owner_id <> $2`,
      [customerId, beneficialOwnerId],
    );
    return rows[0].total;
  }

  private transaction<T>(work: (tx: EntityManager) => Promise<T>): Promise<T> {
    return retryOnConflict(() => this.dataSource.transaction(work), this.versionConflictRetriesMax);
  }

  private request(
    scope: Scope,
    beneficialOwnerId: string,
    command: BeneficialOwnerCommand,
    metadata: EventMetadata,
  ): CommandRequest<EntityManager, BeneficialOwnerState, BeneficialOwnerCommand, BeneficialOwnerEvent> {
    return { decider: beneficialOwnerDecider, streamId: beneficialOwnerId, platformId: scope.platformId, metadata, command, project: projectBeneficialOwner };
  }
}

/**
 * Owners are part of the identity a KYB decision is about: once a production business is APPROVED they are as
 * approved (read under the business's lock, which the approving decision holds too). docs/kyc.md#after-approval.
 */
function assertIdentityOpen(caller: CallerContext, kybStatus: KycStatus): void {
  if (caller.mode === 'PRODUCTION' && kybStatus === 'APPROVED') {
    throw new ApiError('KYC_IDENTITY_LOCKED', "the business's KYB was approved with these beneficial owners: they cannot be added or changed after approval", { fields: ['beneficialOwners'] });
  }
}

const callerMetadata = (caller: CallerContext): EventMetadata => ({ correlationId: caller.correlationId, actor: caller.clientId });

/**
 * Serialises every write to one business's owners (and the decision that verifies them); a KYC/KYB approval and
 * document writes take it too, so a change to what the approval is about either is seen by it or sees its result.
 */
export function lockBusinessOwners(tx: EntityManager, customerId: string): Promise<unknown> {
  return tx.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`BeneficialOwners/${customerId}`]);
}
