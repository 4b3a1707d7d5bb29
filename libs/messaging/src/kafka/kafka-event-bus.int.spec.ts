import { describeIfKafka, eventually, kafkaBrokersForTests } from '@payments/testing';
import { Kafka, KafkaMessage, logLevel } from 'kafkajs';
import { describeEventBusContract } from '../event-bus.contract';
import { envelopeOf, uniqueSuffix } from '../event-bus.contract-fixtures';
import { dlqTopicOf } from '../event-bus.port';
import { KafkaEventBus } from './kafka-event-bus';
import { headersAsStrings } from './kafka-messages';

const brokers = kafkaBrokersForTests() ?? [];

// Small session and fetch-wait values: a restarted group rebalances and an idle fetch returns in well under a second.
const newBus = (): KafkaEventBus =>
  new KafkaEventBus({
    brokers,
    clientId: `bus-contract-${uniqueSuffix()}`,
    consumer: { sessionTimeoutMs: 6_000, heartbeatIntervalMs: 500, rebalanceTimeoutMs: 10_000, maxWaitTimeMs: 100 },
  });

describeIfKafka('KafkaEventBus', () => {
  describeEventBusContract('Kafka', async () => newBus(), { partitions: 3 });

  describe('beyond the contract', () => {
    // A bus of its own for each test (the contract makes its own).
    let bus: KafkaEventBus;
    beforeEach(() => {
      bus = newBus();
    });
    afterEach(() => bus.close());

    describe('a handler slower than the session timeout', () => {
      // The group drops a member that did not heartbeat for a session (a handler waiting out a long outage, a broker
      // restart meanwhile); its commit of the handled message then fails with UNKNOWN_MEMBER_ID, which kafkajs
      // treats as fatal and does not restart from. The subscription must rejoin and go on, never stop for good.
      it('rejoins after its member was dropped, and handles what follows', async () => {
        const topic = `slow.handler.${uniqueSuffix()}`;
        await bus.ensureTopics([topic], 1);
        const handled: string[] = [];
        let slow = true;
        await bus.subscribe({
          group: `slow-${uniqueSuffix()}`,
          topics: [topic],
          handler: async (e) => {
            if (slow) {
              slow = false;
              await new Promise((r) => setTimeout(r, 9_000)); // beyond the 6 s session, with no heartbeat
            }
            handled.push(e.eventId);
          },
        });
        const first = envelopeOf('Slow:1', 1);
        const second = envelopeOf('Slow:2', 1);
        await bus.publish(topic, [first, second]);
        await eventually(async () => handled.includes(second.eventId), { timeoutMs: 45_000, what: 'the message after the slow one' });
        expect(handled).toContain(first.eventId);
      }, 60_000);
    });

    describe('a message that is not an envelope', () => {
      const raw = new Kafka({ brokers, clientId: `bus-raw-${uniqueSuffix()}`, logLevel: logLevel.NOTHING });

      it('goes to the DLQ untouched, without calling the handler, and its key moves on', async () => {
        const topic = `contract.raw.${uniqueSuffix()}`;
        await bus.ensureTopics([topic], 3);
        const producer = raw.producer({ allowAutoTopicCreation: false });
        const dlqReader = raw.consumer({
          groupId: `raw-dlq-${uniqueSuffix()}`,
          sessionTimeout: 6_000,
          heartbeatInterval: 500,
          maxWaitTimeInMs: 100,
        });
        const parked: KafkaMessage[] = [];
        const handled: string[] = [];
        try {
          await Promise.all([producer.connect(), dlqReader.connect()]);
          await dlqReader.subscribe({ topics: [dlqTopicOf(topic)], fromBeginning: true });
          await dlqReader.run({ eachMessage: async ({ message }) => void parked.push(message) });
          await bus.subscribe({ group: `raw-${uniqueSuffix()}`, topics: [topic], handler: async (e) => void handled.push(e.eventId) });
          const next = envelopeOf('Raw:1', 1);
          await producer.send({ topic, acks: -1, messages: [{ key: 'Raw:1', value: 'not json {' }] });
          await bus.publish(topic, [next]);

          await eventually(async () => parked.length >= 1 && handled.length >= 1, {
            timeoutMs: 30_000,
            what: 'the dead letter and the next message',
          });
          expect(handled).toEqual([next.eventId]);
          expect(parked[0].key?.toString()).toBe('Raw:1');
          expect(parked[0].value?.toString()).toBe('not json {');
          expect(headersAsStrings(parked[0].headers)).toMatchObject({ 'x-original-topic': topic, 'x-attempts': '0' });
          expect(headersAsStrings(parked[0].headers)['x-error']).toMatch(/^poison message: .*not JSON/);
        } finally {
          await Promise.allSettled([producer.disconnect(), dlqReader.disconnect()]);
        }
      });
    });
  });
});
