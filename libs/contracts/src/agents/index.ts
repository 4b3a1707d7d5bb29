export * from './agents';
export * from './agents.dto';
