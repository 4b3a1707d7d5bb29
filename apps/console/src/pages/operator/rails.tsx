import { useState } from 'react';
import { Link } from 'wouter';
import { call } from '../../api/client';
import { ActionForm } from '../../components/action-form';
import { Amount, Id, KeyValues, Status, Time, Value } from '../../components/format';
import { ListView } from '../../components/list-view';
import { useApi } from '../../components/use-api';
import { LoadedView } from '../../components/loaded-view';
import { useRouteParam } from '../../components/route-param';
import { RoleGate, seg, useOperatorRole } from './shared';
import { DataTable } from '../../components/data-table';
import {
  RAIL_EXCEPTION_KINDS,
  RAIL_EXCEPTION_STATUSES,
  RAIL_FILE_DIRECTIONS,
  RAIL_FILE_STATUSES,
  RailConnectorView,
  RailExceptionView,
  RailFileDetail,
  RailFileView,
  RailImportResult,
  RailOutcomeView,
  RailPaymentView,
} from './types';

const fileLink = (id: string | undefined) => (id ? <Id value={id} to={`/rails/files/${id}`} /> : <span>—</span>);

/** The production rail connectors, the files they wrote and imported, and the import of a return or status file. */
export function RailsPage() {
  const connectors = useApi<{ data: RailConnectorView[] }>('/rails/connectors');
  const role = useOperatorRole();
  const [imports, setImports] = useState(0);
  return (
    <>
      <h1>Rail files</h1>
      <section aria-labelledby="connectors-heading">
        <h2 id="connectors-heading">Connectors</h2>
        <LoadedView loaded={connectors} what="connectors">
          {(list) => (
            <DataTable
              rows={list.data}
              label="Connectors (table)"
              empty="No production rail is configured (RAILS_CONFIG_FILE): production transfers answer 501."
              columns={[
                { label: 'Connector', cell: (c) => <code>{c.id}</code> },
                { label: 'Kind', field: 'kind' },
                { label: 'Routes', cell: (c) => c.routes.map((r) => `${r.currency} ${r.paymentRail} (${r.directions.join('/')})`).join('; ') },
                {
                  label: 'Capabilities',
                  cell: (c) =>
                    Object.entries(c.capabilities)
                      .filter(([, on]) => on)
                      .map(([name]) => name)
                      .join(', ') || '—',
                },
                { label: 'Waiting to be filed or sent', field: 'paymentsSubmitted' },
                { label: 'Waiting for the rail', field: 'paymentsAwaitingRail' },
                {
                  label: 'Open exceptions',
                  cell: (c) => (c.exceptionsOpen > 0 ? <Link href={`/rails/exceptions?connectorId=${c.id}&status=OPEN`}>{c.exceptionsOpen}</Link> : 0),
                },
                { label: 'Last outbound file', cell: (c) => <Time iso={c.lastOutboundFileAt} /> },
              ]}
            />
          )}
        </LoadedView>
        <p>
          <Link href="/rails/exceptions">Rail exceptions</Link>
        </p>
      </section>
      <section aria-labelledby="files-heading">
        <h2 id="files-heading">Files</h2>
        <ListView<RailFileView>
          key={imports}
          path="/rails/files"
          noun="files"
          filters={[
            { name: 'connectorId', label: 'Connector', options: connectors.data?.data.map((c) => c.id), placeholder: 'connector id' },
            { name: 'direction', label: 'Direction', options: RAIL_FILE_DIRECTIONS },
            { name: 'status', label: 'Status', options: RAIL_FILE_STATUSES },
          ]}
          columns={[
            { label: 'Created', field: 'createdAt' },
            { label: 'File', cell: (f) => fileLink(f.id) },
            { label: 'Name', field: 'name' },
            { label: 'Connector', field: 'connectorId' },
            { label: 'Direction', field: 'direction' },
            { label: 'Format', field: 'format' },
            { label: 'Status', field: 'status' },
            { label: 'Entries', field: 'entryCount' },
            { label: 'Total (smallest unit)', field: 'totalAmount' },
          ]}
        />
      </section>
      <section aria-labelledby="import-heading">
        <h2 id="import-heading">Import a return or status file</h2>
        <p>NACHA returns, pain.002 or camt.054, as the bank sent them. The same bytes again change nothing (a duplicate).</p>
        <RoleGate role={role} needed="ADMIN" what="Importing a file">
          <ActionForm
            submitLabel="Import file"
            fields={[
              { name: 'file', label: 'File', type: 'file', required: true },
              {
                name: 'connectorId',
                label: 'Connector (optional)',
                type: 'select',
                options: connectors.data?.data.map((c) => c.id) ?? [],
                hint: 'Needed only when several connectors read the format.',
              },
            ]}
            onSubmit={async (v) => {
              if (!(v.file instanceof File)) throw new Error('choose the file to import');
              const form = new FormData();
              if (v.connectorId) form.append('connectorId', String(v.connectorId));
              form.append('file', v.file, v.file.name);
              const answer = await call<RailImportResult>('POST', '/rails/imports', { form });
              setImports((n) => n + 1);
              connectors.reload();
              return answer;
            }}
            done={(r) => {
              const result = r as RailImportResult;
              return (
                <p>
                  {result.duplicate ? 'Already imported before: nothing changed. ' : 'Imported. '}
                  {fileLink(result.fileId)} ({result.format}, {result.connectorId}): {result.entries} entries, {result.outcomes} outcomes recorded,{' '}
                  {result.exceptions} exceptions.
                </p>
              );
            }}
          />
        </RoleGate>
      </section>
    </>
  );
}

