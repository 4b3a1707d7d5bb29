import { StreamStateCache } from './state-cache';

const decider = {};
const remember = (cache: StreamStateCache, streamId: string) => cache.remember(streamId, decider, { streamId }, 1, `${streamId}-e1`);
const cachedIds = (cache: StreamStateCache, ids: string[]) => ids.filter((id) => cache.get(id, decider));

describe('StreamStateCache: memory bounded by entriesMax', () => {
  it('keeps at most entriesMax states however many streams are written (one new stream per transaction)', () => {
    const cache = new StreamStateCache(3);
    const ids = Array.from({ length: 1_000 }, (_, i) => `Transaction:${i}`);
    for (const id of ids) remember(cache, id);
    expect(cachedIds(cache, ids)).toEqual(['Transaction:997', 'Transaction:998', 'Transaction:999']);
  });

  it('evicts the least recently written first: a hot stream written again stays', () => {
    const cache = new StreamStateCache(2);
    remember(cache, 'Account:hot');
    remember(cache, 'Transaction:1');
    remember(cache, 'Account:hot');
    remember(cache, 'Transaction:2');
    expect(cachedIds(cache, ['Account:hot', 'Transaction:1', 'Transaction:2'])).toEqual(['Account:hot', 'Transaction:2']);
  });

  it('keeps nothing at 0', () => {
    const cache = new StreamStateCache(0);
    remember(cache, 'Account:hot');
    expect(cache.get('Account:hot', decider)).toBeUndefined();
  });
});
