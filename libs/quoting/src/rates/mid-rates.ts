import type { MidRatesRequest, MidRatesResponse } from '@payments/contracts';
import type { RateBook } from './rate-source';

/**
 * Mid rates of currency pairs (QuotingRpc.midRates): 1 for a currency to itself, null for a pair that cannot be
 * quoted (in production also a pair without a configured or fresh source: an estimate is left out, not refused).
 */
export function midRates(book: RateBook, request: MidRatesRequest): MidRatesResponse {
  return {
    rates: (request.pairs ?? []).slice(0, 100).map(({ from, to }) => {
      if (from === to) return { from, to, rate: 1 };
      const found = book.lookup(from, to);
      return { from, to, rate: found.ok ? Number(found.rate.midRate) : null };
    }),
  };
}
