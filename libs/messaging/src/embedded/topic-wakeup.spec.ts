import { TopicWakeup } from './topic-wakeup';

const elapsed = async (work: () => Promise<unknown>): Promise<number> => {
  const start = Date.now();
  await work();
  return Date.now() - start;
};

describe('TopicWakeup', () => {
  const running = new AbortController().signal;

  it('returns at once when a notification came while the loop was busy (reading or handling)', async () => {
    const wakeup = new TopicWakeup(50);
    wakeup.notify();
    expect(await elapsed(() => wakeup.wait(60_000, running))).toBeLessThan(40); // no linger either: the loop is behind
  });

  it('wakes an idle loop on a notification, lingers briefly, and forgets what the next read will see', async () => {
    const wakeup = new TopicWakeup(50);
    setTimeout(wakeup.notify, 20);
    setTimeout(wakeup.notify, 40); // during the linger: the coming read sees its rows
    const waited = await elapsed(() => wakeup.wait(60_000, running));
    expect(waited).toBeGreaterThanOrEqual(60);
    expect(waited).toBeLessThan(5_000);
    const stop = new AbortController();
    setTimeout(() => stop.abort(), 100);
    expect(await elapsed(() => wakeup.wait(60_000, stop.signal))).toBeGreaterThanOrEqual(90); // nothing pending
  });

  it('says whether a notification ended the wait, so the consumer knows when to poll at its busy pace again', async () => {
    const wakeup = new TopicWakeup(0);
    expect(await wakeup.wait(10, running)).toBe(false);
    setTimeout(wakeup.notify, 5);
    expect(await wakeup.wait(60_000, running)).toBe(true);
    wakeup.notify();
    expect(await wakeup.wait(60_000, running)).toBe(true);
  });

  it('sleeps until the poll interval without notifications, and until stop when stopped first', async () => {
    const wakeup = new TopicWakeup(50);
    expect(await elapsed(() => wakeup.wait(30, running))).toBeLessThan(1_000);
    const stop = new AbortController();
    setTimeout(() => stop.abort(), 20);
    expect(await elapsed(() => wakeup.wait(60_000, stop.signal))).toBeLessThan(1_000);
  });
});
