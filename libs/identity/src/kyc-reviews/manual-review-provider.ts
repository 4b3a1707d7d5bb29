import type { EntityManager } from 'typeorm';
import { CommandExecutor, EventStore } from '@payments/eventsourcing';
import { KycProvider, KycSubmission } from '../verifications/kyc-provider';
import { kycReviewDecider } from './kyc-review.decider';
import { projectKycReview } from './kyc-review.projection';
import { currentIdentityDigest } from './reviewed-identity.reader';

/** The review stream of a verification: `KycReview:<uuid>` beside `Verification:<uuid>`. */
export const kycReviewStreamId = (verificationId: string) => `KycReview:${verificationId.slice('Verification:'.length)}`;

/**
 * The KYC provider adapter of the manual review queue: a complete production submission enters the queue in the
 * submitting transaction, and reviewers decide it through the operator API (KycReviewService), whose decisions come
 * back through KycDecisions like any provider's.
 */
export class ManualReviewProvider implements KycProvider {
  constructor(
    private readonly executor: CommandExecutor<EntityManager>,
    private readonly store: EventStore,
  ) {}

  /** The review records the digest of the identity submitted (in the submitting transaction): what approvals are about. */
  async submitted(tx: EntityManager, submission: KycSubmission): Promise<void> {
    const identity = await currentIdentityDigest(tx, this.store, submission.customerId);
    await this.executor.decideAndAppend(tx, {
      decider: kycReviewDecider,
      streamId: kycReviewStreamId(submission.verificationId),
      platformId: submission.platformId,
      metadata: { correlationId: submission.verificationId, actor: 'verification' },
      command: { type: 'OpenReview', review: { ...submission, identity } },
      project: projectKycReview,
    });
  }
}
