export * from './uma-address';
export * from './sandbox-receivers';
export * from './uma-providers';
