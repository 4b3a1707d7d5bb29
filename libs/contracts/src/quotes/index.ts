export * from './quotes.dto';
export * from './quote-events';
