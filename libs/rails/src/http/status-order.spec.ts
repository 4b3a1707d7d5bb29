import { RAIL_PAYMENT_STATUSES, RailPaymentStatusValue } from './protocol';
import { nextRailStatus } from './status-order';

const at = (status: RailPaymentStatusValue, sequence: number) => ({ status, sequence });

describe('nextRailStatus', () => {
  it('applies the first status whatever it is', () => {
    for (const status of RAIL_PAYMENT_STATUSES) expect(nextRailStatus(undefined, at(status, 7)).apply).toBe(true);
  });

  it('moves PENDING to any newer status, including a newer PENDING (e.g. a provider reference arrived)', () => {
    for (const status of RAIL_PAYMENT_STATUSES) expect(nextRailStatus(at('PENDING', 1), at(status, 2)).apply).toBe(true);
  });

  it('ignores a duplicate (same sequence), even one that names another status', () => {
    expect(nextRailStatus(at('PENDING', 2), at('PENDING', 2))).toEqual({ apply: false, why: expect.stringContaining('duplicate') });
    expect(nextRailStatus(at('SETTLED', 2), at('SETTLED', 2)).apply).toBe(false);
  });

  it('ignores an older report: a PENDING arriving after SETTLED or RETURNED changes nothing', () => {
    expect(nextRailStatus(at('SETTLED', 2), at('PENDING', 1))).toEqual({ apply: false, why: expect.stringContaining('out of order') });
    expect(nextRailStatus(at('RETURNED', 3), at('PENDING', 1)).apply).toBe(false);
    expect(nextRailStatus(at('RETURNED', 3), at('SETTLED', 2)).apply).toBe(false);
    // an older PENDING after a newer PENDING too
    expect(nextRailStatus(at('PENDING', 5), at('PENDING', 4)).apply).toBe(false);
  });

  it('keeps SETTLED unless a newer RETURNED arrives', () => {
    expect(nextRailStatus(at('SETTLED', 2), at('RETURNED', 3)).apply).toBe(true);
    expect(nextRailStatus(at('SETTLED', 2), at('PENDING', 3)).apply).toBe(false);
    expect(nextRailStatus(at('SETTLED', 2), at('REJECTED', 3)).apply).toBe(false);
  });

  it('keeps REJECTED and RETURNED final whatever newer report arrives', () => {
    for (const final of ['REJECTED', 'RETURNED'] as const) {
      for (const status of RAIL_PAYMENT_STATUSES) expect(nextRailStatus(at(final, 2), at(status, 9)).apply).toBe(false);
    }
  });

  it('ends in the same state whatever order a payment’s reports arrive in', () => {
    const reports = [at('PENDING', 1), at('PENDING', 2), at('SETTLED', 3), at('RETURNED', 4)];
    const permutations = (items: typeof reports): (typeof reports)[] =>
      items.length <= 1 ? [items] : items.flatMap((item, i) => permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [item, ...rest]));
    for (const order of permutations(reports)) {
      let current: ReturnType<typeof at> | undefined;
      for (const report of [...order, ...order]) if (nextRailStatus(current, report).apply) current = report;
      expect(current).toEqual(at('RETURNED', 4));
    }
  });
});
