import type { ScaChallenge } from '@payments/contracts';
import type { QuoteTerms } from './quote.events';

/** The open SCA round: its challenge, which round it is (0-based into scaPurposes) and the failed tries so far. */
export interface ScaRound {
  challenge: ScaChallenge;
  round: number;
  failedAttempts: number;
}

/** A quote's state is a union on status: each status holds exactly what exists in it. */
export type QuoteState =
  | { status: 'NONE' }
  | ({ status: 'PENDING_AUTHORIZATION'; sca: ScaRound } & QuoteTerms)
  | ({ status: 'PENDING' } & QuoteTerms)
  | ({ status: 'PROCESSING'; executedAt: string; funding: 'ACCOUNT' | 'REALTIME_FUNDING' } & QuoteTerms)
  | ({ status: 'COMPLETED'; executedAt: string; completedAt: string } & QuoteTerms)
  | ({ status: 'FAILED'; failedAt: string; failureReason: string } & QuoteTerms)
  | ({ status: 'EXPIRED'; expiredAt: string } & QuoteTerms);

export type ExistingQuote = Exclude<QuoteState, { status: 'NONE' }>;

type StatusFields = { status: string; sca?: unknown; executedAt?: unknown; funding?: unknown; completedAt?: unknown; failedAt?: unknown; failureReason?: unknown; expiredAt?: unknown };

/** The terms every existing quote carries, without the fields of its current status (for moving to the next one). */
export function termsOf(state: ExistingQuote): QuoteTerms {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  const { status, sca, executedAt, funding, completedAt, failedAt, failureReason, expiredAt, ...terms } = state as ExistingQuote & StatusFields;
  return terms;
}
