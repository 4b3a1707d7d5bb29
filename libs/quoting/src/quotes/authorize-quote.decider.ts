import { DomainError } from '@payments/eventsourcing';
import type { ScaFactor } from '@payments/contracts';
import type { ChallengeOffer } from './create-quote.decider';
import type { QuoteEvent } from './quote.events';
import type { QuoteState } from './quote.state';
import { termsOf } from './quote.state';
import { executedEvent } from './quote-executed';

/** Failed tries of one quote's SCA before the quote fails with SCA_NOT_COMPLETED. */
export const SCA_ATTEMPTS_MAX = 5;

/**
 * Answers the current SCA challenge. The proof was checked outside (codes, WebAuthn: impure) and arrives as
 * `verification`; `nextChallenge` is used when another round follows or the current challenge had expired.
 */
export interface AuthorizeQuote {
  type: 'AuthorizeQuote';
  factor: ScaFactor;
  verification: { ok: true } | { ok: false; reason: string };
  nextChallenge: ChallengeOffer;
  now: string;
}

function notAwaiting(state: Exclude<QuoteState, { status: 'NONE' | 'PENDING_AUTHORIZATION' }>): DomainError {
  if (state.scaPurposes.length === 0) return new DomainError('SCA_NOT_REQUIRED', 'the customer is not in a region that requires Strong Customer Authentication: there is nothing to authorize');
  if (state.status === 'EXPIRED') return new DomainError('QUOTE_EXPIRED', `the quote expired at ${state.expiresAt}`);
  return new DomainError('INVALID_STATE_TRANSITION', `the quote is ${state.status}, not PENDING_AUTHORIZATION`);
}

export function authorizeQuote(c: AuthorizeQuote, state: QuoteState): QuoteEvent[] | DomainError {
  if (state.status === 'NONE') return new DomainError('QUOTE_NOT_FOUND', 'quote not found');
  if (state.status !== 'PENDING_AUTHORIZATION') return notAwaiting(state);
  if (Date.parse(c.now) >= Date.parse(state.expiresAt)) return new DomainError('QUOTE_EXPIRED', `the quote expired at ${state.expiresAt}`);
  const { challenge, round, failedAttempts } = state.sca;
  if (Date.parse(c.now) >= Date.parse(challenge.expiresAt)) {
    return [
      { type: 'ScaChallengeExpired.v1', data: { challengeId: challenge.id, at: c.now } },
      { type: 'ScaChallengeIssued.v1', data: { challenge: { ...c.nextChallenge, purpose: challenge.purpose }, round, issuedAt: c.now } },
    ];
  }
  if (!challenge.availableFactors.includes(c.factor)) {
    return new DomainError('INVALID_INPUT', `${c.factor} is not available for this challenge (available: ${challenge.availableFactors.join(', ')})`);
  }
  if (!c.verification.ok) {
    const failed: QuoteEvent[] = [{ type: 'ScaChallengeFailed.v1', data: { challengeId: challenge.id, factor: c.factor, reason: c.verification.reason, at: c.now } }];
    if (failedAttempts + 1 >= SCA_ATTEMPTS_MAX) failed.push({ type: 'QuoteFailed.v1', data: { quoteId: state.quoteId, failureReason: 'SCA_NOT_COMPLETED', failedAt: c.now } });
    return failed;
  }
  const events: QuoteEvent[] = [{ type: 'ScaChallengeCompleted.v1', data: { challengeId: challenge.id, factor: c.factor, at: c.now } }];
  const next = round + 1;
  if (next < state.scaPurposes.length) {
    events.push({ type: 'ScaChallengeIssued.v1', data: { challenge: { ...c.nextChallenge, purpose: state.scaPurposes[next] }, round: next, issuedAt: c.now } });
    return events;
  }
  events.push({ type: 'QuoteAuthorized.v1', data: { quoteId: state.quoteId, authorizedAt: c.now } });
  if (state.immediatelyExecute) events.push(executedEvent(termsOf(state), c.now, 'ACCOUNT'));
  return events;
}
