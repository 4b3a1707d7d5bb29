export * from './file-store';
export * from './s3-file-store';
