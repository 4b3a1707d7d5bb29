import type { FxFeeSchedule } from '@payments/money';
import { findCurrency } from '@payments/money';
import { USD_REFERENCE_RATES } from './sandbox-rates';

/** The service's (grid's) variable fee: 0.5% of the total sending amount. */
export const SERVICE_VARIABLE_FEE_BPS = 50;
/** The service's fixed fee, worth about this many US cents in the sending currency. */
export const SERVICE_FIXED_FEE_USD_CENTS = 25;

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

/** The fee schedule of a quote sending `sendingCurrency` (no counterparty fee in the sandbox). */
export function feeSchedule(sendingCurrency: string, platform: PlatformFees = NO_PLATFORM_FEES): FxFeeSchedule {
  return {
    gridVariableFeeBps: SERVICE_VARIABLE_FEE_BPS,
    gridFixedFee: serviceFixedFee(sendingCurrency),
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
