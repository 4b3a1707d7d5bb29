export * from './start-platform';
