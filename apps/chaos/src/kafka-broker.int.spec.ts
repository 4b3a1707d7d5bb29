import { Kafka, logLevel } from 'kafkajs';
import { describeIfKafka } from '@payments/testing';
import { KafkaBroker } from './kafka-broker';

/**
 * The run's own broker, crashed (SIGKILL) and brought back on its data: what was acknowledged is still there. Where
 * Kafka suites run (deploy/local/kafka.sh's Java and jars are there).
 */
describeIfKafka("KafkaBroker (a broker of the run's own, to crash)", () => {
  it('keeps an acknowledged message through a SIGKILL and a start on the same data and port', async () => {
    const broker = await KafkaBroker.start();
    const kafka = new Kafka({ clientId: 'kafka-broker-test', brokers: [broker.brokers], logLevel: logLevel.NOTHING });
    const read = async (): Promise<string[]> => {
      const admin = kafka.admin();
      await admin.connect();
      try {
        const [partition] = await admin.fetchTopicOffsets('kept');
        return [partition.high];
      } finally {
        await admin.disconnect();
      }
    };
    try {
      const producer = kafka.producer();
      await producer.connect();
      await producer.send({ topic: 'kept', acks: -1, messages: [{ value: 'one' }] });
      await producer.disconnect();
      expect(await read()).toEqual(['1']);
      await broker.restart({ downMs: 200 });
      expect(await read()).toEqual(['1']);
    } finally {
      await broker.stop();
    }
  }, 120_000);
});
