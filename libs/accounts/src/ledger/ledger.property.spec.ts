import fc from 'fast-check';
import { DomainError } from '@payments/eventsourcing';
import { LedgerAccountCommand, ledgerAccountDecider as decider } from './ledger-account.decider';
import { LedgerAccountState, available } from './ledger-account.state';
import { checkEntry, JournalEntry } from './journal-entry';

/**
 * A pure model of the ledger: accounts folded from their own events, entries applied leg by leg and all-or-nothing
 * (as the service does in one transaction). Random operation sequences must keep every invariant.
 */
type Op =
  | { op: 'fund'; to: number; amount: number }
  | { op: 'transfer'; from: number; to: number; amount: number }
  | { op: 'hold'; account: number; amount: number }
  | { op: 'capture'; hold: number; part: number }
  | { op: 'release'; hold: number }
  | { op: 'reverse'; entry: number }
  | { op: 'replay'; index: number };

const ACCOUNTS = ['A', 'B', 'C'];
const SYSTEM = 'SYS';
const now = '2026-01-01T00:00:00.000Z';

class Model {
  states = new Map<string, LedgerAccountState>();
  entries: JournalEntry[] = [];
  holds: { id: string; account: string }[] = [];
  /** Commands that succeeded: replaying one (a redelivery) must change nothing. */
  history: { run: () => void }[] = [];
  private n = 0;

  constructor() {
    for (const id of [...ACCOUNTS, SYSTEM]) this.apply(id, { type: 'Open', accountId: id, platformId: 'P', mode: 'SANDBOX', owner: id === SYSTEM ? 'SYSTEM' : 'CUSTOMER', currency: 'USD', purpose: 'test', now });
  }

  apply(accountId: string, command: LedgerAccountCommand): boolean {
    const state = this.states.get(accountId) ?? decider.initialState;
    const decision = decider.decide(command, state);
    if (decision instanceof DomainError) return false;
    this.states.set(accountId, decision.reduce(decider.evolve, state));
    return true;
  }

  /**
   * All legs or none: decide every leg against the current states first, then commit. An entry id seen before is
   * answered by the journal (LedgerService.claimEntry): the same legs post nothing, other legs are refused.
   */
  post(entry: JournalEntry): boolean {
    if (checkEntry(entry)) return false;
    const posted = this.entries.find((e) => e.entryId === entry.entryId);
    if (posted) return JSON.stringify(posted.legs) === JSON.stringify(entry.legs);
    const next = new Map(this.states);
    for (const leg of entry.legs) {
      const state = next.get(leg.accountId)!;
      const decision = decider.decide({ type: 'Post', entryId: entry.entryId, reference: entry.reference, amount: leg.amount, counterpartyAccountId: '-', kind: entry.kind, holdId: leg.holdId, now }, state);
      if (decision instanceof DomainError) return false;
      next.set(leg.accountId, decision.reduce(decider.evolve, state));
    }
    this.states = next;
    this.entries.push(entry);
    return true;
  }

