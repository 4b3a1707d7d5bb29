export * from './nacha';
export * from './files';
