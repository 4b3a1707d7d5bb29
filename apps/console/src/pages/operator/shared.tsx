import { ReactNode } from 'react';
import type { Filter } from '../../components/list-view';
import { Link } from 'wouter';
import { useApi } from '../../components/use-api';
import { OPERATOR_ROLES, OperatorRole, OperatorView } from './types';

/**
 * The signed-in operator's role, from GET /me: the views hide the writes a role cannot make (the API refuses them
 * anyway, 403). Undefined while loading or when /me failed: the forms show, and the API's answer decides.
 */
export function useOperatorRole(): OperatorRole | undefined {
  return useApi<OperatorView>('/me').data?.role;
}

/** The queues' and the audit log's filter by platform (the operator API's `platformId`). */
export const PLATFORM_FILTER: Filter = { name: 'platformId', label: 'Platform id', placeholder: 'Platform:…' };

/** Whether `role` may do what `needed` may; an unknown role is given the benefit of the doubt (the API decides). */
export function allows(role: OperatorRole | undefined, needed: OperatorRole): boolean {
  return role === undefined || OPERATOR_ROLES.indexOf(role) >= OPERATOR_ROLES.indexOf(needed);
}

/** The writes of a view, or a note saying which role they need when this operator's is below it. */
export function RoleGate({ role, needed, what, children }: { role: OperatorRole | undefined; needed: OperatorRole; what: string; children: ReactNode }) {
  if (allows(role, needed)) return <>{children}</>;
  return (
    <p>
      <small>
        {what} needs the {needed} role; you are {role}.
      </small>
    </p>
  );
}

/** An id as a path segment of the API (ids carry `:`; nothing else of them needs escaping, but be safe). */
export const seg = (id: string) => encodeURIComponent(id);

/** Basis points as a percentage: 50 → 0.5%. */
export const bps = (value: number) => `${value} bps (${(value / 100).toLocaleString(undefined, { maximumFractionDigits: 2 })}%)`;

/** How long ago an instant was, roughly: "3 min ago", "2 h ago", "in 5 min". */
export function age(iso: string | undefined, now: number = Date.now()): string {
  if (!iso) return '—';
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return '—';
  const seconds = Math.round((now - t) / 1000);
  const abs = Math.abs(seconds);
  const text = abs < 90 ? `${abs} s` : abs < 5400 ? `${Math.round(abs / 60)} min` : abs < 172_800 ? `${Math.round(abs / 3600)} h` : `${Math.round(abs / 86_400)} days`;
  return seconds >= 0 ? `${text} ago` : `in ${text}`;
}

/** An operator's name linking to what they did (the audit log filtered to them). */
export function OperatorLink({ operator }: { operator: { id: string; name: string } }) {
  return (
    <Link href={`/audit-log?${new URLSearchParams({ operatorId: operator.id })}`} aria-label={`${operator.name}: their actions in the audit log`}>
      {operator.name}
    </Link>
  );
}
