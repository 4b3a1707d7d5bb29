/*
 * The operator API's answers as these views read them (libs/contracts/src/operator/*.ts, docs/operators.md). Kept
 * here, not imported: the contracts carry class-validator decorators and server code the browser bundle must not.
 */

export const OPERATOR_ROLES = ['VIEWER', 'REVIEWER', 'ADMIN'] as const;
export type OperatorRole = (typeof OPERATOR_ROLES)[number];

export interface OperatorView {
  id: string;
  name: string;
  role: OperatorRole;
  createdAt: string;
}

export interface OperatorPlatformView {
  id: string;
  name: string;
  createdAt: string;
}

export interface AuditEvent {
  id: string;
  service: string;
  operator: { id: string; name: string; role: string };
  action: string;
  target: { type: string; id: string };
  platformId?: string;
  reason?: string;
  details?: Record<string, unknown>;
  occurredAt: string;
}

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

export interface VerificationError {
  resourceId: string;
  type: string;
  field?: string;
  acceptedDocumentTypes?: string[];
  reason: string;
}

export interface KycReviewApproval {
  operatorId: string;
  operatorName: string;
  reason?: string;
  approvedAt: string;
}

export interface KycReviewDecision {
  outcome: 'APPROVED' | 'REJECTED' | 'RESOLVE_ERRORS';
  operatorId: string;
  operatorName: string;
  reason?: string;
  errors: VerificationError[];
  decidedAt: string;
}

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

export interface BeneficialOwner {
  id: string;
  customerId: string;
  roles: string[];
  ownershipPercentage: number;
  personalInfo: Record<string, unknown> & { firstName?: string; lastName?: string };
  kycStatus: string;
}

export interface KycReview {
  verificationId: string;
  platformId: string;
  customerType: string;
  reviewStatus: KycReviewStatus;
  attempt: number;
  approvalsRequired: number;
  approvals: KycReviewApproval[];
  decision?: KycReviewDecision;
  submittedAt: string;
  verification: { id: string; customerId: string; verificationStatus: string; errors: VerificationError[]; createdAt: string; updatedAt: string };
  customer: Record<string, unknown> & { id: string; platformCustomerId?: string; customerType?: string; fullName?: string; businessInfo?: { legalName?: string } };
  beneficialOwners: BeneficialOwner[];
  documents: KycDocument[];
}

// External account verification (account-verification.dto.ts)
export const ACCOUNT_VERIFICATION_METHODS = ['OPERATOR_APPROVAL', 'PAYOUT_RAIL'] as const;

export interface AccountVerificationMethodView {
  currency: string;
  method: string;
  configured: boolean;
  updatedAt?: string;
  updatedBy?: { id: string; name: string };
}

export interface AccountVerificationMethodList {
  defaultMethod: string;
  data: AccountVerificationMethodView[];
}

export interface ExternalAccountReview {
  id: string;
  platformId: string;
  customerId?: string;
  currency: string;
  status: string;
  verificationMethod: string;
  beneficiaryVerificationStatus?: string;
  createdAt: string;
  account: Record<string, unknown>;
}

// Rails (rails.dto.ts)
export const RAIL_FILE_DIRECTIONS = ['OUTBOUND', 'INBOUND'] as const;
export const RAIL_FILE_STATUSES = ['WRITING', 'WRITTEN', 'IMPORTED'] as const;
export const RAIL_EXCEPTION_STATUSES = ['OPEN', 'RESOLVED'] as const;
export const RAIL_EXCEPTION_KINDS = [
  'UNMATCHED_ENTRY', 'NOTIFICATION_OF_CHANGE', 'RETURN_NOT_REVERSIBLE', 'CONTRADICTORY_OUTCOME', 'UNMATCHED_CREDIT', 'AMOUNT_MISMATCH',
  'REFUSED_FILE', 'UNWRITABLE_FILE', 'BRIDGE_ERROR', 'NO_VERIFYING_RAIL',
] as const;

