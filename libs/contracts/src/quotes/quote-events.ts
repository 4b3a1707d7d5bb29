import type { Mode } from '../rpc/rpc';
import type { PurposeOfPayment, Quote } from './quotes.dto';

/**
 * The quoting topic's hand-off to payments: a quote was executed (or, for REALTIME_FUNDING, its funds arrived), with
 * the quote as the API shows it at that moment (status PROCESSING). Payments creates the transaction
 * `quote.transactionId` from it and runs the payout. Declared (public) in QUOTING_EVENTS (libs/contracts/src/events).
 */
export const QUOTE_EXECUTED_EVENT = 'QuoteExecuted.v1';

export interface QuoteExecutedData {
  quoteId: string;
  quote: Quote;
  platformId: string;
  mode: Mode;
  /** The customer paying (the source account's owner, or the realtime-funding customer); null for a platform account. */
  customerId: string | null;
  executedAt: string;
  funding: 'ACCOUNT' | 'REALTIME_FUNDING';
  /**
   * Request fields of the published QuoteRequest that the published Quote does not show, present when the request
   * had them: what the payout carries (remittance information, purpose) and what the destination asked about the sender.
   */
  remittanceInformation?: string;
  purposeOfPayment?: PurposeOfPayment;
  senderCustomerInfo?: Record<string, unknown>;
}

/** POST /sandbox/send reaches quoting through payments: the realtime funds for a quote arrived. */
export interface FundQuoteRequest {
  quoteId: string;
  currencyCode: string;
  /** Defaults to the quote's totalSendingAmount; any other amount is 400 FUNDING_AMOUNT_MISMATCH. */
  amount?: number;
}
