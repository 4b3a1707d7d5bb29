export * from './uma-lookups';
export * from './uma-providers';
