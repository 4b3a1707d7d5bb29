export * from './auth';
export * from './auth.dto';
export * from './signed-request';
