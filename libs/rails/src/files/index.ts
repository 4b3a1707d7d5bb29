export * from './file-store';
