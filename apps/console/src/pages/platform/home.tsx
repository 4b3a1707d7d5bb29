import { Link } from 'wouter';
import { useMemo } from 'react';
import type { Page } from '../../api/client';
import { DailyChart } from '../../components/daily-chart';
import { Amount, Id, Status, Time } from '../../components/format';
import { Loading, ProblemNotice } from '../../components/problem';
import { useApi } from '../../components/use-api';
import { dailyStats } from '../../lib/daily-stats';

interface Account {
  id: string;
  customerId?: string;
  balance?: { amount: number; currency: { code: string; decimals?: number } };
  totalBalance?: { amount: number; currency: { code: string; decimals?: number } };
}

interface Transaction {
  id: string;
  type: string;
  status: string;
  createdAt: string;
  customerId?: string;
  failureReason?: string;
  sentAmount?: { amount: number; currency: { code: string; decimals?: number } };
  receivedAmount?: { amount: number; currency: { code: string; decimals?: number } };
}

const DAYS = 14;

/** The platform's overview: its own accounts' balances, the last two weeks by day, and what failed lately. */
export function HomePage() {
  const platformAccounts = useApi<Page<Account>>('/platform/internal-accounts');
  const since = useMemo(() => new Date(Date.now() - DAYS * 86_400_000).toISOString(), []);
  const recent = useApi<Page<Transaction>>('/transactions', { startDate: since, limit: 100 });
  const failures = useApi<Page<Transaction>>('/transactions', { status: 'FAILED', limit: 5 });
  const stats = useMemo(() => dailyStats(recent.data?.data ?? [], DAYS, new Date()), [recent.data]);
  return (
    <>
      <h1>Home</h1>
      <section aria-labelledby="balances">
        <h2 id="balances">Platform accounts</h2>
        <ProblemNotice problem={platformAccounts.error} />
        {platformAccounts.loading && <Loading what="balances" />}
        <div className="cards-row">
          {platformAccounts.data?.data.map((a) => (
            <article key={a.id}>
              <header>
                <Id value={a.id} />
              </header>
              <p>
                Available: <Amount value={a.balance} />
              </p>
              <p>
                Total: <Amount value={a.totalBalance} />
              </p>
            </article>
          ))}
          {platformAccounts.data?.data.length === 0 && <p>No platform accounts in this mode.</p>}
        </div>
        <p>
          Customers' balances: <Link href="/accounts">internal accounts</Link>.
        </p>
      </section>
      <section aria-labelledby="activity">
        <h2 id="activity">The last {DAYS} days</h2>
        <ProblemNotice problem={recent.error} />
        {recent.loading && <Loading what="transactions" />}
        {recent.data && (
          <>
            <DailyChart stats={stats} />
            {recent.data.hasMore && <p>Counted from the latest 100 transactions of the period.</p>}
          </>
        )}
      </section>
      <section aria-labelledby="failures">
        <h2 id="failures">Recent failures</h2>
        <ProblemNotice problem={failures.error} />
        {failures.data?.data.length === 0 && <p>No failed transactions.</p>}
        <ul>
          {failures.data?.data.map((t) => (
            <li key={t.id}>
              <Id value={t.id} to={`/transactions/${encodeURIComponent(t.id)}`} /> <Status value={t.status} /> {t.failureReason ?? ''} <Amount value={t.sentAmount ?? t.receivedAmount} /> <Time iso={t.createdAt} />
            </li>
          ))}
        </ul>
      </section>
    </>
  );
}
