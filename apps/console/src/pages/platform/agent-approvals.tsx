import { useState } from 'react';
import { Link } from 'wouter';
import { api } from '../../api/client';
import { ActionForm } from '../../components/action-form';
import { Amount, Id, Status, Time } from '../../components/format';
import { Filter, ListView } from '../../components/list-view';
import type { AgentAction } from '@payments/contracts';
export type { AgentAction };

export const APPROVAL_FILTERS: Filter[] = [
  { name: 'agentId', label: 'Agent id', placeholder: 'Agent:…' },
  { name: 'customerId', label: 'Customer id', placeholder: 'Customer:…' },
  { name: 'startDate', label: 'Created from', placeholder: '2026-01-31T00:00:00Z' },
  { name: 'endDate', label: 'Created until', placeholder: '2026-01-31T23:59:59Z' },
  { name: 'sortOrder', label: 'Order', options: ['desc', 'asc'] },
];

/** What the action would move: the quote's amounts, or the transfer's. */
function What({ action }: { action: AgentAction }) {
  if (action.quote) {
    return (
      <>
        <Amount value={{ amount: action.quote.totalSendingAmount, currency: action.quote.sendingCurrency }} /> →{' '}
        <Amount value={{ amount: action.quote.totalReceivingAmount, currency: action.quote.receivingCurrency }} /> (
        <Link href={`/quotes/${encodeURIComponent(action.quote.id)}`} aria-label={`quote ${action.quote.id}`}>
          quote
        </Link>
        )
      </>
    );
  }
  if (action.transferDetails) {
    const t = action.transferDetails;
    return (
      <>
        <Amount value={{ amount: t.amount, currency: t.currency }} /> from <Id value={t.sourceAccountId} /> to <Id value={t.destinationAccountId} />
      </>
    );
  }
  return <span>—</span>;
}

/**
 * Approve or reject one waiting action. The row keeps the answer (the list is not reloaded under the person's
 * eyes): its new status, its transaction, or the API's error.
 */
function Decision({ action }: { action: AgentAction }) {
  const [decided, setDecided] = useState<AgentAction>();
  const path = `/agents/${encodeURIComponent(action.agentId)}/actions/${encodeURIComponent(action.id)}`;
  if (decided) {
    return (
      <div role="status">
        <Status value={decided.status} />
        {decided.transaction && (
          <>
            {' '}
            <Id value={decided.transaction.id} to={`/transactions/${encodeURIComponent(decided.transaction.id)}`} />
          </>
        )}
        {decided.failureReason && <small> {decided.failureReason}</small>}
        {decided.rejectionReason && <small> {decided.rejectionReason}</small>}
      </div>
    );
  }
  const settle = async (answer: Promise<AgentAction>) => {
    const a = await answer;
    setDecided(a);
    return a;
  };
  return (
    <div className="actions">
      <ActionForm fields={[]} submitLabel="Approve" onSubmit={() => settle(api.post<AgentAction>(`${path}/approve`, {}))} />
      <ActionForm
        fields={[{ name: 'reason', label: 'Reason', placeholder: 'Why (optional)' }]}
        submitLabel="Reject"
        onSubmit={(v) => settle(api.post<AgentAction>(`${path}/reject`, v.reason ? { reason: v.reason } : {}))}
      />
    </div>
  );
}

/** Actions of the platform's agents waiting in PENDING_APPROVAL (GET /agents/approvals), each with its decision. */
export function ApprovalsList({ agentId }: { agentId?: string }) {
  return (
    <ListView<AgentAction>
      path="/agents/approvals"
      noun="actions waiting for approval"
      filters={agentId ? [] : APPROVAL_FILTERS}
      fixed={agentId ? { agentId } : undefined}
      inUrl={!agentId}
      columns={[
        { label: 'Action', cell: (a) => <Id value={a.id} /> },
        { label: 'Type', field: 'type' },
        { label: 'What', cell: (a) => <What action={a} /> },
        ...(agentId ? [] : [{ label: 'Agent', cell: (a: AgentAction) => <Id value={a.agentId} to={`/agents/${encodeURIComponent(a.agentId)}`} /> }]),
        { label: 'Customer', cell: (a) => <Id value={a.customerId} to={`/customers/${encodeURIComponent(a.customerId)}`} /> },
        { label: 'Waiting since', cell: (a) => <Time iso={a.createdAt} /> },
        { label: 'Decision', cell: (a) => <Decision action={a} /> },
      ]}
    />
  );
}
