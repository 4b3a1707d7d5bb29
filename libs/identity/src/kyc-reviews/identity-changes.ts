/**
 * Told after a write to what a KYC/KYB review is about has committed (the customer's material fields, a business's
 * owners, the documents they hold), so that a waiting review drops approvals of another identity at once
 * (KycReviewService.identityChanged). `customerId`: the customer under review (an owner's business).
 */
export interface IdentityChanges {
  changed(customerId: string, correlationId: string | undefined, now: string): Promise<void>;
}

export const NO_IDENTITY_CHANGES: IdentityChanges = { changed: async () => undefined };
