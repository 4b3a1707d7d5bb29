import { DomainError } from '@payments/eventsourcing';
import type { QuoteEvent } from './quote.events';
import type { QuoteState } from './quote.state';
import { termsOf } from './quote.state';
import { executedEvent } from './quote-executed';

/** POST /quotes/{id}/execute: an ACCOUNT-funded quote, before expiresAt. It cannot be cancelled afterwards. */
export interface ExecuteQuote {
  type: 'ExecuteQuote';
  now: string;
}

/** The realtime funds of a REALTIME_FUNDING quote arrived (POST /sandbox/send, through payments). */
export interface FundQuote {
  type: 'FundQuote';
  currencyCode: string;
  amount?: number;
  now: string;
}

type Existing = Exclude<QuoteState, { status: 'NONE' }>;

function notOpen(state: Existing, action: string): DomainError {
  switch (state.status) {
    case 'PENDING_AUTHORIZATION':
      return new DomainError('SCA_SESSION_REQUIRED', `the quote awaits Strong Customer Authentication: authorize challenge ${state.sca.challenge.id} first`);
    case 'EXPIRED':
      return new DomainError('QUOTE_EXPIRED', `the quote expired at ${state.expiresAt}`);
    default:
      return new DomainError('INVALID_STATE_TRANSITION', `the quote is ${state.status}: it cannot be ${action} again`);
  }
}

export function executeQuote(c: ExecuteQuote, state: QuoteState): QuoteEvent[] | DomainError {
  if (state.status === 'NONE') return new DomainError('QUOTE_NOT_FOUND', 'quote not found');
  if (state.status !== 'PENDING') return notOpen(state, 'executed');
  if (state.source.sourceType !== 'ACCOUNT') {
    return new DomainError('INVALID_STATE_TRANSITION', 'a REALTIME_FUNDING quote is executed when its funds arrive through its paymentInstructions, not by execute');
  }
  if (Date.parse(c.now) >= Date.parse(state.expiresAt)) return new DomainError('QUOTE_EXPIRED', `the quote expired at ${state.expiresAt}: request a new quote`);
  return [executedEvent(termsOf(state), c.now, 'ACCOUNT')];
}

export function fundQuote(c: FundQuote, state: QuoteState): QuoteEvent[] | DomainError {
  if (state.status === 'NONE') return new DomainError('QUOTE_NOT_FOUND', 'quote not found');
  if (state.status !== 'PENDING') return notOpen(state, 'funded');
  if (state.source.sourceType !== 'REALTIME_FUNDING') return new DomainError('INVALID_STATE_TRANSITION', 'the quote is funded from an account: execute it instead');
  if (c.currencyCode !== state.sendingCurrency) return new DomainError('INVALID_CURRENCY', `the quote is funded in ${state.sendingCurrency}, not ${c.currencyCode}`);
  if (c.amount !== undefined && c.amount !== state.totalSendingAmount) {
    return new DomainError('FUNDING_AMOUNT_MISMATCH', `the quote needs exactly ${state.totalSendingAmount}, not ${c.amount}`, { expected: state.totalSendingAmount, received: c.amount });
  }
  if (Date.parse(c.now) >= Date.parse(state.expiresAt)) return new DomainError('QUOTE_EXPIRED', `the quote expired at ${state.expiresAt}`);
  return [executedEvent(termsOf(state), c.now, 'REALTIME_FUNDING')];
}
