import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { CurrencyInfo, formatAmount } from '../lib/money';
import { formatLocal, formatUtc } from '../lib/time';

interface AmountLike {
  amount: number | string;
  currency: CurrencyInfo | string;
}

export function isAmount(value: unknown): value is AmountLike {
  if (!value || typeof value !== 'object') return false;
  const v = value as Record<string, unknown>;
  const currency = v.currency as Record<string, unknown> | string | undefined;
  return (typeof v.amount === 'number' || typeof v.amount === 'string') && (typeof currency === 'string' || (!!currency && typeof currency.code === 'string'));
}

/** An amount in major units with the currency's decimals; the raw minor units on hover. */
export function Amount({ value }: { value: AmountLike | undefined }) {
  if (!value) return <span>—</span>;
  const code = typeof value.currency === 'string' ? value.currency : value.currency.code;
  return (
    <span className="amount" title={`${value.amount} (smallest unit of ${code})`}>
      {formatAmount(value.amount, value.currency)}
    </span>
  );
}

/** A time in the viewer's zone, UTC on hover. */
export function Time({ iso }: { iso: string | undefined | null }) {
  if (!iso) return <span>—</span>;
  return (
    <time dateTime={iso} title={formatUtc(iso)}>
      {formatLocal(iso)}
    </time>
  );
}

const TONE: Record<string, string> = {
  COMPLETED: 'good', APPROVED: 'good', ACTIVE: 'good', DELIVERED: 'good', SETTLED: 'good', VERIFIED: 'good', MATCHED: 'good', RESOLVED: 'good',
  FAILED: 'bad', REJECTED: 'bad', DEAD_LETTER: 'bad', CLOSED: 'bad', DECLINED: 'bad', EXPIRED: 'bad', CANCELLED: 'bad',
};

export function Status({ value }: { value: string | undefined | null }) {
  if (!value) return <span>—</span>;
  return <mark className={`status status-${TONE[value] ?? 'neutral'}`}>{value}</mark>;
}

/** An id, shown whole (they are what support asks for), linking to its page when there is one. */
export function Id({ value, to }: { value: string | undefined; to?: string }) {
  if (!value) return <span>—</span>;
  return to ? (
    <Link href={to} className="id">
      {value}
    </Link>
  ) : (
    <code className="id">{value}</code>
  );
}

/** Any value of a resource, drawn by its kind: amounts, times, statuses, nested objects as JSON. */
export function Value({ name, value }: { name: string; value: unknown }) {
  if (value === undefined || value === null || value === '') return <span>—</span>;
  if (isAmount(value)) return <Amount value={value} />;
  if (typeof value === 'string' && /At$|On$|Date$/.test(name) && !Number.isNaN(Date.parse(value)) && value.includes('T')) return <Time iso={value} />;
  if (typeof value === 'string' && /(^status$|Status$|^state$)/.test(name)) return <Status value={value} />;
  if (typeof value === 'boolean') return <span>{value ? 'yes' : 'no'}</span>;
  if (typeof value === 'object') return <pre className="json">{JSON.stringify(value, null, 2)}</pre>;
  return <span>{String(value)}</span>;
}

/** One term of a definition list (`<dl className="key-values">`) and what it says. */
export function Entry({ term, children }: { term: ReactNode; children: ReactNode }) {
  return (
    <div>
      <dt>{term}</dt>
      <dd>{children}</dd>
    </div>
  );
}

/** A resource's fields as a definition list, in the API's order (or the order given). */
export function KeyValues({ data: resource, only, omit = [] }: { data: object; only?: string[]; omit?: string[] }) {
  const data = resource as Record<string, unknown>;
  const names = (only ?? Object.keys(data)).filter((n) => !omit.includes(n));
  return (
    <dl className="key-values">
      {names.map((name) => (
        <Entry key={name} term={name}>
          <Value name={name} value={data[name]} />
        </Entry>
      ))}
    </dl>
  );
}
