import { ApiError, CallerContext, Quote, ScaAuthorization, ScaFactor } from '@payments/contracts';
import type { AccountDirectory } from '../accounts/account-directory';
import type { ScaFactors } from '../sca/sca-factors';
import { SCA_ATTEMPTS_MAX } from './authorize-quote.decider';
import type { QuoteService } from './quote.service';

/**
 * POST /quotes/{id}/authorize: checks the proof for the current challenge (impure: codes, WebAuthn) and lets the
 * decider move the quote: the next round's challenge, or PENDING (PROCESSING with immediatelyExecute). A refused
 * proof and an expired challenge are recorded, then answered as 400 with the fresh state in `details`.
 */
export class QuoteAuthorizer {
  constructor(
    private readonly quotes: QuoteService,
    private readonly sca: ScaFactors,
    private readonly accounts: AccountDirectory,
  ) {}

  async authorize(caller: CallerContext, quoteId: string, authorization: ScaAuthorization, now: string): Promise<Quote> {
    const { body: quote, customerId } = await this.quotes.find(caller, quoteId);
    const factor: ScaFactor = authorization.passkeyAssertion ? 'PASSKEY' : 'SMS_OTP';
    if (authorization.passkeyAssertion && authorization.code !== undefined) throw new ApiError('INVALID_INPUT', 'send either a code or a passkeyAssertion, not both');
    if (!authorization.passkeyAssertion && authorization.code === undefined) {
      throw new ApiError('INVALID_INPUT', 'a code (SMS_OTP) or a passkeyAssertion with its origin (PASSKEY) is required', { errors: [{ field: 'code', message: 'missing' }] });
    }
    const challenge = quote.scaChallenge;
    let verification: { ok: true } | { ok: false; reason: string } = { ok: false, reason: 'no open challenge' };
    if (challenge && customerId && Date.parse(now) < Date.parse(challenge.expiresAt)) {
      const checked = await this.sca.verify({ platformId: caller.platformId, mode: caller.mode, customerId, challengeId: challenge.id, factor, authorization, now });
      if (!checked.ok && checked.code !== 'SCA_AUTHORIZATION_FAILED') throw new ApiError(checked.code, checked.message, checked.details);
      verification = checked.ok ? { ok: true } : { ok: false, reason: checked.message };
      if (checked.ok && challenge.purpose === 'PAYOUT' && quote.destination.destinationType === 'ACCOUNT' && quote.destination.accountId.startsWith('ExternalAccount:')) {
        await this.accounts.trustBeneficiary(caller, quote.destination.accountId);
      }
    }
    const nextChallenge = customerId && challenge ? await this.quotes.challengeOffer(caller, customerId, factor, now) : placeholderOffer(now);
    const result = await this.quotes.run(this.quotes.request(caller.platformId, quoteId, { type: 'AuthorizeQuote', factor, verification, nextChallenge, now }, this.quotes.metadata(caller)));
    const after = this.quotes.view(result.state);
    const types = result.events.map((e) => e.type);
    if (types.includes('ScaChallengeExpired.v1')) {
      throw new ApiError('SCA_CHALLENGE_EXPIRED', `challenge ${challenge?.id} expired at ${challenge?.expiresAt}: answer the new challenge`, { quote: after });
    }
    if (types.includes('ScaChallengeFailed.v1')) {
      const message = after.status === 'FAILED' ? `authorization failed ${SCA_ATTEMPTS_MAX} times: the quote FAILED` : 'the authorization did not verify';
      throw new ApiError('SCA_AUTHORIZATION_FAILED', message, { reason: verification.ok ? undefined : verification.reason, quote: after });
    }
    return after;
  }
}

/** Never issued: the decider refuses before it would use it (no challenge is open). */
function placeholderOffer(now: string) {
  return { id: 'ScaChallenge:none', expiresAt: now, factor: 'SMS_OTP' as const, availableFactors: ['SMS_OTP' as const], passkeyAssertionOptions: null };
}
