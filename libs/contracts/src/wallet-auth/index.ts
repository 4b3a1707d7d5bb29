export * from './auth';
export * from './auth.dto';
export * from './signed-request';
export * from './delegated-keys';
