import { ApiError, Mode } from '@payments/contracts';
import type { RateBook, RateBooks, RateLookup, RateSource } from './rate-source';

/** The sandbox's book: its synthetic table (SandboxRateSource) as it is, each rate recorded as SANDBOX. */
export class SandboxRateBook implements RateBook {
  constructor(
    private readonly source: RateSource,
    private readonly at: string,
  ) {}

  lookup(sourceCurrency: string, destinationCurrency: string): RateLookup {
    const mid = this.source.rate(sourceCurrency, destinationCurrency, this.at);
    if (!mid) return { ok: false, error: new ApiError('INVALID_CURRENCY', `${sourceCurrency} to ${destinationCurrency} cannot be quoted`) };
    const publishedAt = mid.updatedAt ?? this.at;
    return {
      ok: true,
      rate: {
        ...mid,
        pricing: {
          source: 'SANDBOX',
          sourceCurrency,
          destinationCurrency,
          midRate: mid.midRate,
          derivation: 'SYNTHETIC',
          publishedAt,
          validUntil: mid.validUntil,
          sourcePerBtc: mid.sourcePerBtc,
          btcReference: 'SANDBOX',
        },
      },
    };
  }
}

/** Production's books (the operator table and the ECB's rates, from the database). */
export interface ProductionRateBooks {
  book(at: string): Promise<RateBook>;
}

/** The port by mode: the sandbox keeps its synthetic table; production prices only from configured sources. */
export class ModeRateBooks implements RateBooks {
  constructor(
    private readonly sandbox: RateSource,
    private readonly production: ProductionRateBooks,
  ) {}

  book(mode: Mode, at: string): Promise<RateBook> {
    return mode === 'SANDBOX' ? Promise.resolve(new SandboxRateBook(this.sandbox, at)) : this.production.book(at);
  }
}
