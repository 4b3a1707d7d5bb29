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

  it('recognises every one of 100,000 closed holds and leaves earlier versions as they were', () => {
    let set: ClosedHolds;
    for (let i = 0; i < 100_000; i++) set = withClosed(set, `Transaction:${i}/hold`, 'CAPTURED');
    const next = withClosed(set, 'Transaction:new/hold', 'RELEASED');
    expect(closedOutcome(next, 'Transaction:99999/hold')).toBe('CAPTURED');
    expect(closedOutcome(next, 'Transaction:new/hold')).toBe('RELEASED');
    expect(closedOutcome(set, 'Transaction:new/hold')).toBeUndefined();
  });
});
