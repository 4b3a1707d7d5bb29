import { createEventBus } from './create-event-bus';
import { PgLogEventBus } from './embedded/pg-log-event-bus';
import { KafkaEventBus } from './kafka/kafka-event-bus';

// Constructing either bus opens no connection (they connect lazily), so this stays a pure test.
describe('createEventBus', () => {
  const databaseUrl = 'postgres://nobody@127.0.0.1:1/none';

  it.each([undefined, '', ' , ', []])('uses the embedded PostgreSQL bus when KAFKA_BROKERS is %p', async (kafkaBrokers) => {
    const bus = createEventBus({ kafkaBrokers, databaseUrl, clientId: 'test' });
    expect(bus).toBeInstanceOf(PgLogEventBus);
    await bus.close();
  });

  it.each(['127.0.0.1:9092', 'a:9092, b:9092', ['a:9092']])('uses Kafka when KAFKA_BROKERS is %p', async (kafkaBrokers) => {
    const bus = createEventBus({ kafkaBrokers, databaseUrl, clientId: 'test', log: undefined });
    expect(bus).toBeInstanceOf(KafkaEventBus);
    await bus.close();
  });
});
