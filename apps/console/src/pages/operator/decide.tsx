import type { ReactNode } from 'react';
import { api } from '../../api/client';
import { ActionForm } from '../../components/action-form';
import { RoleGate } from './shared';
import type { OperatorRole } from './types';

/** A call of a decision that, once answered, has the page reload what was decided (the answer is the form's). */
export const reloadingAfter =
  (reload: () => void) =>
  async <T,>(call: Promise<T>): Promise<T> => {
    const answer = await call;
    reload();
    return answer;
  };

/** A review's "Decide" section: the decisions, or which role they need when this operator's is below REVIEWER. */
export function DecideSection({ role, what, children }: { role: OperatorRole | undefined; what: string; children: ReactNode }) {
  return (
    <section aria-labelledby="decide-heading">
      <h2 id="decide-heading">Decide</h2>
      <RoleGate role={role} needed="REVIEWER" what={what}>
        {children}
      </RoleGate>
    </section>
  );
}

interface ApproveRejectProps {
  /** The reviewed resource's path in the operator API (`…/approve` and `…/reject` follow it). */
  base: string;
  /** What approving does, and what rejecting does, said before the button. */
  approveNote: string;
  rejectNote: string;
  rejectConfirm: string;
  onDecided: () => void;
}

/** Approve (a reason if the reviewer wants one) and reject (a reason always, confirmed first) of an operator queue. */
export function ApproveReject({ base, approveNote, rejectNote, rejectConfirm, onDecided }: ApproveRejectProps) {
  const decided = reloadingAfter(onDecided);
  return (
    <>
      <article>
        <header>
          <h3>Approve</h3>
        </header>
        <p>{approveNote}</p>
        <ActionForm
          submitLabel="Approve"
          fields={[{ name: 'reason', label: 'Reason (optional)', type: 'textarea' }]}
          onSubmit={(v) => decided(api.post(`${base}/approve`, v.reason ? { reason: v.reason } : {}))}
        />
      </article>
      <article>
        <header>
          <h3>Reject</h3>
        </header>
        <p>{rejectNote}</p>
        <ActionForm
          submitLabel="Reject"
          confirm={rejectConfirm}
          fields={[{ name: 'reason', label: 'Reason', type: 'textarea', required: true }]}
          onSubmit={(v) => decided(api.post(`${base}/reject`, { reason: v.reason }))}
        />
      </article>
    </>
  );
}
