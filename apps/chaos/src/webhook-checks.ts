import { webhookFor } from '@payments/webhooks';
import { CheckContext, RELAYED_SERVICES, Violation } from './checks';

/** Webhook types naming a status a resource reaches once (a payment, an action, a stablecoin operation): announced once. */
const ONCE_PER_RESOURCE = /^(OUTGOING_PAYMENT|INCOMING_PAYMENT|AGENT_ACTION|STABLECOIN_OPERATION)\./;

/**
 * Every status change announced once and delivered: each public event the webhook catalogue maps to a webhook
 * (`webhookFor`, for events after the platform's endpoint was set, in that mode) has its delivery; a sandbox
 * delivery is DELIVERED and reached the receiver (a production one is queued: its endpoint refuses connections);
 * nothing was dead-lettered; a resource's status is announced by one webhook id only.
 */
export async function checkWebhooks(ctx: CheckContext): Promise<Violation[]> {
  const { db } = ctx;
  const violations: Violation[] = [];
  const fail = (message: string) => violations.push({ check: 'webhooks', message });
  const received = new Set(ctx.receiver.received.map((w) => w.webhookId));
  const { rows: deliveries } = await db.query<{ webhook_id: string; event_id: string | null; mode: string; type: string; status: string; resource_id: string | null; retryable: boolean; last_error: string | null }>(
    `SELECT webhook_id, event_id, mode, type, status, resource_id, retryable, last_error FROM webhooks.deliveries`,
  );
  const byEvent = new Map(deliveries.filter((d) => d.event_id).map((d) => [d.event_id!, d]));
  // From when each platform and mode has an endpoint: its TEST webhook was queued then.
  const { rows: endpoints } = await db.query<{ platform_id: string; mode: string; since: Date }>(`SELECT platform_id, mode, min(created_at) AS since FROM webhooks.deliveries WHERE type = 'TEST' GROUP BY 1, 2`);
  const since = new Map(endpoints.map((e) => [`${e.platform_id} ${e.mode}`, e.since.getTime()]));

  let expected = 0;
  for (const service of RELAYED_SERVICES) {
    const { rows } = await db.query<{ event_id: string; type: string; stream_id: string; stream_version: number; global_position: string; platform_id: string | null; data: any; metadata: any; created_at: Date }>(
      `SELECT event_id::text, type, stream_id, stream_version, global_position::text, platform_id, data, metadata, created_at FROM ${service}.events ORDER BY global_position`,
    );
    const missing: string[] = [];
    for (const e of rows) {
      const mapped = webhookFor({ eventId: e.event_id, type: e.type, streamId: e.stream_id, streamVersion: e.stream_version, globalPosition: e.global_position, occurredAt: e.created_at.toISOString(), platformId: e.platform_id, data: e.data, metadata: e.metadata });
      if (!mapped || !e.platform_id || !mapped.mode) continue;
      const from = since.get(`${e.platform_id} ${mapped.mode}`);
      if (from === undefined || e.created_at.getTime() <= from) continue;
      expected++;
      if (!byEvent.has(e.event_id)) missing.push(`${mapped.type} of ${e.stream_id} (event ${e.event_id})`);
    }
    if (missing.length > 0) fail(`${service}: ${missing.length} status changes have no webhook: ${missing.slice(0, 10).join(', ')}${missing.length > 10 ? ', …' : ''}`);
  }
  if (expected === 0) fail('no event of the run maps to a webhook: nothing was checked');

  for (const d of deliveries) {
    if (d.status === 'DEAD_LETTER') fail(`${d.type} ${d.webhook_id} (${d.mode}) is dead-lettered`);
    else if (d.mode === 'PRODUCTION') continue;
    // A TEST gets one attempt, never retried: when the receiver's answer came after the attempt's timeout (a loaded
    // machine, seeds side by side) it is FAILED though delivered. That is the documented outcome, not a loss.
    else if (d.status === 'FAILED' && !d.retryable && received.has(d.webhook_id)) continue;
    else if (d.status !== 'DELIVERED') fail(`${d.type} ${d.webhook_id} of ${d.resource_id} is ${d.status}, not DELIVERED${d.last_error ? ` (${d.last_error})` : ''}`);
    else if (!received.has(d.webhook_id)) fail(`${d.type} ${d.webhook_id} of ${d.resource_id} is DELIVERED but never reached the receiver`);
  }
  const twice = new Map<string, string[]>();
  for (const d of deliveries) {
    if (!d.resource_id || !ONCE_PER_RESOURCE.test(d.type)) continue;
    const key = `${d.type} of ${d.resource_id}`;
    twice.set(key, [...(twice.get(key) ?? []), d.webhook_id]);
  }
  for (const [what, ids] of twice) if (ids.length > 1) fail(`${what} announced ${ids.length} times: ${ids.join(', ')}`);
  return violations;
}
