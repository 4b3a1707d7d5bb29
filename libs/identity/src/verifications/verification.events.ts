import type { CustomerType, Mode, VerificationError } from '@payments/contracts';

/** Who the verification is about; on every event that can open a verification stream. */
export interface VerificationScope {
  verificationId: string;
  customerId: string;
  platformId: string;
  mode: Mode;
  customerType: CustomerType;
}

/** Submitted with inputs missing: nothing goes to review; `errors` says what to fix before submitting again. */
export type VerificationErrorsFound = {
  type: 'VerificationErrorsFound.v1';
  data: VerificationScope & { attempt: number; errors: VerificationError[]; at: string };
};

/**
 * Submitted complete: the case is under review. `sandboxDecision` is the simulated provider's answer, applied by a
 * durable timer; null when nothing decides automatically (sandbox suffix 001, and every production case: no KYC
 * provider is integrated, a person must decide). `documentIds` are the documents handed over (now undeletable).
 */
export type VerificationSubmitted = {
  type: 'VerificationSubmitted.v1';
  data: VerificationScope & {
    attempt: number;
    verificationStatus: 'IN_PROGRESS' | 'PENDING_MANUAL_REVIEW';
    sandboxDecision: 'APPROVED' | 'REJECTED' | null;
    documentIds: string[];
    submittedAt: string;
  };
};

export type VerificationApproved = {
  type: 'VerificationApproved.v1';
  data: { verificationId: string; customerId: string; customerType: CustomerType; attempt: number; at: string };
};

export type VerificationRejected = {
  type: 'VerificationRejected.v1';
  data: { verificationId: string; customerId: string; customerType: CustomerType; attempt: number; errors: VerificationError[]; at: string };
};

export type VerificationEvent = VerificationErrorsFound | VerificationSubmitted | VerificationApproved | VerificationRejected;
