import { formatLocal, formatUtc, localDay } from './time';

describe('times', () => {
  const iso = '2026-11-27T23:30:00.000Z';

  it('shows a time in the viewer’s zone and the same instant in UTC for the hover text', () => {
    expect(formatLocal(iso, 'en-GB', 'Europe/Paris')).toBe('28 Nov 2026, 00:30:00');
    expect(formatLocal(iso, 'en-US', 'America/New_York')).toBe('Nov 27, 2026, 6:30:00 PM');
    expect(formatUtc(iso)).toBe('2026-11-27 23:30:00 UTC');
  });

  it('counts an instant in the viewer’s day, not UTC’s', () => {
    expect(localDay(iso, 'Europe/Paris')).toBe('2026-11-28');
    expect(localDay(iso, 'UTC')).toBe('2026-11-27');
  });

  it('leaves what is not a time as it came', () => {
    expect(formatLocal('soon')).toBe('soon');
    expect(formatUtc('soon')).toBe('soon');
  });
});
