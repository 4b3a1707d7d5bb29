import type { DataSource } from 'typeorm';
import { ACCOUNTS_EVENTS, AuditEvent, decodeAny, IDENTITY_EVENTS, isOneOf, ListAuditEventsQuery, OperatorActionRecordedData, Page, PAYMENTS_EVENTS, QUOTING_EVENTS } from '@payments/contracts';
import type { EventEnvelope } from '@payments/eventsourcing';
import type { DeliveryContext, EventBus, SubscriptionHandle } from '@payments/messaging';
import { serviceTopic } from '@payments/messaging';
import { keysetBodyPage, SqlWhere } from '@payments/runtime';

export const AUDIT_LOG_CONSUMER = 'identity.audit-log';

/** The services an operator acts through: each records its operators' actions in its own log and topic. */
const AUDITED_SERVICES = ['identity', 'accounts', 'quoting', 'payments'] as const;
const CATALOGUES = [IDENTITY_EVENTS, ACCOUNTS_EVENTS, QUOTING_EVENTS, PAYMENTS_EVENTS] as const;

/**
 * The audit log of the operator API: every `OperatorActionRecorded.v1` of every audited service's topic, kept in
 * identity's `audit_events`. The action id is the key, so a redelivered event (at-least-once) is one row; nothing
 * here can be edited or deleted through any API.
 */
export class AuditLog {
  constructor(private readonly dataSource: DataSource) {}

  subscribe(bus: Pick<EventBus, 'subscribe'>): Promise<SubscriptionHandle> {
    return bus.subscribe({ group: AUDIT_LOG_CONSUMER, topics: AUDITED_SERVICES.map((s) => serviceTopic(s)), handler: (e, context) => this.handle(e, context) });
  }

  async handle(envelope: EventEnvelope, context: Pick<DeliveryContext, 'topic'>): Promise<void> {
    const event = decodeAny(CATALOGUES, envelope);
    if (!isOneOf(event, 'OperatorActionRecorded.v1')) return;
    const service = AUDITED_SERVICES.find((s) => serviceTopic(s) === context.topic) ?? context.topic;
    await this.record(service, event.data);
  }

  private async record(service: string, d: OperatorActionRecordedData): Promise<void> {
    const body: AuditEvent = {
      id: d.actionId,
      service,
      operator: { id: d.operatorId, name: d.operatorName, role: d.operatorRole },
      action: d.action,
      target: { type: d.targetType, id: d.targetId },
      ...(d.platformId ? { platformId: d.platformId } : {}),
      ...(d.reason ? { reason: d.reason } : {}),
      ...(d.details ? { details: d.details } : {}),
      occurredAt: d.occurredAt,
    };
    await this.dataSource.query(
      `INSERT INTO audit_events (action_id, service, operator_id, action, target_type, target_id, platform_id, occurred_at, body)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::jsonb) ON CONFLICT (action_id) DO NOTHING`,
      [d.actionId, service, d.operatorId, d.action, d.targetType, d.targetId, d.platformId ?? null, d.occurredAt, JSON.stringify(body)],
    );
  }

  /** Newest first; `action` may name a family (`kyc.*`). */
  list(query: ListAuditEventsQuery): Promise<Page<AuditEvent>> {
    const family = query.action?.endsWith('.*') ? `${query.action.slice(0, -1).replace(/[\\%_]/g, (c) => `\\${c}`)}%` : undefined;
    const where = new SqlWhere()
      .add('operator_id = ?', query.operatorId)
      .add(family ? 'action LIKE ?' : 'action = ?', family ?? query.action)
      .add('target_type = ?', query.targetType)
      .add('target_id = ?', query.targetId)
      .add('platform_id = ?', query.platformId)
      .add('occurred_at > ?', query.occurredAfter)
      .add('occurred_at < ?', query.occurredBefore);
    return keysetBodyPage<AuditEvent>({ db: this.dataSource, table: 'audit_events', keyColumn: 'action_id', where, limit: query.limit, cursor: query.cursor });
  }
}