export interface RailConnectorView {
  id: string;
  kind: string;
  routes: { currency: string; paymentRail: string; directions: string[] }[];
  capabilities: Record<string, boolean>;
  paymentsSubmitted: number;
  paymentsAwaitingRail: number;
  exceptionsOpen: number;
  lastOutboundFileAt?: string;
}

export interface RailFileView {
  id: string;
  connectorId: string;
  direction: string;
  format: string;
  name: string;
  status: string;
  sha256?: string;
  sizeBytes?: number;
  entryCount: number;
  totalAmount: number;
  meta: Record<string, unknown>;
  importedBy?: string;
  createdAt: string;
  writtenAt?: string;
}

export interface RailPaymentView {
  paymentId: string;
  connectorId: string;
  platformId: string;
  kind: string;
  paymentRail: string;
  railReference: string;
  amount: number;
  currency: string;
  externalAccountId: string;
  status: string;
  fileId?: string;
  providerReference?: string;
  settlesAt?: string;
  submittedAt: string;
  updatedAt: string;
}

export interface RailOutcomeView {
  paymentId: string;
  kind: string;
  failureReason?: string;
  railCode?: string;
  source: string;
  recordedAt: string;
  appliedAt?: string;
}

export interface RailExceptionView {
  id: string;
  connectorId: string;
  fileId?: string;
  paymentId?: string;
  kind: string;
  message: string;
  detail: Record<string, unknown>;
  status: string;
  resolution?: string;
  resolvedBy?: string;
  resolvedAt?: string;
  createdAt: string;
}

export interface RailFileDetail extends RailFileView {
  payments?: RailPaymentView[];
  outcomes?: RailOutcomeView[];
  exceptions?: RailExceptionView[];
}

export interface RailImportResult {
  fileId: string;
  connectorId: string;
  format: string;
  name: string;
  sha256: string;
  duplicate: boolean;
  entries: number;
  outcomes: number;
  exceptions: number;
}

// Rates (rates.dto.ts)
export interface OperatorRate {
  sourceCurrency: string;
  destinationCurrency: string;
  midRate: string;
  source: string;
  publishedAt: string;
  validFrom?: string;
  validUntil: string;
  stale: boolean;
  entryId?: string;
  reason?: string;
  referenceDate?: string;
}

export interface RateSourceStatus {
  source: string;
  configured: boolean;
  maxAgeSeconds: number;
  url?: string;
  refreshSeconds?: number;
  referenceDate?: string;
  publishedAt?: string;
  fetchedAt?: string;
  lastAttemptAt?: string;
  lastError?: string;
  stale?: boolean;
}

export interface RatePricing {
  source: string;
  midRate: string;
  derivation: string;
  publishedAt: string;
  validUntil: string;
  entryId?: string;
  referenceDate?: string;
}

export interface OperatorRateList {
  data: OperatorRate[];
  sources: RateSourceStatus[];
  effective?: { sourceCurrency: string; destinationCurrency: string; pricing?: RatePricing; refusal?: { status: number; code: string; message: string } };
}

export interface OperatorRateEntry {
  id: string;
  sourceCurrency: string;
  destinationCurrency: string;
  kind: 'SET' | 'WITHDRAWN';
  midRate?: string;
  validFrom: string;
  validUntil?: string;
  reason?: string;
  operator: { id: string; name: string };
  recordedAt: string;
}

// Fees (fees.dto.ts)
export const CRYPTO_NETWORKS = ['BITCOIN', 'LIGHTNING', 'SPARK', 'ETHEREUM', 'BASE', 'POLYGON', 'SOLANA', 'TRON', 'PLASMA'] as const;

export interface ServiceFeeSchedule {
  id: string;
  platformId: string | null;
  sourceCurrency: string | null;
  destinationCurrency: string | null;
  variableFeeBps: number;
  fixedFees: { amount: number; currency: string }[];
  version: number;
  updatedAt: string;
  updatedBy: { id: string; name: string };
}

export interface NetworkFeeSchedule {
  id: string;
  platformId: string | null;
  currency: string;
  cryptoNetwork: string;
  networkFee: number;
  networkFeeAsset: string;
  applicationFeeBps: number;
  version: number;
  updatedAt: string;
  updatedBy: { id: string; name: string };
}

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
