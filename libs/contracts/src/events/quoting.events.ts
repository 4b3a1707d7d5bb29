import type { LockedCurrencySide, PurposeOfPayment, QuoteDestination, QuoteRateDetails, QuoteSource } from '../quotes/quotes.dto';
import type { QuoteExecutedData } from '../quotes/quote-events';
import type { Mode } from '../rpc/rpc';
import { dataSchema, defineCatalogue, defineEvent, withoutFields } from './catalogue';
import { operatorActionRecorded } from './operator-action.event';

/** The quoting service's events (topic `payments.quoting.events.v1`): quotes and their SCA. */

// ---- Public data ---------------------------------------------------------------------------------------------------

/**
 * Fields of the published QuoteRequest that the published Quote does not show: kept on the quote (present only when
 * the request had them, so older events simply lack them) and handed to payments in QuoteExecuted.v1.
 */
export interface QuoteRequestExtras {
  remittanceInformation?: string;
  purposeOfPayment?: PurposeOfPayment;
  senderCustomerInfo?: Record<string, unknown>;
}

/** A quote (stream `Quote:<uuid>`) was priced and locked. Amounts are integers in the smallest currency unit. */
export interface QuoteCreatedData extends QuoteRequestExtras {
  quoteId: string;
  platformId: string;
  mode: Mode;
  /** Reserved at creation: the transaction an execution will create (payments uses this id). */
  transactionId: string;
  source: QuoteSource;
  destination: QuoteDestination;
  /** The customer paying: the source account's owner or the realtime-funding customer; null for a platform account. */
  customerId: string | null;
  sendingCurrency: string;
  receivingCurrency: string;
  lockedCurrencySide: LockedCurrencySide;
  lockedCurrencyAmount: number;
  totalSendingAmount: number;
  totalReceivingAmount: number;
  exchangeRate: number;
  feesIncluded: number;
  platformFeesIncluded: number;
  rateDetails: QuoteRateDetails;
  description: string | null;
  /** Execute as soon as the quote is open (after SCA, when required). */
  immediatelyExecute: boolean;
  createdAt: string;
  expiresAt: string;
}

/** The quote's SCA rounds are done: it can be executed. */
export interface QuoteAuthorizedData {
  quoteId: string;
  authorizedAt: string;
}

/** The quote's transaction completed. */
export interface QuoteCompletedData {
  quoteId: string;
  transactionId: string;
  completedAt: string;
}

export interface QuoteFailedData {
  quoteId: string;
  failureReason: string;
  failedAt: string;
}

export interface QuoteExpiredData {
  quoteId: string;
  expiredAt: string;
}

// ---- Catalogue ----------------------------------------------------------------------------------------------------

const service = 'quoting';

export const QUOTING_EVENTS = defineCatalogue(service, [
  operatorActionRecorded(service),
  defineEvent({
    service,
    name: 'QuoteCreated',
    version: 1,
    visibility: 'public',
    data: dataSchema<QuoteCreatedData>('QuoteCreatedData'),
    // The pricing's mid rate, its record (source, publication time: the operator API shows it) and fee schedule, the
    // SCA plan and the (SCA-gated) payment instructions stay in quoting.
    publicData: withoutFields<QuoteCreatedData>('midRate', 'pricing', 'scaPurposes', 'paymentInstructions', 'serviceFeeSchedule'),
    description: 'A quote was priced and locked.',
  }),
  defineEvent({ service, name: 'QuoteAuthorized', version: 1, visibility: 'public', data: dataSchema<QuoteAuthorizedData>('QuoteAuthorizedData'), description: "The quote's strong customer authentication is done." }),
  defineEvent({
    service,
    name: 'QuoteExecuted',
    version: 1,
    visibility: 'public',
    data: dataSchema<QuoteExecutedData>('QuoteExecutedData'),
    description: 'A quote was executed (or its realtime funds arrived): payments creates and runs its transaction.',
  }),
  defineEvent({ service, name: 'QuoteCompleted', version: 1, visibility: 'public', data: dataSchema<QuoteCompletedData>('QuoteCompletedData'), description: "The quote's transaction completed." }),
  defineEvent({ service, name: 'QuoteFailed', version: 1, visibility: 'public', data: dataSchema<QuoteFailedData>('QuoteFailedData'), description: 'The quote failed (its transaction failed or was returned).' }),
  defineEvent({ service, name: 'QuoteExpired', version: 1, visibility: 'public', data: dataSchema<QuoteExpiredData>('QuoteExpiredData'), description: 'The quote expired unexecuted.' }),
  // Internal: strong customer authentication mechanics.
  defineEvent({ service, name: 'ScaChallengeIssued', version: 1, visibility: 'internal', description: 'An SCA challenge was issued for a quote.' }),
  defineEvent({ service, name: 'ScaChallengeExpired', version: 1, visibility: 'internal', description: 'An SCA challenge was answered too late.' }),
  defineEvent({ service, name: 'ScaChallengeFailed', version: 1, visibility: 'internal', description: 'An SCA challenge was answered wrongly.' }),
  defineEvent({ service, name: 'ScaChallengeCompleted', version: 1, visibility: 'internal', description: 'An SCA challenge was answered.' }),
  defineEvent({ service, name: 'ScaPasskeyEnrolled', version: 1, visibility: 'internal', description: "A customer's SCA passkey was registered." }),
  defineEvent({ service, name: 'ScaPasskeyUsed', version: 1, visibility: 'internal', description: 'An SCA passkey signed a challenge (its counter).' }),
  defineEvent({ service, name: 'ScaPasskeyRemoved', version: 1, visibility: 'internal', description: "A customer's SCA passkey was removed." }),
  // Internal: the operator's fee schedules (each change is audited as OperatorActionRecorded.v1).
  defineEvent({ service, name: 'FeeScheduleSet', version: 1, visibility: 'internal', description: 'An operator set a service fee schedule or a network fee (a new version).' }),
  defineEvent({ service, name: 'FeeScheduleRemoved', version: 1, visibility: 'internal', description: 'An operator removed a service fee schedule or a network fee.' }),
]);
