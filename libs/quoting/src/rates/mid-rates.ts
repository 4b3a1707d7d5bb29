import type { MidRatesRequest, MidRatesResponse } from '@payments/contracts';
import type { RateSource } from './rate-source';

/** Mid rates of currency pairs (QuotingRpc.midRates): 1 for a currency to itself, null for a pair that cannot be quoted. */
export function midRates(rates: RateSource, request: MidRatesRequest, now: string): MidRatesResponse {
  return {
    rates: (request.pairs ?? []).slice(0, 100).map(({ from, to }) => {
      const mid = from === to ? '1' : rates.rate(from, to, now)?.midRate;
      return { from, to, rate: mid === undefined ? null : Number(mid) };
    }),
  };
}
