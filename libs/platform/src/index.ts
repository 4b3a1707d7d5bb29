export * from './start-platform';
export * from './bootstrap-credentials';