  run(op: Op): void {
    const id = () => `e${this.n++}`;
    const acc = (i: number) => ACCOUNTS[i % ACCOUNTS.length];
    switch (op.op) {
      case 'fund': {
        const entry = { entryId: id(), reference: 'fund', kind: 'FUND', legs: [{ accountId: acc(op.to), currency: 'USD', amount: op.amount }, { accountId: SYSTEM, currency: 'USD', amount: -op.amount }] };
        if (this.post(entry)) this.history.push({ run: () => this.post(entry) });
        return;
      }
      case 'transfer': {
        if (acc(op.from) === acc(op.to)) return;
        const entry = { entryId: id(), reference: 'xfer', kind: 'TRANSFER', legs: [{ accountId: acc(op.from), currency: 'USD', amount: -op.amount }, { accountId: acc(op.to), currency: 'USD', amount: op.amount }] };
        if (this.post(entry)) this.history.push({ run: () => this.post(entry) });
        return;
      }
      case 'hold': {
        const holdId = `h${this.n++}`;
        const command: LedgerAccountCommand = { type: 'PlaceHold', holdId, amount: op.amount, reference: 'payout', now };
        if (this.apply(acc(op.account), command)) {
          this.holds.push({ id: holdId, account: acc(op.account) });
          this.history.push({ run: () => this.apply(acc(op.account), command) });
        }
        return;
      }
      case 'capture': {
        const hold = this.holds[op.hold % Math.max(1, this.holds.length)];
        if (!hold) return;
        const state = this.states.get(hold.account);
        const amount = state?.status === 'OPEN' ? state.holds[hold.id]?.amount : undefined;
        if (!amount) return;
        const debit = Math.max(1, Math.floor(amount * op.part));
        const entry = { entryId: id(), reference: hold.id, kind: 'CAPTURE', legs: [{ accountId: hold.account, currency: 'USD', amount: -debit, holdId: hold.id }, { accountId: SYSTEM, currency: 'USD', amount: debit }] };
        if (this.post(entry)) this.history.push({ run: () => this.post(entry) });
        return;
      }
      case 'release': {
        const hold = this.holds[op.hold % Math.max(1, this.holds.length)];
        if (hold) this.apply(hold.account, { type: 'ReleaseHold', holdId: hold.id, outcome: 'RELEASED', now });
        return;
      }
      case 'reverse': {
        const original = this.entries[op.entry % Math.max(1, this.entries.length)];
        if (!original || original.kind === 'REVERSAL') return;
        this.post({ entryId: `rev-${original.entryId}`, reference: original.entryId, kind: 'REVERSAL', legs: original.legs.map((l) => ({ accountId: l.accountId, currency: l.currency, amount: -l.amount })) });
        return;
      }
      case 'replay': {
        // At-least-once delivery: any earlier command again must change nothing.
        const before = JSON.stringify([...this.states]);
        this.history[op.index % Math.max(1, this.history.length)]?.run();
        expect(JSON.stringify([...this.states])).toBe(before);
        return;
      }
    }
  }
}

const amount = fc.integer({ min: 1, max: 1_000_000 });
const ops: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ op: fc.constant('fund' as const), to: fc.nat(9), amount }),
  fc.record({ op: fc.constant('transfer' as const), from: fc.nat(9), to: fc.nat(9), amount }),
  fc.record({ op: fc.constant('hold' as const), account: fc.nat(9), amount }),
  fc.record({ op: fc.constant('capture' as const), hold: fc.nat(50), part: fc.double({ min: 0.01, max: 1, noNaN: true }) }),
  fc.record({ op: fc.constant('release' as const), hold: fc.nat(50) }),
  fc.record({ op: fc.constant('reverse' as const), entry: fc.nat(50) }),
  fc.record({ op: fc.constant('replay' as const), index: fc.nat(100) }),
);

describe('ledger invariants under random operations', () => {
  it('never overdraws, balances per currency, and folds to the postings', () => {
    fc.assert(
      fc.property(fc.array(ops, { minLength: 1, maxLength: 120 }), (sequence) => {
        const model = new Model();
        for (const op of sequence) model.run(op);
        let sum = 0;
        for (const [id, state] of model.states) {
          if (state.status !== 'OPEN') throw new Error(`${id} not open`);
          sum += state.total;
          const postings = model.entries.flatMap((e) => e.legs).filter((l) => l.accountId === id).reduce((s, l) => s + l.amount, 0);
          expect(state.total).toBe(postings);
          expect(state.held).toBe(Object.values(state.holds).reduce((s, h) => s + h.amount, 0));
          if (state.owner !== 'SYSTEM') {
            expect(state.total).toBeGreaterThanOrEqual(0);
            expect(available(state)).toBeGreaterThanOrEqual(0);
          }
        }
        expect(sum).toBe(0);
      }),
      { numRuns: 300 },
    );
  });

  it('refuses unbalanced, mixed-currency and single-leg entries', () => {
    const leg = (accountId: string, amount: number, currency = 'USD') => ({ accountId, currency, amount });
    expect(checkEntry({ entryId: 'x', reference: 'r', kind: 'K', legs: [leg('A', 5), leg('B', -4)] })?.code).toBe('UNBALANCED_ENTRY');
    expect(checkEntry({ entryId: 'x', reference: 'r', kind: 'K', legs: [leg('A', 5), leg('B', -5, 'EUR')] })?.code).toBe('UNBALANCED_ENTRY');
    expect(checkEntry({ entryId: 'x', reference: 'r', kind: 'K', legs: [leg('A', 0), leg('B', 0)] })?.code).toBe('INVALID_AMOUNT');
    expect(checkEntry({ entryId: 'x', reference: 'r', kind: 'K', legs: [leg('A', 5)] })?.code).toBe('UNBALANCED_ENTRY');
    expect(checkEntry({ entryId: 'x', reference: 'r', kind: 'K', legs: [leg('A', 5), leg('B', -5)] })).toBeUndefined();
  });
});
