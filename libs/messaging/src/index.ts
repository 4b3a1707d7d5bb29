// The contract suite (event-bus.contract.ts) is test-only and deliberately not exported here.
export * from './event-bus.port';
export * from './bus-log';
export * from './delivery-policy';
export * from './envelope-codec';
export * from './kafka/kafka-options';
export * from './kafka/kafka-event-bus';
export * from './embedded/pg-log-bus.migrations';
export * from './embedded/pg-log-event-bus';
export { pgTransactional, inTransaction } from './embedded/pg-transactional';
export * from './create-event-bus';
export * from './namespaced-event-bus';
export * from './instance-subscription';
export * from './dead-letters';
