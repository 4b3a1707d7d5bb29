import { outcomeOf, RETRY_POLICY_DEFAULTS, retryDelayMs, retryWindowExceeded } from './retry-policy';

const policy = { ...RETRY_POLICY_DEFAULTS, scale: 1 };

describe('retry policy', () => {
  it('backs off exponentially with full jitter, never more than 30 minutes apart', () => {
    expect(retryDelayMs(policy, 1, 0.999_999)).toBe(5_000);
    expect(retryDelayMs(policy, 3, 0.999_999)).toBe(20_000);
    expect(retryDelayMs(policy, 3, 0)).toBe(0);
    expect(retryDelayMs(policy, 3, 0.5)).toBe(10_000);
    expect(retryDelayMs(policy, 40, 0.999_999)).toBe(1_799_998);
    expect(retryDelayMs({ ...policy, scale: 0.001 }, 40, 0.999_999)).toBe(1_800);
  });

  it('gives up after 7 days (scaled with the delays)', () => {
    const week = 7 * 24 * 3_600_000;
    expect(retryWindowExceeded(policy, 0, week)).toBe(false);
    expect(retryWindowExceeded(policy, 0, week + 1)).toBe(true);
    expect(retryWindowExceeded({ ...policy, scale: 0.001 }, 0, week / 1000 + 1)).toBe(true);
  });

  it('stops on 2xx and 409, disables on 410, retries everything else', () => {
    expect([200, 204, 299].map(outcomeOf)).toEqual(['DELIVERED', 'DELIVERED', 'DELIVERED']);
    expect(outcomeOf(409)).toBe('REJECTED');
    expect(outcomeOf(410)).toBe('ENDPOINT_GONE');
    expect([undefined, 301, 400, 401, 429, 500, 503].map(outcomeOf)).toEqual(Array(7).fill('RETRY'));
  });
});
