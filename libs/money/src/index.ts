export * from './currencies';
