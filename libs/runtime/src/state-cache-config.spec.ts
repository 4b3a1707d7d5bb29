import { loadConfig, STATE_CACHE_ENTRIES_MAX_DEFAULT, stateCacheEntriesMax } from './config';

describe('STATE_CACHE_ENTRIES_MAX: the folded states each service keeps', () => {
  it('is 2,000 unless set; 0 turns the cache off', () => {
    expect(STATE_CACHE_ENTRIES_MAX_DEFAULT).toBe(2_000);
    expect(stateCacheEntriesMax({})).toBe(2_000);
    expect(stateCacheEntriesMax({ STATE_CACHE_ENTRIES_MAX: '' })).toBe(2_000);
    expect(stateCacheEntriesMax({ STATE_CACHE_ENTRIES_MAX: '500' })).toBe(500);
    expect(stateCacheEntriesMax({ STATE_CACHE_ENTRIES_MAX: '0' })).toBe(0);
  });

  it.each(['-1', '1.5', 'lots'])('refuses %p with a message naming the setting, at boot', (raw) => {
    expect(() => stateCacheEntriesMax({ STATE_CACHE_ENTRIES_MAX: raw })).toThrow(/^STATE_CACHE_ENTRIES_MAX must be a whole number/);
    expect(() => loadConfig({ STATE_CACHE_ENTRIES_MAX: raw })).toThrow(/^STATE_CACHE_ENTRIES_MAX must be a whole number/);
  });
});
