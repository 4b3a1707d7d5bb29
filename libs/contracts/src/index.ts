// Decorator metadata (class-transformer @Type, Nest DI) needs the polyfill before any DTO class is defined.
import 'reflect-metadata';
export * from './errors';
export * from './rpc';
export * from './config';
export * from './pagination';
export * from './tokens.dto';
export * from './optional-not-null';
