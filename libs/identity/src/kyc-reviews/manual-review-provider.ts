import type { EntityManager } from 'typeorm';
import { CommandExecutor } from '@payments/eventsourcing';
import { KycProvider, KycSubmission } from '../verifications/kyc-provider';
import { kycReviewDecider } from './kyc-review.decider';
import { projectKycReview } from './kyc-review.projection';

/** The review stream of a verification: `KycReview:<uuid>` beside `Verification:<uuid>`. */
export const kycReviewStreamId = (verificationId: string) => `KycReview:${verificationId.slice('Verification:'.length)}`;

/**
 * The KYC provider adapter of the manual review queue: a complete production submission enters the queue in the
 * submitting transaction, and reviewers decide it through the operator API (KycReviewService), whose decisions come
 * back through KycDecisions like any provider's.
 */
export class ManualReviewProvider implements KycProvider {
  constructor(private readonly executor: CommandExecutor<EntityManager>) {}

  async submitted(tx: EntityManager, submission: KycSubmission): Promise<void> {
    await this.executor.decideAndAppend(tx, {
      decider: kycReviewDecider,
      streamId: kycReviewStreamId(submission.verificationId),
      platformId: submission.platformId,
      metadata: { correlationId: submission.verificationId, actor: 'verification' },
      command: { type: 'OpenReview', review: { ...submission } },
      project: projectKycReview,
    });
  }
}
