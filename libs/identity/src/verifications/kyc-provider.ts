import type { EntityManager } from 'typeorm';
import type { CustomerType, VerificationError } from '@payments/contracts';
import type { EventMetadata } from '@payments/eventsourcing';

/**
 * The KYC/KYB provider port: who decides a complete production submission. The verification hands each complete
 * submission over (`submitted`, in the submitting transaction) and the provider answers later with a KycDecision
 * through KycDecisions, the one path every decision takes (the sandbox's timed ones too): the verification's events,
 * the customer's kycStatus/kybStatus, a business's owners, and so the webhooks, whichever provider decided.
 *
 * Adapters: the manual review queue worked through the operator API (../kyc-reviews/manual-review-provider.ts), the
 * only one today. A KYC vendor would be another: `submitted` schedules the call to its API (a durable timer, so the
 * call is made once the submission commits), and its callback turns the vendor's answer into a KycDecision.
 */
export interface KycProvider {
  submitted(tx: EntityManager, submission: KycSubmission): Promise<void>;
}

/** A complete production submission, as the verification handed it over. */
export interface KycSubmission {
  verificationId: string;
  customerId: string;
  platformId: string;
  customerType: CustomerType;
  /** The submission's number in its case: a decision names the attempt it decides, so a stale one decides nothing. */
  attempt: number;
  /** The documents handed over (the customer's and, for a business, its owners'): the evidence. */
  documentIds: string[];
  submittedAt: string;
}

/**
 * A provider's answer about one submission. APPROVED and REJECTED are final; RESOLVE_ERRORS hands the case back to
 * the platform with `errors` to fix (the verification becomes RESOLVE_ERRORS) until it submits again.
 */
export type KycDecision =
  | { outcome: 'APPROVED'; owners?: OwnerOutcomes }
  | { outcome: 'REJECTED'; errors: VerificationError[]; owners?: OwnerOutcomes }
  | { outcome: 'RESOLVE_ERRORS'; errors: VerificationError[] };

/**
 * A business's beneficial owners' own outcomes, by owner id, for a provider that screens owners one by one; an owner
 * it does not name (and every owner, without it) takes the business's outcome.
 */
export type OwnerOutcomes = Record<string, 'APPROVED' | 'REJECTED'>;

/** Which submission a decision is about. */
export interface KycDecisionTarget {
  verificationId: string;
  platformId: string;
  attempt: number;
}

/** How a decision comes back: applied in the caller's transaction, with whatever the caller records alongside. */
export interface KycDecisions {
  apply(tx: EntityManager, target: KycDecisionTarget, decision: KycDecision, context: KycDecisionContext): Promise<void>;
}

export interface KycDecisionContext {
  now: string;
  metadata: EventMetadata;
}
