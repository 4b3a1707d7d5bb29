import { Link } from 'wouter';
import { Id, Time, Value } from '../../components/format';
import { ListView } from '../../components/list-view';
import { PLATFORM_FILTER } from './shared';
import type { AuditEvent } from './types';

/** What operators did, newest first: who, what, on what, when and why. Nothing edits or deletes it. */
export function AuditLogPage() {
  return (
    <>
      <h1>Audit log</h1>
      <p>Every operator action, recorded with its effect by the service that performed it (it trails the action by well under a second).</p>
      <ListView<AuditEvent>
        path="/audit-events"
        noun="events"
        filters={[
          { name: 'operatorId', label: 'Operator id' },
          { name: 'action', label: 'Action', placeholder: 'kyc.approve or kyc.*' },
          { name: 'targetType', label: 'Target type', placeholder: 'Verification' },
          { name: 'targetId', label: 'Target id' },
          PLATFORM_FILTER,
          { name: 'occurredAfter', label: 'Occurred after', placeholder: '2026-01-01T00:00:00Z' },
          { name: 'occurredBefore', label: 'Occurred before', placeholder: '2026-02-01T00:00:00Z' },
        ]}
        columns={[
          { label: 'When', cell: (e) => <Time iso={e.occurredAt} /> },
          {
            label: 'Operator',
            cell: (e) => (
              <span>
                <Link href={`/audit-log?${new URLSearchParams({ operatorId: e.operator.id })}`} aria-label={`${e.operator.name}: every action of this operator`}>
                  {e.operator.name}
                </Link>{' '}
                <small>({e.operator.role})</small>
              </span>
            ),
          },
          {
            label: 'Action',
            cell: (e) => (
              <Link href={`/audit-log?${new URLSearchParams({ targetId: e.target.id })}`} aria-label={`${e.action}: every action on ${e.target.id}`}>
                <code>{e.action}</code>
              </Link>
            ),
          },
          {
            label: 'Target',
            cell: (e) => (
              <span>
                {e.target.type} <Id value={e.target.id} />
              </span>
            ),
          },
          { label: 'Platform', cell: (e) => <Id value={e.platformId} /> },
          { label: 'Reason', field: 'reason' },
          { label: 'Details', cell: (e) => <Value name="details" value={e.details} /> },
          { label: 'Service', field: 'service' },
        ]}
      />
    </>
  );
}
