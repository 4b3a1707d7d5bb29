export * from './identity';
export * from './identity.server';
export * from './platform/platform.service';
export * from './platform-config/platform-config.service';
export * from './credentials/secrets';
export * from './credentials/bootstrap-credentials';
export * from './tokens/token.service';
export * from './operators/operator.service';
