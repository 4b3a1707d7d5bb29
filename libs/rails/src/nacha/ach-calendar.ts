/**
 * The ACH calendar: banking days are weekdays that are not Federal Reserve holidays. The Fed observes a holiday falling
 * on Sunday on the Monday after, but does NOT move a Saturday holiday to Friday (that Friday is a banking day).
 * Holidays are rule-based, so any year works; dates are ISO YYYY-MM-DD strings (no clock, no time zone).
 */

/** Federal Reserve holidays of a year as ISO dates, after the Sunday → Monday rule. */
export function federalReserveHolidays(year: number): string[] {
  const fixed = [
    [1, 1], // New Year's Day
    [6, 19], // Juneteenth National Independence Day
    [7, 4], // Independence Day
    [11, 11], // Veterans Day
    [12, 25], // Christmas Day
  ].map(([m, d]) => observed(utc(year, m, d)));
  const floating = [
    nthWeekday(year, 1, 1, 3), // Martin Luther King Jr. Day: third Monday of January
    nthWeekday(year, 2, 1, 3), // Washington's Birthday: third Monday of February
    lastWeekday(year, 5, 1), // Memorial Day: last Monday of May
    nthWeekday(year, 9, 1, 1), // Labor Day: first Monday of September
    nthWeekday(year, 10, 1, 2), // Columbus Day: second Monday of October
    nthWeekday(year, 11, 4, 4), // Thanksgiving: fourth Thursday of November
  ];
  return [...fixed, ...floating].filter((d): d is Date => d !== null).map(iso).sort();
}

export function isBankingDay(isoDate: string): boolean {
  const d = parse(isoDate);
  const day = d.getUTCDay();
  if (day === 0 || day === 6) return false;
  return !federalReserveHolidays(d.getUTCFullYear()).includes(isoDate);
}

/** The first banking day strictly after `isoDate` (the effective entry date of a file created that day). */
export function nextBankingDay(isoDate: string): string {
  let d = parse(isoDate);
  do d = new Date(d.getTime() + 86_400_000);
  while (!isBankingDay(iso(d)));
  return iso(d);
}

function observed(d: Date): Date | null {
  if (d.getUTCDay() === 0) return new Date(d.getTime() + 86_400_000);
  if (d.getUTCDay() === 6) return null; // Saturday: the Fed is closed anyway, and Friday stays open
  return d;
}

function nthWeekday(year: number, month: number, weekday: number, n: number): Date {
  const first = utc(year, month, 1);
  const offset = (weekday - first.getUTCDay() + 7) % 7;
  return utc(year, month, 1 + offset + 7 * (n - 1));
}

function lastWeekday(year: number, month: number, weekday: number): Date {
  const last = utc(year, month + 1, 0);
  const offset = (last.getUTCDay() - weekday + 7) % 7;
  return utc(year, month, last.getUTCDate() - offset);
}

function utc(year: number, month: number, day: number): Date {
  return new Date(Date.UTC(year, month - 1, day));
}

function parse(isoDate: string): Date {
  const d = new Date(`${isoDate}T00:00:00Z`);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(isoDate) || Number.isNaN(d.getTime()) || iso(d) !== isoDate) throw new RangeError(`not a date YYYY-MM-DD: ${isoDate}`);
  return d;
}

function iso(d: Date): string {
  return d.toISOString().slice(0, 10);
}
