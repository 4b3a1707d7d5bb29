import { federalReserveHolidays, isBankingDay, nextBankingDay } from './ach-calendar';

describe('ACH calendar', () => {
  it.each([
    ['a Tuesday → Wednesday', '2026-03-03', '2026-03-04'],
    ['a Friday → Monday', '2026-03-06', '2026-03-09'],
    ['a Saturday → Monday', '2026-03-07', '2026-03-09'],
    ['Juneteenth on a Thursday is skipped', '2025-06-18', '2025-06-20'],
    ['Juneteenth 2027 on a Saturday: the Friday before stays a banking day', '2027-06-17', '2027-06-18'],
    ['July 4 2026 on a Saturday: Friday July 3 is a banking day', '2026-07-02', '2026-07-03'],
    ['July 4 2027 on a Sunday: observed Monday July 5', '2027-07-02', '2027-07-06'],
    ['Thanksgiving 2026 (fourth Thursday, Nov 26)', '2026-11-25', '2026-11-27'],
    ['Christmas 2022 on a Sunday: observed Monday Dec 26', '2022-12-23', '2022-12-27'],
    ['New Year 2028 on a Saturday: Friday Dec 31 2027 is a banking day', '2027-12-30', '2027-12-31'],
    ['Labor Day 2024', '2024-08-30', '2024-09-03'],
    ['Christmas 2030 on a Wednesday', '2030-12-24', '2030-12-26'],
  ])('%s', (_what, from, expected) => {
    expect(nextBankingDay(from)).toBe(expected);
  });

  it('lists the Federal Reserve holidays of a year with the Sunday → Monday rule', () => {
    expect(federalReserveHolidays(2022)).toEqual([
      '2022-01-17', '2022-02-21', '2022-05-30', '2022-06-20', '2022-07-04', '2022-09-05', '2022-10-10', '2022-11-11', '2022-11-24', '2022-12-26',
    ]);
    // 2026: July 4 on a Saturday is not moved; 2028: Jan 1 on a Saturday is not moved either.
    expect(federalReserveHolidays(2026)).not.toContain('2026-07-03');
    expect(federalReserveHolidays(2026)).toContain('2026-11-26');
    expect(federalReserveHolidays(2028)).not.toContain('2027-12-31');
  });

  it('has no banking day on a weekend or a holiday, and refuses a non-date', () => {
    expect(isBankingDay('2024-12-25')).toBe(false);
    expect(isBankingDay('2024-11-28')).toBe(false);
    expect(isBankingDay('2024-11-29')).toBe(true);
    expect(isBankingDay('2024-11-30')).toBe(false);
    expect(() => nextBankingDay('2024-02-30')).toThrow(RangeError);
  });
});
