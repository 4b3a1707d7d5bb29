import type { Agent } from '@payments/contracts';
import { dayOf, ExistingAgent, monthOf, usageAt } from './agent.state';

const nextDay = (now: string) => new Date(Date.parse(`${dayOf(now)}T00:00:00.000Z`) + 86_400_000).toISOString().slice(0, 10);
function nextMonth(now: string): string {
  const [y, m] = monthOf(now).split('-').map(Number);
  return m === 12 ? `${y + 1}-01` : `${y}-${String(m + 1).padStart(2, '0')}`;
}

/** The agent as the API shows it; usage is counted at `now` (counters restart each UTC day and month). */
export function toAgent(s: ExistingAgent, now: string): Agent {
  const used = usageAt(s, now);
  return {
    id: s.agentId,
    name: s.name,
    customerId: s.customerId,
    isPaused: s.isPaused,
    isConnected: s.isConnected,
    policy: s.policy,
    usage: { dailyTransactionCount: used.dailyCount, dailySpend: used.dailySpend, dailyResetDate: nextDay(now), monthlySpend: used.monthlySpend, monthlyResetMonth: nextMonth(now) },
    createdAt: s.createdAt,
    updatedAt: s.updatedAt,
  };
}
