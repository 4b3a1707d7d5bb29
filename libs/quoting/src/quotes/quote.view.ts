import type { Quote } from '@payments/contracts';
import { currencyObject } from '@payments/money';
import type { ExistingQuote } from './quote.state';

/** The public Quote of an existing quote: the challenge only while PENDING_AUTHORIZATION, instructions only after it. */
export function toQuote(state: ExistingQuote): Quote {
  return {
    id: state.quoteId,
    status: state.status,
    createdAt: state.createdAt,
    expiresAt: state.expiresAt,
    source: state.source,
    destination: state.destination,
    sendingCurrency: currencyObject(state.sendingCurrency),
    receivingCurrency: currencyObject(state.receivingCurrency),
    totalSendingAmount: state.totalSendingAmount,
    totalReceivingAmount: state.totalReceivingAmount,
    exchangeRate: state.exchangeRate,
    feesIncluded: state.feesIncluded,
    platformFeesIncluded: state.platformFeesIncluded,
    transactionId: state.transactionId,
    rateDetails: state.rateDetails,
    ...(state.description !== null ? { description: state.description } : {}),
    ...(state.paymentInstructions && state.status !== 'PENDING_AUTHORIZATION' ? { paymentInstructions: state.paymentInstructions } : {}),
    ...(state.status === 'PENDING_AUTHORIZATION' ? { scaChallenge: state.sca.challenge } : {}),
  };
}
