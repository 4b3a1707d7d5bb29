import { given } from '@payments/eventsourcing';
import { ledgerAccountDecider as decider } from './ledger-account.decider';
import { LedgerAccountEvent } from './ledger-account.events';

const at = '2026-01-01T00:00:00.000Z';
const opened: LedgerAccountEvent = {
  type: 'LedgerAccountOpened.v1',
  data: { accountId: 'InternalAccount:a', platformId: 'P', mode: 'SANDBOX', owner: 'CUSTOMER', currency: 'USD', purpose: 'CUSTOMER', openedAt: at },
};
const funded: LedgerAccountEvent = { type: 'PostingRecorded.v1', data: { entryId: 'e1', reference: 'fund', amount: 1000, counterpartyAccountId: 'SYS', kind: 'FUND', balanceAfter: 1000, at } };
const held: LedgerAccountEvent = { type: 'HoldPlaced.v1', data: { holdId: 'h1', amount: 600, reference: 'Transaction:t', at } };
const balanceChanged = (data: Omit<Extract<LedgerAccountEvent, { type: 'InternalAccountBalanceChanged.v1' }>['data'], 'accountId' | 'mode' | 'currency' | 'at'>): LedgerAccountEvent => ({
  type: 'InternalAccountBalanceChanged.v1',
  data: { accountId: 'InternalAccount:a', mode: 'SANDBOX', currency: 'USD', ...data, at },
});
const post = (entryId: string, amount: number, holdId?: string) => ({ type: 'Post' as const, entryId, reference: 'r', amount, counterpartyAccountId: 'SYS', kind: 'K', holdId, now: at });

