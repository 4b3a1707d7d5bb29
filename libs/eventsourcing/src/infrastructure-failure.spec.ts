import { isInfrastructureFailure } from './infrastructure-failure';

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

describe('isInfrastructureFailure: an outage, or a verdict about the work?', () => {
  it.each([
    ['a refused connection', withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED')],
    ['a reset connection', withCode('read ECONNRESET', 'ECONNRESET')],
    ['PostgreSQL shutting down', withCode('terminating connection due to administrator command', '57P01')],
    ['PostgreSQL starting up', withCode('the database system is starting up', '57P03')],
    ['too many connections', withCode('sorry, too many clients already', '53300')],
    ['a connection exception', withCode('connection failure', '08006')],
    ['a serialization failure', withCode('could not serialize access', '40001')],
    ['a deadlock', withCode('deadlock detected', '40P01')],
    ['a lost connection (pg says so by message)', new Error('Connection terminated unexpectedly')],
    ['a pool that could not connect in time', new Error('timeout exceeded when trying to connect')],
    ['TypeORM wrapping the driver error', Object.assign(new Error('Query failed'), { name: 'QueryFailedError', driverError: withCode('x', '57P01') })],
    ['every address of a host refused (AggregateError)', new AggregateError([withCode('a', 'ECONNREFUSED'), withCode('b', 'ECONNREFUSED')], '')],
    ['a wrapped cause', new Error('publish failed', { cause: withCode('x', 'ETIMEDOUT') })],
    ['a peer service unreachable', Object.assign(new Error('the accounts service is unavailable'), { code: 'SERVICE_UNAVAILABLE', status: 503 })],
    ['a peer waiting on a rate source', Object.assign(new Error('no fresh rate'), { code: 'RATE_UNAVAILABLE', status: 503 })],
    ['the broker away', Object.assign(new Error('Connection error'), { name: 'KafkaJSConnectionError' })],
    ['a retriable Kafka protocol error', Object.assign(new Error('leader not available'), { name: 'KafkaJSProtocolError', retriable: true })],
  ])('%s is an outage', (_what, error) => expect(isInfrastructureFailure(error)).toBe(true));

  it.each([
    ['a bug', new TypeError("Cannot read properties of undefined (reading 'id')")],
    ['a constraint violation', withCode('duplicate key value violates unique constraint', '23505')],
    ['a syntax error in SQL', withCode('syntax error at or near', '42601')],
    ['a rule of the domain', Object.assign(new Error('insufficient funds'), { code: 'INSUFFICIENT_BALANCE', status: 400 })],
    ['an internal error of a peer', Object.assign(new Error('an unexpected error occurred'), { code: 'INTERNAL_ERROR', status: 500 })],
    ['a non-retriable Kafka error', Object.assign(new Error('topic authorization failed'), { name: 'KafkaJSProtocolError', retriable: false })],
    ['an AggregateError with one bug in it', new AggregateError([withCode('a', 'ECONNREFUSED'), new TypeError('x')], '')],
    ['not an error at all', 'down'],
    ['nothing', undefined],
  ])('%s is not', (_what, error) => expect(isInfrastructureFailure(error)).toBe(false));

  it('survives a cause cycle', () => {
    const a: Error & { cause?: unknown } = new Error('a');
    a.cause = a;
    expect(isInfrastructureFailure(a)).toBe(false);
  });
});
