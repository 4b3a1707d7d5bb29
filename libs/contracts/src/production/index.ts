export * from './production-capabilities';
