import { Batcher } from './batcher';

const tick = () => new Promise((r) => setImmediate(r));

describe('Batcher', () => {
  it('writes a lone item at once, and what arrives during a write as the next batch', async () => {
    const batches: number[][] = [];
    let finish!: () => void;
    const batcher = new Batcher<number>(async (batch) => {
      batches.push(batch);
      if (batches.length === 1) await new Promise<void>((r) => (finish = r));
    }, { inFlightMax: 1 });
    batcher.add(1);
    expect(batches).toEqual([[1]]);
    batcher.add(2);
    batcher.add(3);
    expect(batches).toEqual([[1]]); // one batch in flight
    finish();
    await tick();
    expect(batches).toEqual([[1], [2, 3]]);
  });

  it('takes batches with the given rule and keeps the rest queued in order', async () => {
    const batches: number[][] = [];
    const batcher = new Batcher<number>(async (batch) => void batches.push(batch), { inFlightMax: 2, take: (queue) => queue.splice(0, 2) });
    for (const n of [1, 2, 3, 4, 5]) batcher.add(n);
    for (let i = 0; i < 5; i++) await tick();
    expect(batches.flat()).toEqual([1, 2, 3, 4, 5]);
    expect(batches.every((b) => b.length <= 2)).toBe(true);
  });

  it('with gatherFirst, items added in the same round share the first batch', async () => {
    const batches: number[][] = [];
    const batcher = new Batcher<number>(async (batch) => void batches.push(batch), { inFlightMax: 1, gatherFirst: true });
    batcher.add(1);
    batcher.add(2);
    expect(batches).toEqual([]);
    await tick();
    expect(batches).toEqual([[1, 2]]);
  });
});