describe('ledgerAccountDecider', () => {
  it('refuses a debit or a hold beyond the available balance (holds count)', () => {
    given(decider, [opened, funded]).when(post('e2', -1001)).thenFails('INSUFFICIENT_FUNDS');
    given(decider, [opened, funded, held]).when(post('e2', -401)).thenFails('INSUFFICIENT_FUNDS');
    given(decider, [opened, funded, held]).when({ type: 'PlaceHold', holdId: 'h2', amount: 401, reference: 'x', now: at }).thenFails('INSUFFICIENT_FUNDS');
  });

  it('captures part of a hold: the hold closes, the rest becomes available again', () => {
    const events = given(decider, [opened, funded, held]).when(post('e2', -500, 'h1')).then([
      { type: 'HoldClosed.v1', data: { holdId: 'h1', amount: 600, outcome: 'CAPTURED', at } },
      { type: 'PostingRecorded.v1', data: { entryId: 'e2', reference: 'r', amount: -500, counterpartyAccountId: 'SYS', kind: 'K', holdId: 'h1', balanceAfter: 500, at } },
      balanceChanged({ balance: 500, totalBalance: 500, previousBalance: 400, previousTotalBalance: 1000, cause: { type: 'POSTING', entryId: 'e2', kind: 'K', reference: 'r', amount: -500, holdId: 'h1' } }),
    ]);
    const state = [opened, funded, held, ...events].reduce(decider.evolve, decider.initialState);
    expect(state).toMatchObject({ total: 500, held: 0 });
    given(decider, [opened, funded, held, ...events]).when(post('e3', -1, 'h1')).thenFails('HOLD_ALREADY_CLOSED');
    given(decider, [opened, funded, held]).when(post('e2', -601, 'h1')).thenFails('CAPTURE_EXCEEDS_HOLD');
  });

  it('keeps a state that does not grow with the postings (a clearing account takes every payout)', () => {
    const postings = (n: number): LedgerAccountEvent[] =>
      Array.from({ length: n }, (_, i) => ({ type: 'PostingRecorded.v1', data: { entryId: `p${i}`, reference: 'r', amount: 1, counterpartyAccountId: 'SYS', kind: 'K', balanceAfter: 1000 + i + 1, at } }));
    const size = (n: number) => JSON.stringify([opened, funded, ...postings(n)].reduce(decider.evolve, decider.initialState)).length;
    expect(size(500)).toBe(size(1) + String(1500).length - String(1001).length);
  });

  // A replayed entry never reaches the accounts: the journal (ledger.service.ts, claimEntry) answers it first.
  it('is idempotent by hold id', () => {
    given(decider, [opened, funded, held]).when({ type: 'PlaceHold', holdId: 'h1', amount: 600, reference: 'x', now: at }).then([]);
    const released: LedgerAccountEvent = { type: 'HoldClosed.v1', data: { holdId: 'h1', amount: 600, outcome: 'RELEASED', at } };
    given(decider, [opened, funded, held]).when({ type: 'ReleaseHold', holdId: 'h1', outcome: 'RELEASED', now: at }).then([
      released,
      balanceChanged({ balance: 1000, totalBalance: 1000, previousBalance: 400, previousTotalBalance: 1000, cause: { type: 'HOLD_CLOSED', holdId: 'h1', outcome: 'RELEASED', amount: 600 } }),
    ]);
    given(decider, [opened, funded, held, released]).when({ type: 'ReleaseHold', holdId: 'h1', outcome: 'EXPIRED', now: at }).then([]);
    given(decider, [opened, funded]).when({ type: 'ReleaseHold', holdId: 'nope', outcome: 'RELEASED', now: at }).thenFails('HOLD_NOT_FOUND');
    given(decider, [opened, funded, held, released]).when({ type: 'PlaceHold', holdId: 'h1', amount: 600, reference: 'x', now: at }).thenFails('HOLD_ALREADY_CLOSED');
  });

  it('recognises every closed hold of a hot account, however many closed after it', () => {
    const cycles = Array.from({ length: 2_000 }, (_, i): LedgerAccountEvent[] => [
      { type: 'HoldPlaced.v1', data: { holdId: `Transaction:${i}`, amount: 1, reference: 'r', at } },
      { type: 'HoldClosed.v1', data: { holdId: `Transaction:${i}`, amount: 1, outcome: i % 2 ? 'RELEASED' : 'CAPTURED', at } },
    ]).flat();
    const history = [opened, funded, ...cycles];
    given(decider, history).when({ type: 'ReleaseHold', holdId: 'Transaction:7', outcome: 'EXPIRED', now: at }).then([]);
    given(decider, history).when({ type: 'PlaceHold', holdId: 'Transaction:0', amount: 1, reference: 'x', now: at }).thenFails('HOLD_ALREADY_CLOSED');
    given(decider, history).when(post('e9', -1, 'Transaction:1999')).thenFails('HOLD_ALREADY_CLOSED');
    given(decider, history).when(post('e9', -1, 'Transaction:2000')).thenFails('HOLD_NOT_FOUND');
  });

  it("refuses a caller's hold command on another platform's, another mode's or a SYSTEM account (NOT_FOUND), and a hold in another currency", () => {
    const hold = { type: 'PlaceHold' as const, holdId: 'h2', amount: 1, reference: 'x', now: at };
    const system: LedgerAccountEvent = { ...opened, data: { ...opened.data, owner: 'SYSTEM' } } as LedgerAccountEvent;
    for (const caller of [{ platformId: 'Q', mode: 'SANDBOX' as const }, { platformId: 'P', mode: 'PRODUCTION' as const }]) {
      given(decider, [opened, funded, held]).when({ ...hold, caller }).thenFails('NOT_FOUND');
      given(decider, [opened, funded, held]).when({ type: 'ReleaseHold', holdId: 'h1', outcome: 'RELEASED', now: at, caller }).thenFails('NOT_FOUND');
    }
    given(decider, [system, funded]).when({ ...hold, caller: { platformId: 'P', mode: 'SANDBOX' } }).thenFails('NOT_FOUND');
    given(decider, []).when({ ...hold, caller: { platformId: 'P', mode: 'SANDBOX' } }).thenFails('NOT_FOUND');
    given(decider, [opened, funded]).when({ ...hold, caller: { platformId: 'P', mode: 'SANDBOX' }, currency: 'EUR' }).thenFails('INVALID_CURRENCY');
    const own = given(decider, [opened, funded]).when({ ...hold, caller: { platformId: 'P', mode: 'SANDBOX' }, currency: 'USD' }).decision;
    expect(own).toEqual([expect.objectContaining({ type: 'HoldPlaced.v1' }), expect.objectContaining({ type: 'InternalAccountBalanceChanged.v1' })]);
  });

  it('lets a SYSTEM account go negative (it mirrors money outside the platform)', () => {
    const system: LedgerAccountEvent = { ...opened, data: { ...opened.data, accountId: 'SYS', owner: 'SYSTEM' } } as LedgerAccountEvent;
    given(decider, [system]).when(post('e1', -1000)).then([
      { type: 'PostingRecorded.v1', data: { entryId: 'e1', reference: 'r', amount: -1000, counterpartyAccountId: 'SYS', kind: 'K', holdId: undefined, balanceAfter: -1000, at } },
    ]);
  });

  it('records the balance change of a customer account after each posting and hold, with its cause', () => {
    given(decider, [opened, funded]).when({ type: 'PlaceHold', holdId: 'h1', amount: 600, reference: 'Transaction:t', now: at }).then([
      held,
      balanceChanged({ balance: 400, totalBalance: 1000, previousBalance: 1000, previousTotalBalance: 1000, cause: { type: 'HOLD_PLACED', holdId: 'h1', reference: 'Transaction:t', amount: 600 } }),
    ]);
    given(decider, [opened, funded]).when(post('e2', 250)).then([
      { type: 'PostingRecorded.v1', data: { entryId: 'e2', reference: 'r', amount: 250, counterpartyAccountId: 'SYS', kind: 'K', holdId: undefined, balanceAfter: 1250, at } },
      balanceChanged({ balance: 1250, totalBalance: 1250, previousBalance: 1000, previousTotalBalance: 1000, cause: { type: 'POSTING', entryId: 'e2', kind: 'K', reference: 'r', amount: 250 } }),
    ]);
  });

  it('refuses to capture a hold past its expiry, even before the expiry timer releases it', () => {
    const expiring: LedgerAccountEvent = { type: 'HoldPlaced.v1', data: { holdId: 'h1', amount: 600, reference: 'x', expiresAt: '2026-01-01T00:01:00.000Z', at } };
    given(decider, [opened, funded, expiring]).when({ ...post('e2', -600, 'h1'), now: '2026-01-01T00:01:00.000Z' }).thenFails('HOLD_EXPIRED');
    const captured = given(decider, [opened, funded, expiring]).when({ ...post('e2', -600, 'h1'), now: '2026-01-01T00:00:59.999Z' }).decision;
    expect(captured).toEqual(expect.arrayContaining([expect.objectContaining({ type: 'HoldClosed.v1', data: expect.objectContaining({ outcome: 'CAPTURED' }) })]));
  });

  it('rejects zero, fractional and unsafe amounts', () => {
    for (const amount of [0, 1.5, Number.MAX_SAFE_INTEGER + 2]) given(decider, [opened, funded]).when(post('x', amount)).thenFails('INVALID_AMOUNT');
    given(decider, [opened]).when({ type: 'PlaceHold', holdId: 'h', amount: -5, reference: 'x', now: at }).thenFails('INVALID_AMOUNT');
  });
});
