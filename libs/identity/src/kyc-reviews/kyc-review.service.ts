import type { DataSource, EntityManager } from 'typeorm';
import { v7 as uuidv7 } from 'uuid';
import {
  ApiError,
  ApproveKycReviewRequest,
  BeneficialOwner,
  CallerContext,
  Customer,
  Document,
  DocumentContentType,
  FileAnswer,
  isVerificationId,
  KYC_REVIEW_WAITING,
  KycReview,
  ListKycReviewsQuery,
  OperatorPrincipal,
  operatorActionStream,
  Page,
  RejectKycReviewRequest,
  RequestKycReviewChangesRequest,
  Verification,
} from '@payments/contracts';
import { appendNewStreams, ClaimInTransaction, CommandExecutor, EventStore, IdempotencyClaims, queryRows, retryOnConflict, SqlExecutor } from '@payments/eventsourcing';
import { idempotencyScopeOf, keysetPage, SqlWhere } from '@payments/runtime';
import { lockBusinessOwners } from '../beneficial-owners/beneficial-owner.service';
import { KycDecision, KycDecisions } from '../verifications/kyc-provider';
import { KycReviewCommand, kycReviewDecider } from './kyc-review.decider';
import { KycReviewDecided } from './kyc-review.events';
import { projectKycReview } from './kyc-review.projection';
import { KycReviewApprovalRecord, KycReviewDecision, KycReviewResetRecord } from './kyc-review.state';
import { kycReviewStreamId } from './manual-review-provider';
import { currentIdentityDigest } from './reviewed-identity.reader';

/** How many reviewers must approve a submission (KYC_APPROVALS_REQUIRED): 2 is four-eyes. */
export interface KycReviewOptions {
  approvalsRequired: 1 | 2;
}

export const KYC_REVIEW_DEFAULTS: KycReviewOptions = { approvalsRequired: 2 };

/** The parts of DocumentService the queue uses (structural). */
export interface KycReviewDocuments {
  byIds(documentIds: readonly string[]): Promise<Document[]>;
  getContent(scope: { platformId: string; mode: 'PRODUCTION' }, documentId: string): Promise<{ fileName: string; contentType: DocumentContentType; bytes: Buffer }>;
}

interface ReviewRow {
  verification_id: string;
  platform_id: string;
  customer_id: string;
  customer_type: 'INDIVIDUAL' | 'BUSINESS';
  attempt: number;
  review_status: KycReview['reviewStatus'];
  approvals: KycReviewApprovalRecord[];
  decision: KycReviewDecision | null;
  document_ids: string[];
  submitted_at: Date;
  queue_key: string;
  resets: KycReviewResetRecord[];
}

/** What an operator's decision records in the audit log besides who and when. */
interface Audited {
  action: 'kyc.approve' | 'kyc.reject' | 'kyc.request-changes';
  reason?: string;
  details: Record<string, unknown>;
}

const reviewNotFound = () => new ApiError('REFERENCE_NOT_FOUND', 'no KYC review for this verification');
const documentNotFound = () => new ApiError('REFERENCE_NOT_FOUND', 'document not found in this review');

/**
 * The manual review queue through the operator API: every production verification submitted complete, with what a
 * reviewer needs (customer, owners, documents, approvals), and the reviewers' decisions. Each decision is one
 * transaction: the review's events, the operator's action record (`also`), the Idempotency-Key claim and, when it
 * decides, the verification's decision through KycDecisions (the customer, its owners and the webhooks follow).
 * Sandbox verifications are never here: the sandbox decides its own.
 */
