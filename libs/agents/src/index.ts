export * from './agents';
export * from './agents.boot';
export * from './agents.server';