/** A rail file: what it is, the payments in it (outbound) or what it recorded (inbound), and its bytes. */
export function RailFileDetailPage() {
  const fileId = useRouteParam('fileId');
  const loaded = useApi<RailFileDetail>(`/rails/files/${seg(fileId)}`);
  return (
    <>
      <h1>Rail file</h1>
      <p>
        <Link href="/rails">Back to the files</Link>
      </p>
      <LoadedView loaded={loaded} what="the file">
        {(file) => (
          <>
            <KeyValues data={file as unknown as Record<string, unknown>} omit={['payments', 'outcomes', 'exceptions']} />
            <p>
              <a href={`/console/api/rails/files/${seg(file.id)}/content`} download={file.name}>
                Download {file.name}
              </a>{' '}
              <small>(needs the REVIEWER role; recorded in the audit log; it holds account numbers)</small>
            </p>
            {file.payments && <PaymentsTable payments={file.payments} />}
            {file.outcomes && <OutcomesTable outcomes={file.outcomes} />}
            {file.exceptions && (
              <section aria-labelledby="file-exceptions-heading">
                <h2 id="file-exceptions-heading">Exceptions it raised</h2>
                <ExceptionsTable rows={file.exceptions} />
              </section>
            )}
          </>
        )}
      </LoadedView>
    </>
  );
}

function PaymentsTable({ payments }: { payments: RailPaymentView[] }) {
  return (
    <section aria-labelledby="payments-heading">
      <h2 id="payments-heading">Payments in the file</h2>
      <DataTable
        rows={payments}
        label="Payments in the file (table)"
        empty="None."
        rowKey={(p) => p.paymentId}
        columns={[
          { label: 'Payment', cell: (p) => <Id value={p.paymentId} /> },
          { label: 'Kind', field: 'kind' },
          { label: 'Rail', field: 'paymentRail' },
          { label: 'Reference', cell: (p) => <code>{p.railReference}</code> },
          { label: 'Amount', cell: (p) => <Amount value={{ amount: p.amount, currency: p.currency }} /> },
          { label: 'Status', cell: (p) => <Status value={p.status} /> },
          { label: 'Account', cell: (p) => <Id value={p.externalAccountId} /> },
          { label: 'Platform', cell: (p) => <Id value={p.platformId} /> },
          { label: 'Settles', cell: (p) => <Time iso={p.settlesAt} /> },
        ]}
      />
    </section>
  );
}

