import { localDay } from './time';

export interface DayStats {
  day: string;
  count: number;
  completed: number;
  failed: number;
  /** Sum of amounts in minor units, per currency code. */
  volume: Record<string, number>;
}

interface TransactionLike {
  status?: string;
  createdAt?: string;
  sentAmount?: { amount: number; currency: { code: string } };
  receivedAmount?: { amount: number; currency: { code: string } };
}

/**
 * Transactions per day of the last `days` days in the viewer's zone (oldest first, empty days included): how many,
 * how many completed and failed, and the volume per currency (what was sent, else what was received).
 */
export function dailyStats(transactions: readonly TransactionLike[], days: number, now: Date, timeZone?: string): DayStats[] {
  const out: DayStats[] = [];
  const index = new Map<string, DayStats>();
  for (let i = days - 1; i >= 0; i--) {
    const day = localDay(new Date(now.getTime() - i * 86_400_000).toISOString(), timeZone);
    if (index.has(day)) continue;
    const stats = { day, count: 0, completed: 0, failed: 0, volume: {} };
    index.set(day, stats);
    out.push(stats);
  }
  for (const t of transactions) {
    if (!t.createdAt) continue;
    const stats = index.get(localDay(t.createdAt, timeZone));
    if (!stats) continue;
    stats.count += 1;
    if (t.status === 'COMPLETED' || t.status === 'SETTLED') stats.completed += 1;
    if (t.status === 'FAILED') stats.failed += 1;
    const amount = t.sentAmount ?? t.receivedAmount;
    if (amount) stats.volume[amount.currency.code] = (stats.volume[amount.currency.code] ?? 0) + amount.amount;
  }
  return out;
}

/** Completed over decided (completed + failed), as a percentage; undefined when nothing was decided that day. */
export function successRate(stats: DayStats): number | undefined {
  const decided = stats.completed + stats.failed;
  return decided === 0 ? undefined : Math.round((stats.completed / decided) * 1000) / 10;
}
