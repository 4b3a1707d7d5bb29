import { useEffect, useMemo, useState } from 'react';
import { Link, useLocation } from 'wouter';
import { api, Page } from '../../api/client';
import { ActionForm } from '../../components/action-form';
import { Column, DataTable } from '../../components/data-table';
import { Amount, Id, KeyValues, Status, Time } from '../../components/format';
import { ListView } from '../../components/list-view';
import { ProblemNotice } from '../../components/problem';
import { useApi } from '../../components/use-api';
import { LoadedView } from '../../components/loaded-view';
import { useRouteParam } from '../../components/route-param';
import { decimalsOf, formatAmount } from '../../lib/money';
import { TRANSACTION_STATUSES, TRANSACTION_TYPES } from '../../lib/values';
import { DeliveriesTable, WebhookDelivery } from './webhooks';

type Money = { amount: number; currency: { code: string; decimals?: number } };

export interface Transaction {
  id: string;
  type: string;
  status: string;
  customerId?: string;
  sentAmount?: Money;
  receivedAmount?: Money;
  authorizedAmount?: Money;
  createdAt: string;
  updatedAt?: string;
  settledAt?: string;
  failureReason?: string;
}

/** A transactions list's columns (this page's, and a customer's page). */
export const TRANSACTION_COLUMNS: Column<Transaction>[] = [
  { label: 'Transaction', cell: (t) => <Id value={t.id} to={`/transactions/${encodeURIComponent(t.id)}`} /> },
  { label: 'Type', field: 'type' },
  { label: 'Status', cell: (t) => <Status value={t.status} /> },
  { label: 'Amount', cell: (t) => <Amount value={t.sentAmount ?? t.receivedAmount ?? t.authorizedAmount} /> },
  { label: 'Customer', cell: (t) => <Id value={t.customerId} to={t.customerId ? `/customers/${encodeURIComponent(t.customerId)}` : undefined} /> },
  { label: 'Created', cell: (t) => <Time iso={t.createdAt} /> },
];

export function TransactionsPage() {
  return (
    <>
      <h1>Transactions</h1>
      <p>
        <Link href="/transfers/new" className="button-link">
          New transfer
        </Link>
      </p>
      <ListView<Transaction>
        path="/transactions"
        noun="transactions"
        filters={[
          { name: 'status', label: 'Status', options: TRANSACTION_STATUSES },
          { name: 'type', label: 'Type', options: TRANSACTION_TYPES },
          { name: 'customerId', label: 'Customer id' },
          { name: 'platformCustomerId', label: 'Your customer id' },
          { name: 'accountIdentifier', label: 'Account (either side)' },
          { name: 'reference', label: 'Reference' },
          { name: 'startDate', label: 'From', placeholder: '2026-11-01T00:00:00Z' },
          { name: 'endDate', label: 'To', placeholder: '2026-11-30T23:59:59Z' },
        ]}
        columns={TRANSACTION_COLUMNS}
      />
    </>
  );
}

const FINAL = new Set(['COMPLETED', 'FAILED', 'REJECTED', 'REFUNDED', 'EXPIRED', 'SETTLED']);

interface Posting {
  entryId: string;
  accountId: string;
  amount: Money;
  kind: string;
  createdAt: string;
}

