import type { FeeScheduleRef, ServiceFees } from '../rates/fee-schedule';
import type { NetworkFeeScope, NetworkFeeValues, ServiceFeeScope, ServiceFeeValues } from './fee-schedule.events';

/** A schedule's id names its scope (one stream per scope): `ServiceFeeSchedule:<platformId|deployment>:<SRC-DST|default>`. */
export function serviceScheduleId(scope: Omit<ServiceFeeScope, 'kind'>): string {
  const corridor = scope.sourceCurrency && scope.destinationCurrency ? `${scope.sourceCurrency}-${scope.destinationCurrency}` : 'default';
  return `ServiceFeeSchedule:${scope.platformId ?? 'deployment'}:${corridor}`;
}

/** `NetworkFeeSchedule:<platformId|deployment>:<CURRENCY>:<NETWORK>`. */
export function networkScheduleId(scope: Omit<NetworkFeeScope, 'kind'>): string {
  return `NetworkFeeSchedule:${scope.platformId ?? 'deployment'}:${scope.currency}:${scope.cryptoNetwork}`;
}

/** A schedule in force, as resolution reads it. */
export interface ScheduleInForce<Scope, Fees> {
  scheduleId: string;
  version: number;
  scope: Scope;
  fees: Fees;
}

export type ServiceScheduleInForce = ScheduleInForce<ServiceFeeScope, ServiceFeeValues>;
export type NetworkScheduleInForce = ScheduleInForce<NetworkFeeScope, NetworkFeeValues>;

/** No schedule at all for a production corridor: no service fee (and the quote records no schedule). */
export const NO_SERVICE_FEES: ServiceFees = { variableFeeBps: 0, fixedFee: 0, schedule: null };

/**
 * The service fees of a production quote of `platformId` from `source` to `destination`: the first schedule in force
 * of the platform's corridor, the platform's default, the deployment's corridor, the deployment's default. A
 * platform's negotiated terms (its default) thus win over the deployment's corridor prices; a platform's corridor
 * wins over everything. The schedule applies whole: its fixed fee in the sending currency, none when it names none.
 */
export function resolveServiceFees(schedules: readonly ServiceScheduleInForce[], platformId: string, source: string, destination: string): ServiceFees {
  const order: Omit<ServiceFeeScope, 'kind'>[] = [
    { platformId, sourceCurrency: source, destinationCurrency: destination },
    { platformId, sourceCurrency: null, destinationCurrency: null },
    { platformId: null, sourceCurrency: source, destinationCurrency: destination },
    { platformId: null, sourceCurrency: null, destinationCurrency: null },
  ];
  for (const scope of order) {
    const id = serviceScheduleId(scope);
    const schedule = schedules.find((s) => s.scheduleId === id);
    if (schedule) {
      const fixed = schedule.fees.fixedFees.find((f) => f.currency === source)?.amount ?? 0;
      return { variableFeeBps: schedule.fees.variableFeeBps, fixedFee: fixed, schedule: ref(schedule) };
    }
  }
  return NO_SERVICE_FEES;
}

/** A crypto withdrawal's fees: the platform's entry for the currency and network, else the deployment's, else none. */
export function resolveNetworkFee(schedules: readonly NetworkScheduleInForce[], platformId: string, currency: string, network: string): (NetworkFeeValues & { schedule: FeeScheduleRef }) | undefined {
  for (const owner of [platformId, null]) {
    const schedule = schedules.find((s) => s.scope.platformId === owner && s.scope.currency === currency && s.scope.cryptoNetwork === network);
    if (schedule) return { ...schedule.fees, schedule: ref(schedule) };
  }
  return undefined;
}

const ref = (schedule: { scheduleId: string; version: number }): FeeScheduleRef => ({ id: schedule.scheduleId, version: schedule.version });
