import type { EntityManager } from 'typeorm';
import type { Projection } from '@payments/eventsourcing';
import type { FeeScheduleEvent } from './fee-schedule.events';
import type { FeeScheduleState } from './fee-schedule.state';

/** `fee_schedules`: the schedule in force (gone once removed); `fee_schedule_versions`: every change, appended. */
export const projectFeeSchedule: Projection<EntityManager, FeeScheduleState, FeeScheduleEvent> = async (tx, events, state) => {
  if (state.status === 'NONE' || events.length === 0) return;
  for (const event of events) {
    const change = event.type === 'FeeScheduleSet.v1' ? 'SET' : 'REMOVED';
    // One command appends one event: the state after it holds the values of that version (a removal keeps the last).
    await tx.query(
      `INSERT INTO fee_schedule_versions (schedule_id, version, kind, platform_id, change, scope, fees, changed_by, reason, changed_at)
       VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7::jsonb, $8::jsonb, $9, $10)`,
      [state.scheduleId, event.data.version, state.scope.kind, state.scope.platformId, change, JSON.stringify(state.scope), JSON.stringify(state.fees), JSON.stringify(event.data.operator), event.data.reason, event.data.at],
    );
  }
  if (state.status === 'REMOVED') {
    await tx.query(`DELETE FROM fee_schedules WHERE schedule_id = $1`, [state.scheduleId]);
    return;
  }
  await tx.query(
    `INSERT INTO fee_schedules (schedule_id, kind, platform_id, scope, fees, version, updated_at, updated_by)
     VALUES ($1, $2, $3, $4::jsonb, $5::jsonb, $6, $7, $8::jsonb)
     ON CONFLICT (schedule_id) DO UPDATE SET scope = EXCLUDED.scope, fees = EXCLUDED.fees, version = EXCLUDED.version, updated_at = EXCLUDED.updated_at, updated_by = EXCLUDED.updated_by`,
    [state.scheduleId, state.scope.kind, state.scope.platformId, JSON.stringify(state.scope), JSON.stringify(state.fees), state.version, state.updatedAt, JSON.stringify(state.updatedBy)],
  );
};