export function TransactionDetailPage() {
  const id = useRouteParam('transactionId');
  const tx = useApi<Transaction & Record<string, unknown>>(`/transactions/${encodeURIComponent(id)}`);
  const hooks = useApi<Page<WebhookDelivery>>('/webhook-deliveries', { resourceId: id, limit: 50 });
  const postings = useApi<Page<Posting>>(`/transactions/${encodeURIComponent(id)}/ledger-postings`);
  // Until it is decided, the page follows it: the status and its webhooks every two seconds.
  const pending = !!tx.data && !FINAL.has(tx.data.status);
  useEffect(() => {
    if (!pending) return;
    const timer = setInterval(() => (tx.reload(), hooks.reload(), postings.reload()), 2_000);
    return () => clearInterval(timer);
  }, [pending, tx.reload, hooks.reload, postings.reload]);
  const timeline = useMemo(() => {
    const events: { at: string; what: string }[] = [];
    if (tx.data) {
      events.push({ at: tx.data.createdAt, what: `created (${tx.data.type})` });
      if (tx.data.settledAt) events.push({ at: tx.data.settledAt, what: 'settled' });
    }
    for (const h of hooks.data?.data ?? []) events.push({ at: h.createdAt, what: `${h.type} (webhook ${h.status.toLowerCase()})` });
    return events.sort((a, b) => a.at.localeCompare(b.at));
  }, [tx.data, hooks.data]);
  return (
    <>
      <h1>Transaction</h1>
      <p>
        <Id value={id} />
      </p>
      <LoadedView loaded={tx} what="the transaction">
        {(data) => (
          <>
            <p data-testid="transaction-status">
              <Status value={data.status} /> <Amount value={data.sentAmount ?? data.receivedAmount ?? data.authorizedAmount} />{' '}
              <button type="button" className="secondary outline" onClick={() => (tx.reload(), hooks.reload(), postings.reload())} aria-busy={tx.loading}>
                Refresh
              </button>
            </p>
            <section aria-labelledby="timeline">
              <h2 id="timeline">Timeline</h2>
              <ol className="timeline">
                {timeline.map((e, i) => (
                  <li key={i}>
                    <Time iso={e.at} /> — {e.what}
                  </li>
                ))}
              </ol>
            </section>
            <section aria-labelledby="details">
              <h2 id="details">Details</h2>
              <KeyValues data={data} />
            </section>
            <section aria-labelledby="postings">
              <h2 id="postings">Ledger postings</h2>
              {postings.error?.status === 404 && postings.error.code !== 'TRANSACTION_NOT_FOUND' ? (
                <p>This server does not list ledger postings.</p>
              ) : (
                <ProblemNotice problem={postings.error} />
              )}
              {postings.data && (
                <DataTable
                  rows={postings.data.data}
                  label="Ledger postings"
                  empty="No postings (yet)."
                  rowKey={(p) => `${p.entryId} ${p.accountId}`}
                  columns={[
                    { label: 'Entry', cell: (p) => <code className="id">{p.entryId}</code> },
                    { label: 'Account', cell: (p) => <code className="id">{p.accountId}</code> },
                    { label: 'Kind', field: 'kind' },
                    { label: 'Amount', cell: (p) => <Amount value={p.amount} /> },
                    { label: 'At', cell: (p) => <Time iso={p.createdAt} /> },
                  ]}
                />
              )}
            </section>
            <section aria-labelledby="webhooks">
              <h2 id="webhooks">Webhooks about it</h2>
              <ProblemNotice problem={hooks.error} />
              {hooks.data && <DeliveriesTable deliveries={hooks.data.data} />}
            </section>
          </>
        )}
      </LoadedView>
    </>
  );
}

interface AccountOption {
  id: string;
  customerId?: string;
  currency?: string;
  balance?: Money;
  status?: string;
}

/** Same-currency transfers: out to an external account, or in from a pull-capable one. */
export function TransferNewPage() {
  const [, navigate] = useLocation();
  const [direction, setDirection] = useState<'out' | 'in'>('out');
  const internal = useApi<Page<AccountOption>>('/customers/internal-accounts', { limit: 100 });
  const external = useApi<Page<AccountOption>>('/customers/external-accounts', { limit: 100 });
  const [sourceId, setSourceId] = useState('');
  const source = internal.data?.data.find((a) => a.id === sourceId);
  const decimals = source?.balance ? decimalsOf(source.balance.currency) : 2;
  return (
    <>
      <h1>New transfer</h1>
      <fieldset>
        <legend>Direction</legend>
        <label>
          <input type="radio" name="direction" checked={direction === 'out'} onChange={() => setDirection('out')} /> Out: internal account to external account
        </label>
        <label>
          <input type="radio" name="direction" checked={direction === 'in'} onChange={() => setDirection('in')} /> In: pull from an external account
        </label>
      </fieldset>
      <ProblemNotice problem={internal.error ?? external.error} />
      <label htmlFor="transfer-internal">
        Internal account
        <select id="transfer-internal" value={sourceId} onChange={(e) => setSourceId(e.target.value)}>
          <option value="">Choose an account</option>
          {internal.data?.data.map((a) => (
            <option key={a.id} value={a.id}>
              {a.id} · {a.balance ? formatAmount(a.balance.amount, a.balance.currency) : ''} · {a.customerId ?? 'platform'}
            </option>
          ))}
        </select>
      </label>
      <ActionForm
        key={`${direction} ${sourceId}`}
        submitLabel={direction === 'out' ? 'Send transfer' : 'Pull transfer'}
        fields={[
          {
            name: 'externalAccountId',
            label: 'External account',
            type: 'select',
            required: true,
            options: (external.data?.data ?? []).filter((a) => !source?.balance || a.currency === source.balance.currency.code).map((a) => a.id),
          },
          { name: 'amount', label: `Amount${source?.balance ? ` (${source.balance.currency.code})` : ''}`, type: 'amount', decimals, required: true, placeholder: '10.00' },
        ]}
        onSubmit={async (v, { idempotencyKey }) => {
          if (!sourceId) throw new Error('choose the internal account first');
          const body =
            direction === 'out'
              ? { source: { accountId: sourceId }, destination: { accountId: v.externalAccountId }, amount: v.amount }
              : { source: { accountId: v.externalAccountId }, destination: { accountId: sourceId }, amount: v.amount };
          const created = await api.post<Transaction>(direction === 'out' ? '/transfer-out' : '/transfer-in', body, { idempotencyKey });
          navigate(`/transactions/${encodeURIComponent(created.id)}`);
          return created;
        }}
      />
    </>
  );
}
