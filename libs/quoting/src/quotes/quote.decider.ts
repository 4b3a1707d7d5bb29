import { assertNever, Decider } from '@payments/eventsourcing';
import { AuthorizeQuote, authorizeQuote } from './authorize-quote.decider';
import { CreateQuote, createQuote } from './create-quote.decider';
import { ExecuteQuote, executeQuote, FundQuote, fundQuote } from './execute-quote.decider';
import { QuoteEvent } from './quote.events';
import { QuoteState, termsOf } from './quote.state';
import { CompleteQuote, completeQuote, ExpireQuote, expireQuote, FailQuote, failQuote } from './settle-quote.decider';

export type { AmountRange, ChallengeOffer, CreateQuote } from './create-quote.decider';
export type { AuthorizeQuote } from './authorize-quote.decider';
export type { ExecuteQuote, FundQuote } from './execute-quote.decider';
export type { CompleteQuote, ExpireQuote, FailQuote } from './settle-quote.decider';

export type QuoteCommand = CreateQuote | AuthorizeQuote | ExecuteQuote | FundQuote | CompleteQuote | FailQuote | ExpireQuote;

function evolve(state: QuoteState, event: QuoteEvent): QuoteState {
  if (event.type === 'QuoteCreated.v1') return { status: 'PENDING', ...event.data };
  if (state.status === 'NONE') return state; // a recorded event never throws in a fold
  switch (event.type) {
    case 'ScaChallengeIssued.v1':
      return { ...termsOf(state), status: 'PENDING_AUTHORIZATION', sca: { challenge: event.data.challenge, round: event.data.round, failedAttempts: 0 } };
    case 'ScaChallengeFailed.v1':
      return state.status === 'PENDING_AUTHORIZATION' ? { ...state, sca: { ...state.sca, failedAttempts: state.sca.failedAttempts + 1 } } : state;
    case 'ScaChallengeExpired.v1':
    case 'ScaChallengeCompleted.v1':
      return state; // the next ScaChallengeIssued or QuoteAuthorized moves the quote on
    case 'QuoteAuthorized.v1':
      return { ...termsOf(state), status: 'PENDING' };
    case 'QuoteExecuted.v1':
      return { ...termsOf(state), status: 'PROCESSING', executedAt: event.data.executedAt, funding: event.data.funding };
    case 'QuoteCompleted.v1':
      return { ...termsOf(state), status: 'COMPLETED', executedAt: 'executedAt' in state ? state.executedAt : event.data.completedAt, completedAt: event.data.completedAt };
    case 'QuoteFailed.v1':
      return { ...termsOf(state), status: 'FAILED', failedAt: event.data.failedAt, failureReason: event.data.failureReason };
    case 'QuoteExpired.v1':
      return { ...termsOf(state), status: 'EXPIRED', expiredAt: event.data.expiredAt };
    default:
      return assertNever(event);
  }
}

/** The quote lifecycle of the spec's state table (PENDING_AUTHORIZATION → PENDING → PROCESSING → COMPLETED | FAILED; EXPIRED). */
export const quoteDecider: Decider<QuoteState, QuoteCommand, QuoteEvent> = {
  initialState: { status: 'NONE' },
  decide(command, state) {
    switch (command.type) {
      case 'CreateQuote':
        return createQuote(command, state);
      case 'AuthorizeQuote':
        return authorizeQuote(command, state);
      case 'ExecuteQuote':
        return executeQuote(command, state);
      case 'FundQuote':
        return fundQuote(command, state);
      case 'CompleteQuote':
        return completeQuote(command, state);
      case 'FailQuote':
        return failQuote(command, state);
      case 'ExpireQuote':
        return expireQuote(command, state);
      default:
        return assertNever(command);
    }
  },
  evolve,
};
