export * from './quoting';
export * from './quoting.server';
export * from './rates/rate-source';
export * from './rates/sandbox-rates';
export * from './rates/fee-schedule';
export * from './quotes/quote.service';
export * from './sca';
export * from './quoting.boot';