export class KycReviewService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly executor: CommandExecutor<EntityManager>,
    private readonly store: EventStore,
    private readonly documents: KycReviewDocuments,
    private readonly decisions: KycDecisions,
    private readonly claims: IdempotencyClaims,
    private readonly options: KycReviewOptions = KYC_REVIEW_DEFAULTS,
    private readonly versionConflictRetriesMax = 5,
  ) {}

  async list(query: ListKycReviewsQuery): Promise<Page<KycReview>> {
    const where = new SqlWhere().add('platform_id = ?', query.platformId).add('customer_type = ?', query.customerType);
    where.add('review_status = ANY(?)', query.reviewStatus ? [query.reviewStatus] : [...KYC_REVIEW_WAITING]);
    const page = await keysetPage<ReviewRow, ReviewRow>({
      db: this.dataSource,
      from: `FROM kyc_reviews WHERE ${where.sql}`,
      params: where.params,
      keyColumn: 'queue_key',
      order: 'asc', // a queue: the oldest submission first
      limit: query.limit,
      cursor: query.cursor,
      toItem: (row) => row,
      keyOf: (row) => row.queue_key,
    });
    return { ...page, data: await this.views(page.data) };
  }

  async get(verificationId: string): Promise<KycReview> {
    const [view] = await this.views([await this.row(this.dataSource, verificationId)]);
    return view;
  }

  /**
   * A document handed over with the submission, its bytes opened from sealed storage. Who looked at which identity
   * document is recorded (`kyc.download-document`) before the bytes leave.
   */
  async documentFile(caller: CallerContext, verificationId: string, documentId: string): Promise<FileAnswer> {
    const review = await this.row(this.dataSource, verificationId);
    if (!review.document_ids.includes(documentId)) throw documentNotFound();
    const file = await this.documents.getContent({ platformId: review.platform_id, mode: 'PRODUCTION' }, documentId);
    const record = operatorActionStream({
      actionId: uuidv7(),
      operator: operatorOf(caller),
      action: 'kyc.download-document',
      target: { type: 'Document', id: documentId },
      platformId: review.platform_id,
      details: { verificationId, attempt: review.attempt },
      occurredAt: new Date().toISOString(),
    });
    await this.dataSource.transaction((tx) => appendNewStreams(tx, this.store, [record], { platformId: review.platform_id, metadata: { correlationId: caller.correlationId, actor: record.events[0].data.operatorId } }));
    return { fileName: file.fileName, contentType: file.contentType, base64: file.bytes.toString('base64') };
  }

  approve(caller: CallerContext, verificationId: string, body: ApproveKycReviewRequest, now: string): Promise<KycReview> {
    const { approvalsRequired } = this.options;
    return this.decide(caller, verificationId, 'kyc-review-approve', now, async (review, tx) => {
      // The identity as it is now, read under the locks its writers take (the business's owners and documents, the
      // customer's stream), which the decision keeps until it commits: a change either is seen here or sees the
      // decision. Only for a waiting review (the decider refuses the others): a resubmission takes the customer's
      // stream before the review's, and must not meet an approval holding them the other way round.
      if (KYC_REVIEW_WAITING.includes(review.review_status)) {
        await lockBusinessOwners(tx, review.customer_id);
        await tx.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [review.customer_id]);
      }
      const identity = await currentIdentityDigest(tx, this.store, review.customer_id);
      return {
        command: { type: 'Approve', operator: operatorOf(caller), reason: body.reason, approvalsRequired, identity, seen: body.digest, now },
        audit: {
          action: 'kyc.approve',
          reason: body.reason,
          details: { customerType: review.customer_type, attempt: review.attempt, approvalsRequired, approvalsBefore: review.approvals.length, digest: identity.digest },
        },
      };
    });
  }

  /**
   * After a write to a customer's identity (the customer, an owner, a document) has committed: if the customer's
   * submission waits for reviewers and the identity is materially another than the one under review, the approvals
   * are dropped and the review shows the reset. Best effort on purpose: the approval reads the identity again and
   * cannot decide on another digest, so a recheck lost in a crash costs only the early notice, never the guard.
   */
  async identityChanged(customerId: string, correlationId: string | undefined, now: string): Promise<void> {
    const [waiting] = await queryRows<{ verification_id: string; platform_id: string }>(
      this.dataSource,
      `SELECT verification_id, platform_id FROM kyc_reviews WHERE customer_id = $1 AND review_status = ANY($2)`,
      [customerId, [...KYC_REVIEW_WAITING]],
    );
    if (!waiting) return;
    const streamId = kycReviewStreamId(waiting.verification_id);
    await retryOnConflict(
      () =>
        this.dataSource.transaction(async (tx) => {
          await tx.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [streamId]);
          const identity = await currentIdentityDigest(tx, this.store, customerId);
          await this.executor.decideAndAppend(tx, {
            decider: kycReviewDecider,
            streamId,
            platformId: waiting.platform_id,
            metadata: { correlationId: correlationId ?? customerId, actor: 'identity-change' },
            command: { type: 'RecheckIdentity', identity, now },
            project: projectKycReview,
          });
        }),
      this.versionConflictRetriesMax,
    );
  }

  reject(caller: CallerContext, verificationId: string, body: RejectKycReviewRequest, now: string): Promise<KycReview> {
    return this.decide(caller, verificationId, 'kyc-review-reject', now, (review) => ({
      command: { type: 'Reject', operator: operatorOf(caller), reason: body.reason, now },
      audit: { action: 'kyc.reject', reason: body.reason, details: { customerType: review.customer_type, attempt: review.attempt, approvalsDropped: review.approvals.length } },
    }));
  }

  requestChanges(caller: CallerContext, verificationId: string, body: RequestKycReviewChangesRequest, now: string): Promise<KycReview> {
    return this.decide(caller, verificationId, 'kyc-review-request-changes', now, async (review, tx) => {
      const owners = await queryRows<{ beneficial_owner_id: string }>(tx, `SELECT beneficial_owner_id FROM beneficial_owners WHERE customer_id = $1`, [review.customer_id]);
      const resourceIds = [review.customer_id, ...owners.map((o) => o.beneficial_owner_id)];
      return {
        command: { type: 'RequestChanges', operator: operatorOf(caller), reason: body.reason, errors: body.errors, resourceIds, now },
        audit: { action: 'kyc.request-changes', reason: body.reason, details: { customerType: review.customer_type, attempt: review.attempt, errors: body.errors.map((e) => ({ ...e })) } },
      };
    });
  }

  /** One decision per Idempotency-Key: a retry answers the review as it is now instead of deciding again. */
  private decide(
    caller: CallerContext,
    verificationId: string,
    operation: string,
    now: string,
    build: (review: ReviewRow, tx: EntityManager) => { command: KycReviewCommand; audit: Audited } | Promise<{ command: KycReviewCommand; audit: Audited }>,
  ): Promise<KycReview> {
    return this.claims.run(
      idempotencyScopeOf(caller),
      operation,
      verificationId,
      async (claim) => {
        await retryOnConflict(() => this.dataSource.transaction((tx) => this.decideIn(tx, caller, verificationId, now, build, claim)), this.versionConflictRetriesMax);
        return this.get(verificationId);
      },
      (id) => this.get(id),
    );
  }

  private async decideIn(
    tx: EntityManager,
    caller: CallerContext,
    verificationId: string,
    now: string,
    build: (review: ReviewRow, tx: EntityManager) => { command: KycReviewCommand; audit: Audited } | Promise<{ command: KycReviewCommand; audit: Audited }>,
    claim: ClaimInTransaction,
  ): Promise<void> {
    // The review's lock (the executor takes it again, re-entrant) before reading it: the approvals and the attempt
    // the audit record states are those this decision saw, even with another reviewer deciding at the same moment.
    if (isVerificationId(verificationId)) await tx.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [kycReviewStreamId(verificationId)]);
    const locked = await this.row(tx, verificationId);
    const { command, audit } = await build(locked, tx);
    const operator = operatorOf(caller);
    const metadata = { correlationId: caller.correlationId, actor: operator.operatorId };
    const record = operatorActionStream({
      actionId: uuidv7(),
      operator,
      action: audit.action,
      target: { type: 'Verification', id: verificationId },
      platformId: locked.platform_id,
      reason: audit.reason,
      details: audit.details,
      occurredAt: now,
    });
    const result = await this.executor.decideAndAppend(tx, {
      decider: kycReviewDecider,
      streamId: kycReviewStreamId(verificationId),
      platformId: locked.platform_id,
      metadata,
      command,
      project: projectKycReview,
      claim,
      also: [record],
    });
    const decided = result.events.find((e) => e.type === 'KycReviewDecided.v1');
    if (decided?.type !== 'KycReviewDecided.v1') return; // an approval that waits for another
    const target = { verificationId, platformId: locked.platform_id, attempt: decided.data.attempt };
    await this.decisions.apply(tx, target, kycDecisionOf(decided.data), { now, metadata });
  }

  /** The review of a production verification, or 404 (a sandbox, unknown or malformed id alike). */
  private async row(db: SqlExecutor, verificationId: string): Promise<ReviewRow> {
    if (!isVerificationId(verificationId)) throw reviewNotFound();
    const [row] = await queryRows<ReviewRow>(db, `SELECT * FROM kyc_reviews WHERE verification_id = $1`, [verificationId]);
    if (!row) throw reviewNotFound();
    return row;
  }

  /** The reviews as the operator API shows them: each with its verification, customer, owners and documents. */
  private async views(rows: ReviewRow[]): Promise<KycReview[]> {
    if (rows.length === 0) return [];
    const verificationIds = rows.map((r) => r.verification_id);
    const customerIds = rows.map((r) => r.customer_id);
    const [verifications, customers, owners, documents, digests] = await Promise.all([
      queryRows<{ verification_id: string; body: Verification }>(this.dataSource, `SELECT verification_id, body FROM verifications WHERE verification_id = ANY($1)`, [verificationIds]),
      queryRows<{ customer_id: string; body: Customer }>(this.dataSource, `SELECT customer_id, body FROM customers WHERE customer_id = ANY($1)`, [customerIds]),
      queryRows<{ customer_id: string; body: BeneficialOwner }>(
        this.dataSource,
        `SELECT customer_id, body FROM beneficial_owners WHERE customer_id = ANY($1) ORDER BY beneficial_owner_id COLLATE "C"`,
        [customerIds],
      ),
      this.documents.byIds([...new Set(rows.flatMap((r) => r.document_ids))]),
      // The digest of what this answer shows, read now: what a reviewer approving it approves.
      Promise.all(rows.map((r) => currentIdentityDigest(this.dataSource, this.store, r.customer_id))),
    ]);
    const verificationOf = new Map(verifications.map((v) => [v.verification_id, v.body]));
    const customerOf = new Map(customers.map((c) => [c.customer_id, c.body]));
    const documentOf = new Map(documents.map((d) => [d.id, d]));
    return rows.map((row, i) => ({
      verificationId: row.verification_id,
      platformId: row.platform_id,
      customerType: row.customer_type,
      reviewStatus: row.review_status,
      attempt: row.attempt,
      approvalsRequired: this.options.approvalsRequired,
      digest: digests[i].digest,
      approvals: row.approvals.map(approvalView),
      resets: (row.resets ?? []).map((r) => ({
        ...(r.previousDigest ? { previousDigest: r.previousDigest } : {}),
        digest: r.identity.digest,
        changed: [...r.changed],
        approvalsDropped: r.approvalsDropped.map(approvalView),
        resetAt: r.at,
      })),
      ...(row.decision ? { decision: decisionView(row.decision) } : {}),
      submittedAt: new Date(row.submitted_at).toISOString(),
      verification: verificationOf.get(row.verification_id)!,
      customer: customerOf.get(row.customer_id)!,
      beneficialOwners: owners.filter((o) => o.customer_id === row.customer_id).map((o) => o.body),
      documents: row.document_ids.flatMap((id) => documentOf.get(id) ?? []),
    }));
  }
}

