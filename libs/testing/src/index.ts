export * from './database';
export * from './eventually';
export * from './kafka';
export * from './given';
export * from './service-db';
export * from './ports';
export * from './http';
