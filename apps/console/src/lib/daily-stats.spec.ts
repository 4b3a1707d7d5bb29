import { dailyStats, successRate } from './daily-stats';

const usd = (amount: number) => ({ amount, currency: { code: 'USD' } });

describe('transactions per day', () => {
  const now = new Date('2026-11-28T10:00:00Z');

  it('counts each day of the period in the viewer’s zone, empty days included, oldest first', () => {
    const stats = dailyStats(
      [
        { status: 'COMPLETED', createdAt: '2026-11-28T09:00:00Z', sentAmount: usd(1000) },
        { status: 'FAILED', createdAt: '2026-11-27T23:30:00Z', sentAmount: usd(500) }, // 28 Nov in Paris
        { status: 'PENDING', createdAt: '2026-11-26T12:00:00Z', receivedAmount: { amount: 7, currency: { code: 'EUR' } } },
        { status: 'COMPLETED', createdAt: '2026-10-01T12:00:00Z', sentAmount: usd(1) }, // outside the period
      ],
      3,
      now,
      'Europe/Paris',
    );
    expect(stats.map((s) => s.day)).toEqual(['2026-11-26', '2026-11-27', '2026-11-28']);
    expect(stats[2]).toEqual({ day: '2026-11-28', count: 2, completed: 1, failed: 1, volume: { USD: 1500 } });
    expect(stats[1]).toEqual({ day: '2026-11-27', count: 0, completed: 0, failed: 0, volume: {} });
    expect(stats[0].volume).toEqual({ EUR: 7 });
  });

  it('rates success over what was decided, and has no rate for a day with nothing decided', () => {
    expect(successRate({ day: 'd', count: 4, completed: 2, failed: 1, volume: {} })).toBe(66.7);
    expect(successRate({ day: 'd', count: 3, completed: 0, failed: 0, volume: {} })).toBeUndefined();
  });
});
