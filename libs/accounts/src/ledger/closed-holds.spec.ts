import fc from 'fast-check';
import { ClosedHolds, closedOutcome, HoldOutcome, withClosed } from './closed-holds';

const outcomes: HoldOutcome[] = ['CAPTURED', 'RELEASED', 'EXPIRED'];

describe('closed holds (a persistent set)', () => {
  it('answers like a map of every hold closed so far, and every earlier version keeps its own answers', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.oneof(fc.string({ maxLength: 6 }), fc.integer({ min: 0, max: 5_000 }).map((n) => `Transaction:${n}`)), fc.constantFrom(...outcomes)), { maxLength: 300 }), (closes) => {
        const versions: { set: ClosedHolds; model: Map<string, HoldOutcome> }[] = [{ set: undefined, model: new Map() }];
        for (const [holdId, outcome] of closes) {
          const last = versions[versions.length - 1];
          versions.push({ set: withClosed(last.set, holdId, outcome), model: new Map(last.model).set(holdId, outcome) });
        }
        const probes = [...new Set([...closes.map(([id]) => id), 'never-closed', ''])];
        for (const { set, model } of versions) for (const id of probes) expect(closedOutcome(set, id)).toBe(model.get(id));
      }),
      { numRuns: 200 },
    );
  });

  it('tells apart two ids whose hashes collide in all 32 bits', () => {
    // 'hold-329599' and 'hold-532382' have the same FNV-1a hash (found by search): they share one bucket.
    const one = withClosed(undefined, 'hold-329599', 'CAPTURED');
    expect(closedOutcome(one, 'hold-532382')).toBeUndefined();
    const both = withClosed(withClosed(one, 'hold-532382', 'EXPIRED'), 'hold-1', 'RELEASED');
    expect([closedOutcome(both, 'hold-329599'), closedOutcome(both, 'hold-532382'), closedOutcome(both, 'hold-1')]).toEqual(['CAPTURED', 'EXPIRED', 'RELEASED']);
    expect(closedOutcome(one, 'hold-1')).toBeUndefined();
  });

  it('records a close without copying the holds closed before (a hot account stays O(1) per event)', () => {
    let set: ClosedHolds;
    for (let i = 0; i < 100_000; i++) set = withClosed(set, `Transaction:${i}/hold`, 'CAPTURED');
    const next = withClosed(set, 'Transaction:new/hold', 'RELEASED');
    // Everything but the one path to the new id is shared with the set before.
    const shared = next!.slots.filter((slot, i) => slot === set!.slots[i]).length;
    expect(shared).toBe(15);
    expect(closedOutcome(next, 'Transaction:99999/hold')).toBe('CAPTURED');
    expect(closedOutcome(set, 'Transaction:new/hold')).toBeUndefined();
  });
});
