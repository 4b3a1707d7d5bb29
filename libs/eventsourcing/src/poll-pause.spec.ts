import { PollPause } from './poll-pause';

const elapsed = async (work: () => Promise<unknown>): Promise<number> => {
  const start = Date.now();
  await work();
  return Date.now() - start;
};

describe('PollPause', () => {
  it('returns at once when a wake came while the round ran (before the pause), without lingering: the loop is behind', async () => {
    const pause = new PollPause({ baseMs: 60_000, lingerMs: 50 });
    pause.wake();
    const start = Date.now();
    expect(await pause.pause()).toBe(true);
    expect(Date.now() - start).toBeLessThan(40);
  });

  it('ends the current pause on a wake, lingers, and forgets the wakes the next round sees', async () => {
    const pause = new PollPause({ baseMs: 60_000, lingerMs: 50 });
    setTimeout(pause.wake, 20);
    setTimeout(pause.wake, 40); // during the linger: the coming round sees its work
    const waited = await elapsed(() => pause.pause());
    expect(waited).toBeGreaterThanOrEqual(60);
    expect(waited).toBeLessThan(5_000);
    setTimeout(() => pause.stop(), 100);
    expect(await elapsed(() => pause.pause())).toBeGreaterThanOrEqual(90); // nothing pending
  });

  it('doubles idle pauses up to the bound; a wake that ends or skips a pause and a round with work start over', async () => {
    const pause = new PollPause({ baseMs: 20, maxMs: 10_000 });
    expect(await pause.pause()).toBe(false); // 20
    expect(await pause.pause()).toBe(false); // 40
    expect(await elapsed(() => pause.pause())).toBeGreaterThanOrEqual(75); // 80
    setTimeout(pause.wake, 10); // ends the 160 ms pause
    expect(await pause.pause()).toBe(true);
    expect(await elapsed(() => pause.pause())).toBeLessThan(35); // the base again, not 320
    await pause.pause(); // 40
    pause.wake(); // while the round runs
    expect(await pause.pause()).toBe(true);
    expect(await elapsed(() => pause.pause())).toBeLessThan(35);
    await pause.pause(); // 40
    pause.worked();
    expect(await elapsed(() => pause.pause())).toBeLessThan(35);
  });

  it('takes a fixed pause when asked (a loop at its capacity), still ended by a wake', async () => {
    const pause = new PollPause({ baseMs: 60_000 });
    expect(await elapsed(() => pause.pause({ ms: 20 }))).toBeLessThan(1_000);
    setTimeout(pause.wake, 10);
    expect(await pause.pause({ ms: 60_000 })).toBe(true);
  });

  it('after an error, a wake that came before does not skip the pause; one during it ends it', async () => {
    const pause = new PollPause({ baseMs: 30 });
    pause.wake();
    expect(await elapsed(() => pause.pause({ afterError: true }))).toBeGreaterThanOrEqual(25);
    setTimeout(pause.wake, 10);
    expect(await pause.pause({ afterError: true })).toBe(true);
  });

  it('ends the current pause and every later one once stopped, by stop() or its abort signal', async () => {
    const pause = new PollPause({ baseMs: 60_000, lingerMs: 60_000 });
    setTimeout(() => pause.stop(), 20);
    expect(await elapsed(() => pause.pause())).toBeLessThan(1_000);
    expect(await elapsed(() => pause.pause())).toBeLessThan(50);
    const abort = new AbortController();
    const lingering = new PollPause({ baseMs: 60_000, lingerMs: 60_000, signal: abort.signal });
    setTimeout(lingering.wake, 10);
    setTimeout(() => abort.abort(), 30); // during the linger
    expect(await elapsed(() => lingering.pause())).toBeLessThan(1_000);
  });
});
