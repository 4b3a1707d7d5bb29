import type { Catalogued, CryptoNetwork, QUOTING_EVENTS } from '@payments/contracts';

/**
 * The operator's fee schedules (stream `<Service|Network>FeeSchedule:<scope>`, one per scope, on the quoting topic,
 * internal): each change is an event, so the stream is the schedule's history and its version counts the changes.
 */

/** The service fee of a platform (or the deployment: null) on one corridor (or every corridor: both null). */
export interface ServiceFeeScope {
  kind: 'SERVICE';
  platformId: string | null;
  sourceCurrency: string | null;
  destinationCurrency: string | null;
}

/** The fees of crypto withdrawals of a currency on a network, for a platform (or the deployment: null). */
export interface NetworkFeeScope {
  kind: 'NETWORK';
  platformId: string | null;
  currency: string;
  cryptoNetwork: CryptoNetwork;
}

export interface ServiceFeeValues {
  variableFeeBps: number;
  /** Per sending currency, smallest unit; sorted by currency so equal schedules compare equal. */
  fixedFees: { currency: string; amount: number }[];
}

export interface NetworkFeeValues {
  /** The chain's fee in the smallest unit of the withdrawn currency. */
  networkFee: number;
  networkFeeAsset: string;
  applicationFeeBps: number;
}

export type FeeScheduleValues = { scope: ServiceFeeScope; fees: ServiceFeeValues } | { scope: NetworkFeeScope; fees: NetworkFeeValues };

export interface FeeScheduleOperatorRef {
  id: string;
  name: string;
}

export type FeeScheduleSet = {
  type: 'FeeScheduleSet.v1';
  data: FeeScheduleValues & { scheduleId: string; version: number; operator: FeeScheduleOperatorRef; reason: string | null; at: string };
};

export type FeeScheduleRemoved = {
  type: 'FeeScheduleRemoved.v1';
  data: { scheduleId: string; version: number; operator: FeeScheduleOperatorRef; reason: string | null; at: string };
};

export type FeeScheduleEvent = FeeScheduleSet | FeeScheduleRemoved;

/** Every event of the stream is declared (internal) in the quoting catalogue. */
const _declared: Catalogued<typeof QUOTING_EVENTS, FeeScheduleEvent> = true;
