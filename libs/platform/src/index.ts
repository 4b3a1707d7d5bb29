export * from './start-platform';
export * from './migrate-platform';
