import { Link } from 'wouter';
import { api, Page } from '../../api/client';
import { ActionForm } from '../../components/action-form';
import { Column, DataTable } from '../../components/data-table';
import { Id, KeyValues, Status, Time } from '../../components/format';
import { ListView } from '../../components/list-view';
import { useApi } from '../../components/use-api';
import { LoadedView } from '../../components/loaded-view';
import { useSessionMode } from '../../components/session-context';
import { useRouteParam } from '../../components/route-param';
import { DELIVERY_STATUSES } from '../../lib/values';
import type { WebhookDelivery } from '@payments/contracts';
export type { WebhookDelivery };

interface Attempt {
  attempt: number;
  url?: string | null;
  responseStatus?: number | null;
  latencyMs: number;
  error?: string | null;
  at: string;
}

/**
 * A delivery's columns, as the list of deliveries and a transaction's "Webhooks about it" show them; `about` adds the
 * resource it is about (a transaction's own table leaves it out: it is that transaction).
 */
function deliveryColumns({ about }: { about: boolean }): Column<WebhookDelivery>[] {
  return [
    { label: 'Webhook', cell: (d) => <Id value={d.webhookId} to={`/webhooks/${encodeURIComponent(d.webhookId)}`} /> },
    { label: 'Type', field: 'type' },
    { label: 'Status', cell: (d) => <Status value={d.status} /> },
    { label: 'Attempts', field: 'attempts' },
    { label: 'Last answer', cell: (d) => (d.lastStatus ? `HTTP ${d.lastStatus}` : (d.lastError ?? '—')) },
    ...(about ? [{ label: 'About', cell: (d: WebhookDelivery) => d.resourceId ?? '—' }] : []),
    { label: 'Queued', cell: (d) => <Time iso={d.createdAt} /> },
  ];
}

export function DeliveriesTable({ deliveries }: { deliveries: WebhookDelivery[] }) {
  return (
    <DataTable
      rows={deliveries}
      label="Webhook deliveries"
      empty="No webhooks."
      rowKey={(d) => d.webhookId}
      columns={deliveryColumns({ about: false })}
    />
  );
}

interface Config {
  webhookEndpoint?: string | null;
  webhookEndpointStatus?: string;
  webhookPublicKey?: string;
  webhookSecret?: string;
  [key: string]: unknown;
}

export function WebhooksPage() {
  const config = useApi<Config>('/config');
  const mode = useSessionMode();
  return (
    <>
      <h1>Webhooks</h1>
      <section aria-labelledby="endpoint">
        <h2 id="endpoint">Endpoint</h2>
        <LoadedView loaded={config} what="the configuration">
          {(data) => (
            <>
              {data.webhookEndpointStatus === 'DISABLED' && (
                <p role="alert" className="problem">
                  The endpoint answered 410 Gone and is disabled: nothing is sent to it until it is saved again below. Then redeliver what was dead-lettered.
                </p>
              )}
              <p>
                Webhooks are sent to: <code>{data.webhookEndpoint ?? 'no endpoint set'}</code>
                {data.webhookEndpointStatus ? <> ({data.webhookEndpointStatus})</> : null}. Each is signed (<code>X-Service-Signature</code>); see the
                API reference's Webhooks section for how to verify it.
              </p>
              <ActionForm
                submitLabel="Save endpoint"
                fields={[{ name: 'webhookEndpoint', label: 'Webhook endpoint URL', type: 'url', defaultValue: data.webhookEndpoint ?? '', hint: 'Leave empty to remove it.' }]}
                onSubmit={async (v) => {
                  const updated = await api.patch<Config>('/config', { webhookEndpoint: v.webhookEndpoint ?? null });
                  config.reload();
                  return updated;
                }}
                done={() => <p>Saved.</p>}
              />
              <h3>Signing keys</h3>
              <p>
                Verify <code>X-Service-Signature</code> (ECDSA P-256 over the raw body) with this public key:
              </p>
              <pre className="json" data-testid="webhook-public-key">{data.webhookPublicKey ?? 'not available to this credential'}</pre>
              {data.webhookSecret && (
                <details>
                  <summary>Standard Webhooks secret (for the webhook-signature header; treat it as a password)</summary>
                  <pre className="json">{data.webhookSecret}</pre>
                </details>
              )}
              {mode === 'SANDBOX' && (
                <ActionForm
                  submitLabel="Send a test webhook"
                  fields={[]}
                  onSubmit={() => api.post<{ response_status?: number }>('/sandbox/webhooks/test')}
                  done={(r) => <p>The endpoint answered HTTP {(r as { response_status?: number }).response_status ?? '?'}.</p>}
                />
              )}
            </>
          )}
        </LoadedView>
      </section>
      <section aria-labelledby="deliveries">
        <h2 id="deliveries">Deliveries</h2>
        <ListView<WebhookDelivery>
          path="/webhook-deliveries"
          noun="webhooks"
          rowKey={(d) => d.webhookId}
          filters={[
            { name: 'status', label: 'Status', options: DELIVERY_STATUSES },
            { name: 'type', label: 'Type', placeholder: 'OUTGOING_PAYMENT.COMPLETED' },
            { name: 'resourceId', label: 'About (resource id)' },
          ]}
          columns={deliveryColumns({ about: true })}
        />
        <h3>Dead letters</h3>
        <p>Webhooks given up on after their retry window. Fix the endpoint, then send them again.</p>
        <ActionForm
          submitLabel="Redeliver all dead letters"
          confirm="Send every dead-lettered webhook of this mode again?"
          fields={[]}
          onSubmit={() => api.post<{ requeued: string[] }>('/webhook-deliveries/redeliver-dead-letters')}
          done={(r) => <p>{(r as { requeued: string[] }).requeued.length} webhooks queued again.</p>}
        />
      </section>
    </>
  );
}

