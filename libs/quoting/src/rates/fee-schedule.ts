import type { FxFeeSchedule } from '@payments/money';
import { findCurrency } from '@payments/money';
import { USD_REFERENCE_RATES } from './sandbox-rates';

/** The sandbox's service (grid) variable fee: 0.5% of the total sending amount. Production's is configured. */
export const SERVICE_VARIABLE_FEE_BPS = 50;
/** The sandbox's service fixed fee, worth about this many US cents in the sending currency. */
export const SERVICE_FIXED_FEE_USD_CENTS = 25;

/** A fee schedule and the version of it that priced a quote (recorded on the quote). */
export interface FeeScheduleRef {
  id: string;
  version: number;
}

/** The service's fees on one quote and the schedule they come from (null: no schedule, no fee). */
export interface ServiceFees {
  variableFeeBps: number;
  /** Sending currency smallest unit. */
  fixedFee: number;
  schedule: FeeScheduleRef | null;
}

/** The sandbox's built-in schedule: the constants above, whatever an operator configured (that prices production). */
export const SANDBOX_FEE_SCHEDULE: FeeScheduleRef = { id: 'ServiceFeeSchedule:sandbox', version: 1 };

/** The service's fees of a sandbox quote sending `sendingCurrency`. */
export function sandboxServiceFees(sendingCurrency: string): ServiceFees {
  return { variableFeeBps: SERVICE_VARIABLE_FEE_BPS, fixedFee: serviceFixedFee(sendingCurrency), schedule: SANDBOX_FEE_SCHEDULE };
}

/** A platform's own fees on top of the service's (PlatformConfig.feeConfigs; none configured: zero). */
export interface PlatformFees {
  variableFeeBps: number;
  /** Sending currency smallest unit. */
  fixedFee: number;
}

export const NO_PLATFORM_FEES: PlatformFees = { variableFeeBps: 0, fixedFee: 0 };

/**
 * The service's fixed fee in `currency`'s smallest unit: 25 US cents converted at the static reference rate and
 * rounded down, so it does not move with the sandbox drift (USD 25, EUR 23, MXN 431, VND 6350, BTC 400 sats).
 */
export function serviceFixedFee(currency: string): number {
  const c = findCurrency(currency);
  const perUsd = USD_REFERENCE_RATES[currency];
  if (!c || perUsd === undefined) return 0;
  return Math.floor((SERVICE_FIXED_FEE_USD_CENTS / 100) * perUsd * 10 ** c.decimals);
}

/**
 * The fee schedule of a quote sending `sendingCurrency`: the service's fees (the sandbox's unless given), the
 * platform's own on top, no counterparty fee.
 */
export function feeSchedule(sendingCurrency: string, platform: PlatformFees = NO_PLATFORM_FEES, service: ServiceFees = sandboxServiceFees(sendingCurrency)): FxFeeSchedule {
  return {
    gridVariableFeeBps: service.variableFeeBps,
    gridFixedFee: service.fixedFee,
    platformVariableFeeBps: platform.variableFeeBps,
    platformFixedFee: platform.fixedFee,
    counterpartyFixedFee: 0,
  };
}

/** The platform's fees for quotes sending `sendingCurrency`: its active CROSS_CURRENCY_TRANSACTION config, else none. */
export function platformFeesFor(feeConfigs: readonly { feeType: string; sourceCurrency: string; variableFeeBps: number; fixedFee: { amount: number } }[], sendingCurrency: string): PlatformFees {
  const config = feeConfigs.find((f) => f.feeType === 'CROSS_CURRENCY_TRANSACTION' && f.sourceCurrency === sendingCurrency);
  return config ? { variableFeeBps: config.variableFeeBps, fixedFee: config.fixedFee.amount } : NO_PLATFORM_FEES;
}
