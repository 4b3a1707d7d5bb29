import { canonicalJson } from '@payments/contracts';
import { assertNever, Decider, Decision, DomainError } from '@payments/eventsourcing';
import type { FeeScheduleEvent, FeeScheduleOperatorRef, FeeScheduleValues } from './fee-schedule.events';
import { evolveFeeSchedule, FeeScheduleState } from './fee-schedule.state';

/** Values checked by the service (currencies, networks, the platform): the decider keeps versions and history. */
export type SetFeeSchedule = FeeScheduleValues & { type: 'SetFeeSchedule'; scheduleId: string; operator: FeeScheduleOperatorRef; reason: string | null; now: string };
export type RemoveFeeSchedule = { type: 'RemoveFeeSchedule'; scheduleId: string; operator: FeeScheduleOperatorRef; reason: string | null; now: string };
export type FeeScheduleCommand = SetFeeSchedule | RemoveFeeSchedule;

/** Key order apart (events come back from jsonb with their keys reordered). */
const canonical = (values: FeeScheduleValues): string => canonicalJson([values.scope, values.fees]);

function decide(command: FeeScheduleCommand, state: FeeScheduleState): Decision<FeeScheduleEvent> {
  switch (command.type) {
    case 'SetFeeSchedule': {
      const { type: _type, now, scheduleId, operator, reason, ...values } = command;
      const next = values as FeeScheduleValues;
      // The id names the scope: a stream never changes what it prices.
      if (state.status !== 'NONE' && canonicalJson(state.scope) !== canonicalJson(next.scope)) return new DomainError('CONFLICT', `${scheduleId} prices another scope`);
      // The same values again are no change: no new version, nothing to audit.
      if (state.status === 'ACTIVE' && canonical(state) === canonical(next)) return [];
      return [{ type: 'FeeScheduleSet.v1', data: { ...next, scheduleId, version: state.version + 1, operator, reason, at: now } }];
    }
    case 'RemoveFeeSchedule':
      if (state.status !== 'ACTIVE') return new DomainError('NOT_FOUND', `no fee schedule ${command.scheduleId} is in force`);
      return [{ type: 'FeeScheduleRemoved.v1', data: { scheduleId: command.scheduleId, version: state.version + 1, operator: command.operator, reason: command.reason, at: command.now } }];
    default:
      return assertNever(command);
  }
}

export const feeScheduleDecider: Decider<FeeScheduleState, FeeScheduleCommand, FeeScheduleEvent> = {
  initialState: { status: 'NONE', version: 0 },
  decide,
  evolve: evolveFeeSchedule,
};
