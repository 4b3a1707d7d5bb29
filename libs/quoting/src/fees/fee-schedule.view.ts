import type { NetworkFeeSchedule, NetworkFeeScheduleVersion, ServiceFeeSchedule, ServiceFeeScheduleVersion } from '@payments/contracts';
import type { FeeScheduleOperatorRef, NetworkFeeScope, NetworkFeeValues, ServiceFeeScope, ServiceFeeValues } from './fee-schedule.events';

/** A row of `fee_schedules`. */
export interface FeeScheduleRow {
  schedule_id: string;
  kind: 'SERVICE' | 'NETWORK';
  platform_id: string | null;
  scope: ServiceFeeScope | NetworkFeeScope;
  fees: ServiceFeeValues | NetworkFeeValues;
  version: number;
  updated_at: Date;
  updated_by: FeeScheduleOperatorRef;
}

/** A row of `fee_schedule_versions`. */
export interface FeeScheduleVersionRow {
  position: string;
  schedule_id: string;
  version: number;
  kind: 'SERVICE' | 'NETWORK';
  platform_id: string | null;
  change: 'SET' | 'REMOVED';
  scope: ServiceFeeScope | NetworkFeeScope;
  fees: ServiceFeeValues | NetworkFeeValues;
  changed_by: FeeScheduleOperatorRef;
  reason: string | null;
  changed_at: Date;
}

interface Common {
  id: string;
  version: number;
  scope: ServiceFeeScope | NetworkFeeScope;
  fees: ServiceFeeValues | NetworkFeeValues;
  at: Date | string;
  by: FeeScheduleOperatorRef;
}

const iso = (at: Date | string) => (at instanceof Date ? at : new Date(at)).toISOString();
const operator = (by: FeeScheduleOperatorRef) => ({ id: by.id, name: by.name });

function service(c: Common): ServiceFeeSchedule {
  const scope = c.scope as ServiceFeeScope;
  const fees = c.fees as ServiceFeeValues;
  return {
    id: c.id,
    platformId: scope.platformId,
    sourceCurrency: scope.sourceCurrency,
    destinationCurrency: scope.destinationCurrency,
    variableFeeBps: fees.variableFeeBps,
    fixedFees: fees.fixedFees.map((f) => ({ amount: f.amount, currency: f.currency })),
    version: c.version,
    updatedAt: iso(c.at),
    updatedBy: operator(c.by),
  };
}

function network(c: Common): NetworkFeeSchedule {
  const scope = c.scope as NetworkFeeScope;
  const fees = c.fees as NetworkFeeValues;
  return {
    id: c.id,
    platformId: scope.platformId,
    currency: scope.currency,
    cryptoNetwork: scope.cryptoNetwork,
    networkFee: fees.networkFee,
    networkFeeAsset: fees.networkFeeAsset,
    applicationFeeBps: fees.applicationFeeBps,
    version: c.version,
    updatedAt: iso(c.at),
    updatedBy: operator(c.by),
  };
}

const current = (row: FeeScheduleRow): Common => ({ id: row.schedule_id, version: row.version, scope: row.scope, fees: row.fees, at: row.updated_at, by: row.updated_by });
const past = (row: FeeScheduleVersionRow): Common => ({ id: row.schedule_id, version: row.version, scope: row.scope, fees: row.fees, at: row.changed_at, by: row.changed_by });

export const toServiceFeeSchedule = (row: FeeScheduleRow): ServiceFeeSchedule => service(current(row));
export const toNetworkFeeSchedule = (row: FeeScheduleRow): NetworkFeeSchedule => network(current(row));
export const toServiceFeeScheduleVersion = (row: FeeScheduleVersionRow): ServiceFeeScheduleVersion => ({ ...service(past(row)), change: row.change, reason: row.reason });
export const toNetworkFeeScheduleVersion = (row: FeeScheduleVersionRow): NetworkFeeScheduleVersion => ({ ...network(past(row)), change: row.change, reason: row.reason });
