import fc from 'fast-check';
import type { TransactionStatus } from '@payments/contracts';
import { decideRecord, failureReasonOf, inRailOrder, OutcomeKind, transactionEffect } from './outcome-rules';
import type { RailPaymentStatus } from './rail-payments';

const kinds: OutcomeKind[] = ['SETTLED', 'REJECTED', 'RETURNED'];
const kind = fc.constantFrom(...kinds);

/**
 * One payment's news, recorded one at a time (as under its row's lock) and applied in that order: the payment's and
 * the transaction's state, and the customer's money for a payout of 100 held at creation (a pull moves the other way).
 */
function play(outcomes: OutcomeKind[], direction: 'OUTGOING' | 'INCOMING') {
  let payment: RailPaymentStatus = 'FILED';
  let transaction: TransactionStatus = 'PROCESSING';
  let money = direction === 'OUTGOING' ? -100 : 0; // available: a payout's hold is placed at creation
  let contradictions = 0;
  let reason: string | undefined;
  for (const k of outcomes) {
    const decision = decideRecord(payment, k);
    if (!decision.news) {
      contradictions++;
      continue;
    }
    payment = decision.status;
    const effect = transactionEffect(transaction, k);
    if (effect === 'SETTLE') {
      transaction = 'COMPLETED';
      if (direction === 'INCOMING') money += 100;
    } else if (effect === 'FAIL_BEFORE_SETTLEMENT' || effect === 'REVERSE_SETTLEMENT') {
      transaction = 'FAILED';
      reason = failureReasonOf(effect, direction, 'ACCOUNT_INVALID');
      money = 0; // the hold released, or the settlement reversed
    }
  }
  return { payment, transaction, money, contradictions, reason };
}

describe('rail outcome rules', () => {
  it('the first final word stands: only a settlement is followed, by a return; everything else is a contradiction', () => {
    fc.assert(
      fc.property(fc.array(kind, { maxLength: 6 }), fc.constantFrom('OUTGOING' as const, 'INCOMING' as const), (outcomes, direction) => {
        const r = play(outcomes, direction);
        const first = outcomes[0];
        const returnedAfterSettled = first === 'SETTLED' && outcomes.slice(1).includes('RETURNED');
        const expected = first === undefined ? 'PROCESSING' : first === 'SETTLED' && !returnedAfterSettled ? 'COMPLETED' : 'FAILED';
        expect(r.transaction).toBe(expected);
        expect(r.contradictions).toBe(outcomes.length - (first === undefined ? 0 : returnedAfterSettled ? 2 : 1));
        // Money follows the story: moved only when the payment ends settled, never twice.
        expect(r.money).toBe(expected === 'COMPLETED' ? (direction === 'OUTGOING' ? -100 : 100) : direction === 'OUTGOING' && expected === 'PROCESSING' ? -100 : 0);
        if (returnedAfterSettled) expect(r.reason).toBe(direction === 'OUTGOING' ? 'PAYOUT_RETURNED' : 'COLLECTION_FAILED');
        else if (expected === 'FAILED') expect(r.reason).toBe('ACCOUNT_INVALID');
      }),
    );
  });

  it('one import in the rail order: a settlement before the return of the same payment, other entries where they were', () => {
    type Entry = { id: number; kind?: OutcomeKind };
    const entry = fc.record({ kind: fc.option(kind, { nil: undefined }) });
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 12 }), (raw) => {
        const entries: Entry[] = raw.map((e, id) => ({ id, ...e }));
        const ordered = inRailOrder(entries, (e) => e.kind);
        expect(ordered.map((o) => o.entry.id).sort((a, b) => a - b)).toEqual(entries.map((e) => e.id));
        for (const o of ordered) expect(o.index).toBe(o.entry.id);
        ordered.forEach((o, position) => {
          if (o.entry.kind === undefined) expect(o.entry.id).toBe(position);
        });
        const ranks = ordered.filter((o) => o.entry.kind).map((o) => kinds.indexOf(o.entry.kind!));
        expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
      }),
    );
  });

  it('a booking and its return in either order in one file end as a returned payout, every cent back', () => {
    for (const file of [['SETTLED', 'RETURNED'], ['RETURNED', 'SETTLED']] as OutcomeKind[][]) {
      const ordered = inRailOrder(file, (k) => k).map((o) => o.entry);
      expect(play(ordered, 'OUTGOING')).toMatchObject({ transaction: 'FAILED', reason: 'PAYOUT_RETURNED', money: 0, contradictions: 0 });
    }
  });
});
