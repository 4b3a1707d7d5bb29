import type {
  Catalogued,
  IDENTITY_EVENTS,
  VerificationApprovedData,
  VerificationErrorsFoundData,
  VerificationRejectedData,
  VerificationSubmittedData,
} from '@payments/contracts';

export type { VerificationScope } from '@payments/contracts';

/** Submitted with inputs missing: nothing goes to review; `errors` says what to fix before submitting again. */
export type VerificationErrorsFound = { type: 'VerificationErrorsFound.v1'; data: VerificationErrorsFoundData };

/**
 * Submitted complete: the case is under review. `sandboxDecision` is the simulated provider's answer, applied by a
 * durable timer; null when nothing decides automatically (sandbox suffix 001, and every production case: no KYC
 * provider is integrated, a person must decide). It stays in identity: the published form drops it (IDENTITY_EVENTS).
 * `documentIds` are the documents handed over (now undeletable).
 */
export type VerificationSubmitted = {
  type: 'VerificationSubmitted.v1';
  data: VerificationSubmittedData & { sandboxDecision: 'APPROVED' | 'REJECTED' | null };
};

export type VerificationApproved = { type: 'VerificationApproved.v1'; data: VerificationApprovedData };

export type VerificationRejected = { type: 'VerificationRejected.v1'; data: VerificationRejectedData };

export type VerificationEvent = VerificationErrorsFound | VerificationSubmitted | VerificationApproved | VerificationRejected;

/** Every event of the stream is declared in the identity catalogue, its stored data fitting the declaration. */
const _declared: Catalogued<typeof IDENTITY_EVENTS, VerificationEvent> = true;
