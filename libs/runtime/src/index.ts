export * from './config';
export * from './database';
export * from './embedded-postgres';
