export * from './quotes.dto';
