import { given } from '@payments/eventsourcing';
import { feeScheduleDecider, SetFeeSchedule } from './fee-schedule.decider';
import type { FeeScheduleEvent } from './fee-schedule.events';

const operator = { id: 'Operator:1', name: 'Ada' };
const scope = { kind: 'SERVICE' as const, platformId: 'Platform:1', sourceCurrency: 'USD', destinationCurrency: 'EUR' };
const set: SetFeeSchedule = {
  type: 'SetFeeSchedule', scheduleId: 'ServiceFeeSchedule:Platform:1:USD-EUR', scope, fees: { variableFeeBps: 30, fixedFees: [{ currency: 'USD', amount: 10 }] }, operator, reason: 'contract', now: '2026-01-01T00:00:00.000Z',
};
const setEvent = (version: number, fees = set.fees, at = set.now): FeeScheduleEvent => ({
  type: 'FeeScheduleSet.v1',
  data: { scope, fees, scheduleId: set.scheduleId, version, operator, reason: 'contract', at } as Extract<FeeScheduleEvent, { type: 'FeeScheduleSet.v1' }>['data'],
});
const removed = (version: number): FeeScheduleEvent => ({ type: 'FeeScheduleRemoved.v1', data: { scheduleId: set.scheduleId, version, operator, reason: null, at: '2026-01-02T00:00:00.000Z' } });

describe('fee schedule decider', () => {
  it('sets a schedule at version 1 and each change at the next version', () => {
    given(feeScheduleDecider).when(set).then([setEvent(1)]);
    const cheaper = { variableFeeBps: 20, fixedFees: [{ currency: 'USD', amount: 10 }] };
    given(feeScheduleDecider, [setEvent(1)]).when({ ...set, fees: cheaper }).then([setEvent(2, cheaper)]);
  });

  it('decides nothing for the same values again (no new version, nothing to audit), whatever their key order', () => {
    given(feeScheduleDecider, [setEvent(1)]).when(set).then([]);
    const reordered = { ...set, scope: { destinationCurrency: 'EUR', sourceCurrency: 'USD', platformId: 'Platform:1', kind: 'SERVICE' as const }, fees: { fixedFees: [{ amount: 10, currency: 'USD' }], variableFeeBps: 30 } };
    given(feeScheduleDecider, [setEvent(1)]).when(reordered).then([]);
  });

  it('removes a schedule in force once; a removed or unknown one is NOT_FOUND; setting it again continues its versions', () => {
    const remove = { type: 'RemoveFeeSchedule' as const, scheduleId: set.scheduleId, operator, reason: null, now: '2026-01-02T00:00:00.000Z' };
    given(feeScheduleDecider, [setEvent(1)]).when(remove).then([removed(2)]);
    given(feeScheduleDecider, [setEvent(1), removed(2)]).when(remove).thenFails('NOT_FOUND');
    given(feeScheduleDecider).when(remove).thenFails('NOT_FOUND');
    given(feeScheduleDecider, [setEvent(1), removed(2)]).when(set).then([setEvent(3)]);
  });

  it('never prices another scope on the same stream', () => {
    given(feeScheduleDecider, [setEvent(1)]).when({ ...set, scope: { ...scope, destinationCurrency: 'MXN' } }).thenFails('CONFLICT');
  });
});