function OutcomesTable({ outcomes }: { outcomes: RailOutcomeView[] }) {
  return (
    <section aria-labelledby="outcomes-heading">
      <h2 id="outcomes-heading">Outcomes it recorded</h2>
      <DataTable
        rows={outcomes}
        label="Outcomes it recorded (table)"
        empty="None."
        rowKey={(o) => `${o.paymentId}-${o.kind}`}
        columns={[
          { label: 'Payment', cell: (o) => <Id value={o.paymentId} /> },
          { label: 'Outcome', cell: (o) => <Status value={o.kind} /> },
          { label: 'Rail code', cell: (o) => o.railCode ?? '—' },
          { label: 'Failure reason', cell: (o) => o.failureReason ?? '—' },
          { label: 'Recorded', cell: (o) => <Time iso={o.recordedAt} /> },
          { label: 'Applied', cell: (o) => (o.appliedAt ? <Time iso={o.appliedAt} /> : 'waiting') },
        ]}
      />
    </section>
  );
}

function ExceptionsTable({ rows }: { rows: RailExceptionView[] }) {
  return (
    <DataTable
      rows={rows}
      label="Exceptions it raised (table)"
      empty="None."
      columns={[
        { label: 'Raised', cell: (e) => <Time iso={e.createdAt} /> },
        { label: 'Kind', field: 'kind' },
        { label: 'Message', field: 'message' },
        { label: 'Status', cell: (e) => <Status value={e.status} /> },
        { label: 'Payment', cell: (e) => <Id value={e.paymentId} /> },
        { label: 'Detail', cell: (e) => <Value name="detail" value={e.detail} /> },
      ]}
    />
  );
}

/** What an operator must look at: entries matching no payment, notifications of change, returns not reversible… */
export function RailExceptionsPage() {
  const role = useOperatorRole();
  const [selected, setSelected] = useState<RailExceptionView>();
  const [round, setRound] = useState(0);
  return (
    <>
      <h1>Rail exceptions</h1>
      <p>
        Oldest first. Resolving changes no payment and no balance: do what the exception calls for first (a ledger adjustment, a call to the bank),
        then say what was done. <Link href="/rails">Rail files</Link>
      </p>
      {selected && (
        <section aria-labelledby="resolve-heading">
          <h2 id="resolve-heading">Resolve {selected.kind}</h2>
          <KeyValues data={{ id: selected.id, connectorId: selected.connectorId, fileId: selected.fileId, paymentId: selected.paymentId, message: selected.message, detail: selected.detail }} />
          <RoleGate role={role} needed="REVIEWER" what="Resolving an exception">
            <ActionForm
              key={selected.id}
              submitLabel="Resolve"
              fields={[{ name: 'resolution', label: 'What was done about it', type: 'textarea', required: true }]}
              onSubmit={async (v) => {
                const answer = await call<RailExceptionView>('POST', `/rails/exceptions/${seg(selected.id)}/resolve`, { body: { resolution: v.resolution } });
                setRound((n) => n + 1);
                return answer;
              }}
              done={(r) => `Resolved ${(r as RailExceptionView).id}.`}
            />
          </RoleGate>
          <button type="button" className="secondary" onClick={() => setSelected(undefined)}>
            Close
          </button>
        </section>
      )}
      <ListView<RailExceptionView>
        key={round}
        path="/rails/exceptions"
        noun="exceptions"
        filters={[
          { name: 'status', label: 'Status', options: RAIL_EXCEPTION_STATUSES },
          { name: 'connectorId', label: 'Connector', placeholder: 'connector id' },
          { name: 'kind', label: 'Kind', options: RAIL_EXCEPTION_KINDS },
        ]}
        columns={[
          { label: 'Raised', field: 'createdAt' },
          { label: 'Kind', field: 'kind' },
          { label: 'Message', field: 'message' },
          { label: 'Connector', field: 'connectorId' },
          { label: 'File', cell: (e) => fileLink(e.fileId) },
          { label: 'Payment', cell: (e) => <Id value={e.paymentId} /> },
          { label: 'Status', field: 'status' },
          {
            label: 'Resolution',
            cell: (e) =>
              e.status === 'OPEN' ? (
                <button type="button" className="secondary outline" onClick={() => setSelected(e)} aria-label={`Resolve ${e.id}`}>
                  Resolve
                </button>
              ) : (
                <span>
                  {e.resolution} <small>({e.resolvedBy}, <Time iso={e.resolvedAt} />)</small>
                </span>
              ),
          },
        ]}
      />
    </>
  );
}
