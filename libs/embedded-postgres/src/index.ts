export * from './embedded-postgres';
export * from './own-postgres';
