/** Kafka suites run when KAFKA_BROKERS is set; global-setup makes them mandatory under CI=true. */
export function kafkaBrokersForTests(): string[] | undefined {
  const raw = process.env.KAFKA_BROKERS;
  return raw ? raw.split(',').map((b) => b.trim()).filter(Boolean) : undefined;
}

export const describeIfKafka: jest.Describe = (kafkaBrokersForTests() ? describe : describe.skip) as jest.Describe;
