export * from './production-capabilities';
export * from './rails-config';
