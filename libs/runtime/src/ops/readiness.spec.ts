import { runReadinessChecks, shortReason } from './readiness';

describe('readiness', () => {
  it('reports every check and is unavailable when one fails, throwing synchronously included', async () => {
    const report = await runReadinessChecks({
      up: async () => 'fine',
      down: async () => Promise.reject(new Error('connect ECONNREFUSED 10.0.0.5:5432')),
      broken: () => {
        throw new Error('not even a promise');
      },
    });
    expect(report).toEqual({
      status: 'unavailable',
      checks: { up: 'ok', down: 'error: connect ECONNREFUSED 10.0.0.5:5432', broken: 'error: not even a promise' },
    });
    expect(await runReadinessChecks({})).toEqual({ status: 'ready', checks: {} });
  });

  it('keeps reasons to one short line with credentials in URLs masked', () => {
    expect(shortReason(new Error('cannot reach postgres://app:hunter2@db:5432/pp\n    at Socket.connect'))).toBe('cannot reach postgres://***@db:5432/pp');
    expect(shortReason(new Error('x'.repeat(500)))).toHaveLength(120);
    expect(shortReason(Object.assign(new Error(''), { code: 'ETIMEDOUT' }))).toBe('ETIMEDOUT');
    expect(shortReason(undefined)).toBe('failed');
  });
});
