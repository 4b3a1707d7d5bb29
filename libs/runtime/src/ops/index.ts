export * from './app-registry';
export * from './dependency-checks';
export * from './ops-handlers';
export * from './ops-server';
export * from './readiness';
export * from './service-host-metrics';
export * from './service-ops';
