export * from './currencies';
export * from './fx';
