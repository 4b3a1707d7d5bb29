export * from './operator';
export * from './audit';
export * from './operator-core.dto';
export * from './operator-core.rpc';
export * from './rates.dto';
export * from './rates.rpc';
