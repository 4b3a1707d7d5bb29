import { IdleBackoff } from './idle-backoff';

describe('IdleBackoff', () => {
  it('doubles the pause with each idle round up to the bound, and starts over after activity', () => {
    const backoff = new IdleBackoff(250, 2_000);
    expect([backoff.idle(), backoff.idle(), backoff.idle(), backoff.idle(), backoff.idle()]).toEqual([250, 500, 1_000, 2_000, 2_000]);
    backoff.active();
    expect(backoff.idle()).toBe(250);
  });

  it('never pauses less than the base, even when the bound is below it', () => {
    const backoff = new IdleBackoff(500, 100);
    expect([backoff.idle(), backoff.idle()]).toEqual([500, 500]);
  });
});
