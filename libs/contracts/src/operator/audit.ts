import type { OperatorPrincipal } from './operator';

/**
 * What an operator did, recorded in the same transaction as its effect (`CommandRequest.audit`,
 * libs/eventsourcing) as an `OperatorActionRecorded` event of the service that did it; identity gathers them from
 * every topic into the audit log (`GET /operator/v1/audit-events`).
 */
export interface OperatorActionInput {
  /** A fresh uuid: the audit event's stream is `OperatorAction:<actionId>`. */
  actionId: string;
  operator: OperatorPrincipal;
  /** Dotted verb, e.g. `kyc.approve`, `external-account.reject`, `rates.set`, `fees.set`. */
  action: string;
  /** What it acted on, e.g. `{ type: 'Verification', id: 'Verification:…' }`. */
  target: { type: string; id: string };
  /** The platform the target belongs to; absent for deployment-wide settings (rates). */
  platformId?: string;
  /** The operator's stated reason, when the operation takes one. */
  reason?: string;
  /** What changed, small and free of secrets (the new rate, the fee, the requested changes). */
  details?: Record<string, unknown>;
  /** ISO 8601, from the service's clock. */
  occurredAt: string;
}

/** The public data of `OperatorActionRecorded.v1` (every service's topic that has operator actions). */
export interface OperatorActionRecordedData {
  actionId: string;
  operatorId: string;
  operatorName: string;
  operatorRole: string;
  action: string;
  targetType: string;
  targetId: string;
  platformId?: string;
  reason?: string;
  details?: Record<string, unknown>;
  occurredAt: string;
}

export function operatorActionData(input: OperatorActionInput): OperatorActionRecordedData {
  return {
    actionId: input.actionId,
    operatorId: input.operator.operatorId,
    operatorName: input.operator.name,
    operatorRole: input.operator.role,
    action: input.action,
    targetType: input.target.type,
    targetId: input.target.id,
    ...(input.platformId ? { platformId: input.platformId } : {}),
    ...(input.reason ? { reason: input.reason } : {}),
    ...(input.details ? { details: input.details } : {}),
    occurredAt: input.occurredAt,
  };
}

/** One entry of the audit log as the operator API shows it. */
export interface AuditEvent {
  id: string;
  /** The service whose log recorded it. */
  service: string;
  operator: { id: string; name: string; role: string };
  action: string;
  target: { type: string; id: string };
  platformId?: string;
  reason?: string;
  details?: Record<string, unknown>;
  occurredAt: string;
}

/** The stream `CommandRequest.also` appends for an operator's action: recorded with its effect, once. */
export function operatorActionStream(input: OperatorActionInput): { streamId: string; events: { type: 'OperatorActionRecorded.v1'; data: OperatorActionRecordedData }[] } {
  return { streamId: `OperatorAction:${input.actionId}`, events: [{ type: 'OperatorActionRecorded.v1', data: operatorActionData(input) }] };
}
