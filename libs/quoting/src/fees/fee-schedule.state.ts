import { assertNever } from '@payments/eventsourcing';
import type { FeeScheduleEvent, FeeScheduleOperatorRef, FeeScheduleValues } from './fee-schedule.events';

/** NONE before the first set; REMOVED keeps the values it had, for the history and a later set of the same scope. */
export type FeeScheduleState =
  | { status: 'NONE'; version: 0 }
  | (FeeScheduleValues & { status: 'ACTIVE' | 'REMOVED'; scheduleId: string; version: number; updatedAt: string; updatedBy: FeeScheduleOperatorRef; reason: string | null });

export type KnownFeeSchedule = Exclude<FeeScheduleState, { status: 'NONE' }>;

export function evolveFeeSchedule(state: FeeScheduleState, event: FeeScheduleEvent): FeeScheduleState {
  switch (event.type) {
    case 'FeeScheduleSet.v1': {
      const { scheduleId, version, operator, reason, at, ...values } = event.data;
      return { status: 'ACTIVE', ...(values as FeeScheduleValues), scheduleId, version, updatedAt: at, updatedBy: operator, reason };
    }
    case 'FeeScheduleRemoved.v1':
      if (state.status === 'NONE') return state;
      return { ...state, status: 'REMOVED', version: event.data.version, updatedAt: event.data.at, updatedBy: event.data.operator, reason: event.data.reason };
    default:
      return assertNever(event);
  }
}