/** Set by the gateway and checked by @Handles (operatorRpc) before any handler runs. */
function operatorOf(caller: CallerContext): OperatorPrincipal {
  if (!caller.operator) throw new ApiError('NOT_FOUND', 'no such resource or route');
  return caller.operator;
}

/** The review's decision as the KYC provider port carries it back to the verification. */
function kycDecisionOf(decided: KycReviewDecided['data']): KycDecision {
  switch (decided.outcome) {
    case 'APPROVED':
      return { outcome: 'APPROVED' };
    case 'REJECTED':
      return { outcome: 'REJECTED', errors: decided.errors };
    case 'RESOLVE_ERRORS':
      return { outcome: 'RESOLVE_ERRORS', errors: decided.errors };
  }
}

function approvalView(a: KycReviewApprovalRecord): KycReview['approvals'][number] {
  return { operatorId: a.operatorId, operatorName: a.operatorName, ...(a.reason ? { reason: a.reason } : {}), ...(a.digest ? { digest: a.digest } : {}), approvedAt: a.at };
}

function decisionView(decision: KycReviewDecision): NonNullable<KycReview['decision']> {
  const { outcome, operatorId, operatorName, reason, errors, at } = decision;
  return { outcome, operatorId, operatorName, ...(reason ? { reason } : {}), errors, decidedAt: at };
}
