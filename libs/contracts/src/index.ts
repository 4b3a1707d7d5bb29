// Decorator metadata (class-transformer @Type, Nest DI) needs the polyfill before any DTO class is defined.
import 'reflect-metadata';
export * from './errors';
export * from './rpc';
export * from './config';
export * from './pagination';
export * from './tokens.dto';
export * from './optional-not-null';
export * from './regions';
export * from './validators';
export * from './customers';
export * from './documents.dto';
export * from './verifications';
export * from './bulk-import.dto';
export * from './kyc-link.dto';
export * from './accounts';
export * from './quotes';
