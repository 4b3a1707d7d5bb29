export * from './embedded-postgres';