export function WebhookDeliveryPage() {
  const id = useRouteParam('webhookId');
  const delivery = useApi<WebhookDelivery & { payload?: unknown; attempts_?: never; attemptList?: never } & { attempts: number | Attempt[] } & Record<string, unknown>>(
    `/webhook-deliveries/${encodeURIComponent(id)}`,
  );
  const d = delivery.data;
  const attempts = (d && Array.isArray(d.attempts) ? d.attempts : ((d?.attemptDetails as Attempt[] | undefined) ?? [])) as Attempt[];
  return (
    <>
      <h1>Webhook</h1>
      <p>
        <Id value={id} /> · <Link href="/webhooks">all webhooks</Link>
      </p>
      <LoadedView loaded={delivery} what="the webhook">
        {(d) => (
          <>
            <KeyValues data={d} omit={['payload', 'attempts', 'attemptDetails']} />
            <ActionForm
              submitLabel="Redeliver"
              fields={[]}
              onSubmit={async () => {
                const result = await api.post(`/webhook-deliveries/${encodeURIComponent(id)}/redeliver`);
                setTimeout(delivery.reload, 1_500);
                return result;
              }}
              done={() => <p>Queued again; the dispatcher sends it within seconds.</p>}
            />
            <button type="button" className="secondary" onClick={delivery.reload} aria-busy={delivery.loading}>
              Refresh
            </button>
            <h2>Attempts</h2>
            <DataTable
              rows={attempts}
              label="Webhook deliveries"
              empty="Not attempted yet."
              rowKey={(a) => String(a.attempt)}
              columns={[
                { label: '#', cell: (a) => a.attempt },
                { label: 'At', cell: (a) => <Time iso={a.at} /> },
                { label: 'URL', cell: (a) => a.url ?? '—' },
                { label: 'Answer', cell: (a) => (a.responseStatus ? `HTTP ${a.responseStatus}` : '—') },
                { label: 'Latency', cell: (a) => `${a.latencyMs} ms` },
                { label: 'Error', cell: (a) => a.error ?? '—' },
              ]}
            />
            <h2>Request body</h2>
            <p>What was (or will be) sent, signed, to the endpoint. What the endpoint answered is not kept beyond its status.</p>
            <pre className="json">{JSON.stringify(d.payload, null, 2)}</pre>
          </>
        )}
      </LoadedView>
    </>
  );
}

export type { Page };
