import { IdleBackoff, WakeSchedule } from './idle-backoff';

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

describe('WakeSchedule', () => {
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

  it('rings at each time asked for, earliest first, whatever the order they were asked in', async () => {
    const rings: number[] = [];
    const start = Date.now();
    const wakes = new WakeSchedule(() => rings.push(Date.now() - start));
    wakes.in(240);
    wakes.in(40);
    wakes.in(140);
    await sleep(400);
    expect(rings).toHaveLength(3);
    expect(rings[0]).toBeGreaterThanOrEqual(35);
    expect(rings[0]).toBeLessThan(130);
    expect(rings[1]).toBeGreaterThanOrEqual(135);
    expect(rings[1]).toBeLessThan(230);
    expect(rings[2]).toBeGreaterThanOrEqual(235);
  });

  it('rings once for times close together, and no more once cancelled', async () => {
    let rings = 0;
    const wakes = new WakeSchedule(() => rings++, 20);
    wakes.in(30);
    wakes.in(35);
    wakes.in(40);
    await sleep(100);
    expect(rings).toBe(1);
    wakes.in(10);
    wakes.cancel();
    await sleep(50);
    expect(rings).toBe(1);
  });

  it('waits quietly for a time beyond what one timer can wait (an invitation due in 30 days): no early ring, no loop', async () => {
    let rings = 0;
    const wakes = new WakeSchedule(() => rings++);
    wakes.in(30 * 86_400_000);
    await sleep(100);
    wakes.cancel();
    expect(rings).toBe(0);
  });
});
