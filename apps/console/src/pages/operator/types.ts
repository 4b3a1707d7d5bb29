/*
 * The operator API's answers as these views read them (libs/contracts/src/operator/*.ts, docs/operators.md). Kept
 * here, not imported: the contracts carry class-validator decorators and server code the browser bundle must not.
 */

export const OPERATOR_ROLES = ['VIEWER', 'REVIEWER', 'ADMIN'] as const;
export type OperatorRole = (typeof OPERATOR_ROLES)[number];




// KYC/KYB reviews (kyc-review.dto.ts)
export const KYC_REVIEW_STATUSES = ['AWAITING_REVIEW', 'AWAITING_SECOND_APPROVAL', 'CHANGES_REQUESTED', 'APPROVED', 'REJECTED'] as const;
export type KycReviewStatus = (typeof KYC_REVIEW_STATUSES)[number];
export const VERIFICATION_ERROR_TYPES = [
  'MISSING_FIELD', 'INVALID_FIELD', 'MISSING_LEGAL_PRESENCE_DOCUMENT', 'MISSING_CONTROL_STRUCTURE_DOCUMENT', 'MISSING_OWNERSHIP_STRUCTURE_DOCUMENT',
  'MISSING_PROOF_OF_ADDRESS_DOCUMENT', 'MISSING_IDENTITY_DOCUMENT', 'INVALID_DOCUMENT', 'EXPIRED_DOCUMENT', 'POOR_QUALITY_DOCUMENT',
  'SUSPECTED_FRAUD_DOCUMENT', 'WRONG_DOCUMENT_TYPE', 'INCOMPLETE_DOCUMENT', 'UNREADABLE_DOCUMENT', 'DOCUMENT_VERIFICATION_FAILED',
  'APPLICANT_SANCTIONED', 'APPLICANT_FRAUD', 'APPLICANT_CRIMINAL_RECORD', 'APPLICANT_REJECTED', 'MISSING_BENEFICIAL_OWNER',
  'MISSING_CONTROL_PERSON', 'MISSING_GOOD_STANDING_DOCUMENT',
] as const;
export const DOCUMENT_TYPES = [
  'PASSPORT', 'DRIVERS_LICENSE', 'NATIONAL_ID', 'PROOF_OF_ADDRESS', 'BANK_STATEMENT', 'TAX_RETURN',
  'CERTIFICATE_OF_INCORPORATION', 'ARTICLES_OF_INCORPORATION', 'ARTICLES_OF_ASSOCIATION', 'STATE_REGISTRY_EXCERPT',
  'GOOD_STANDING_CERTIFICATE', 'INFORMATION_STATEMENT', 'INCUMBENCY_CERTIFICATE', 'BUSINESS_LICENSE',
] as const;




export interface KycDocument {
  id: string;
  documentHolder: string;
  documentType: string;
  side?: string;
  country: string;
  documentNumber?: string;
  issuingAuthority?: string;
  fileName: string;
  contentType: string;
  sizeBytes: number;
  sha256: string;
  createdAt: string;
}



// External account verification (account-verification.dto.ts)
export const ACCOUNT_VERIFICATION_METHODS = ['OPERATOR_APPROVAL', 'PAYOUT_RAIL'] as const;




// Rails (rails.dto.ts)
export const RAIL_FILE_DIRECTIONS = ['OUTBOUND', 'INBOUND'] as const;
export const RAIL_FILE_STATUSES = ['WRITING', 'WRITTEN', 'IMPORTED'] as const;
export const RAIL_EXCEPTION_STATUSES = ['OPEN', 'RESOLVED'] as const;
export const RAIL_EXCEPTION_KINDS = [
  'UNMATCHED_ENTRY', 'NOTIFICATION_OF_CHANGE', 'RETURN_NOT_REVERSIBLE', 'CONTRADICTORY_OUTCOME', 'UNMATCHED_CREDIT', 'AMOUNT_MISMATCH',
  'REFUSED_FILE', 'UNWRITABLE_FILE', 'BRIDGE_ERROR', 'NO_VERIFYING_RAIL',
] as const;








// Rates (rates.dto.ts)





// Fees (fees.dto.ts)
export const CRYPTO_NETWORKS = ['BITCOIN', 'LIGHTNING', 'SPARK', 'ETHEREUM', 'BASE', 'POLYGON', 'SOLANA', 'TRON', 'PLASMA'] as const;



export type Versioned<T> = T & { change: 'SET' | 'REMOVED'; reason: string | null };

// Ledger checks (GET /ledger-checks: `npm run admin -- ledger:check`'s recorded runs, newest first)
export interface LedgerCheckRun {
  runId: number;
  finishedAt: string;
  accountsChecked: number;
  violations: number;
  /** The rules violated, each once. */
  rules: string[];
}

// The response types are the contracts' own (type-only: nothing of libs/ enters the bundle).
export type { OperatorView, OperatorPlatformView, AuditEvent, VerificationError, KycReviewApproval, KycReviewDecision, BeneficialOwner, KycReview, AccountVerificationMethodView, AccountVerificationMethodList, ExternalAccountReview, RailConnectorView, RailFileView, RailPaymentView, RailOutcomeView, RailExceptionView, RailFileDetail, RailImportResult, OperatorRate, RateSourceStatus, RatePricing, OperatorRateList, OperatorRateEntry, ServiceFeeSchedule, NetworkFeeSchedule } from '@payments/contracts';
