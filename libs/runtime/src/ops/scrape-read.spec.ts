import { scrapeRead } from './scrape-read';

describe('scrapeRead', () => {
  it('answers undefined once the timeout passes, and overlapping calls share the read in flight', async () => {
    let reads = 0;
    let finish!: (value: number) => void;
    const read = scrapeRead(() => {
      reads++;
      return new Promise<number>((resolve) => (finish = resolve));
    }, 50);
    const started = Date.now();
    const [first, second] = await Promise.all([read(), read()]);
    expect([first, second]).toEqual([undefined, undefined]);
    expect(Date.now() - started).toBeLessThan(500);
    expect(reads).toBe(1); // the slow read was not started twice

    const third = read(); // still the same read
    finish(7);
    expect(await third).toBe(7);
    expect(reads).toBe(1);
    finish = () => undefined;
  });

  it('answers undefined when the read fails, and reads again next time', async () => {
    let fail = true;
    const read = scrapeRead(async () => {
      if (fail) throw new Error('database unreachable');
      return 'fine';
    });
    expect(await read()).toBeUndefined();
    fail = false;
    expect(await read()).toBe('fine');
  });
});
