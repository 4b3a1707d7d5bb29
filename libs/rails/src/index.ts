export * from './nacha';
export * from './files';
export * from './http';
