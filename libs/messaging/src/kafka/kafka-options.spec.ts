import { errorsOnlyLog } from '../bus-log';
import { consumerConfig, producerConfig, resolveKafkaOptions, SEND_DEFAULTS } from './kafka-options';

describe('kafka options', () => {
  const options = resolveKafkaOptions({
    brokers: ['127.0.0.1:9092'],
    clientId: 'test',
    log: undefined,
    consumer: { sessionTimeoutMs: undefined },
  });

  it('falls back to the defaults for options passed as undefined', () => {
    expect(options.log).toBe(errorsOnlyLog);
    expect(options.consumer.sessionTimeoutMs).toBe(30_000);
  });

  it('spells out the ordering and durability settings instead of trusting kafkajs defaults', () => {
    expect(producerConfig(options)).toMatchObject({ idempotent: true, maxInFlightRequests: 1, allowAutoTopicCreation: false });
    expect(SEND_DEFAULTS.acks).toBe(-1);
    expect(consumerConfig(options, 'group')).toMatchObject({ groupId: 'group', readUncommitted: false, allowAutoTopicCreation: false });
  });

  it('refuses an empty broker list', () => {
    expect(() => resolveKafkaOptions({ brokers: [], clientId: 'test' })).toThrow(/at least one broker/);
  });
});
