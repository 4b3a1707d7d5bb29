import { findCurrency } from '../currencies';
import { ceilDiv, floorDiv, mul, parseDecimal, Rational, reduce, toNumber } from './rational';

/** Basis points in one whole (100%). */
export const BPS_PER_UNIT = 10_000n;
/** Millisatoshis in one bitcoin (1 BTC = 1e8 sat = 1e11 mSAT). */
export const MSATS_PER_BTC = 100_000_000_000n;
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** Fee schedule of one quote. Fixed fees are integers in minor units; variable fees in whole basis points. */
export interface FxFeeSchedule {
  /** Grid (provider) variable fee on the total sending amount, basis points. */
  gridVariableFeeBps: number;
  /** Grid (provider) fixed fee, sending currency minor units. */
  gridFixedFee: number;
  /** Platform variable fee (FeeConfig) on the total sending amount, basis points. */
  platformVariableFeeBps: number;
  /** Platform fixed fee (FeeConfig), sending currency minor units. */
  platformFixedFee: number;
  /** Counterparty fixed fee, receiving currency minor units, deducted on the receiving side. */
  counterpartyFixedFee: number;
}

export interface FxQuoteInput {
  sendingCurrency: string;
  receivingCurrency: string;
  /** Mid rate, exact decimal string: receiving MAJOR units per one sending MAJOR unit (USD→MXN "17.25"). */
  midRate: string;
  /** BTC reference, exact decimal string: sending MAJOR units per one BTC ("1" when sending BTC). */
  sendingPerBtc: string;
  fees: FxFeeSchedule;
  lockedCurrencySide: 'SENDING' | 'RECEIVING';
  /** Positive safe integer, minor units of the locked side. */
  lockedCurrencyAmount: number;
}

/** The spec's OutgoingRateDetails. */
export interface OutgoingRateDetails {
  counterpartyMultiplier: number;
  counterpartyFixedFee: number;
  gridApiMultiplier: number;
  gridApiFixedFee: number;
  gridApiVariableFeeRate: number;
  gridApiVariableFeeAmount: number;
}

export interface FxQuotePricing {
  totalSendingAmount: number;
  totalReceivingAmount: number;
  /** Sending minor units: gridApiVariableFeeAmount + gridApiFixedFee; includes platformFeesIncluded. */
  feesIncluded: number;
  platformFeesIncluded: number;
  /** Sending minor units actually converted: totalSendingAmount − feesIncluded. */
  principalAmount: number;
  /** Receiving minor units before the counterparty fee: floor(principalAmount × rate). */
  grossReceivingAmount: number;
  /** Sending MAJOR units per receiving MAJOR unit: principal / gross receiving, decimal-adjusted. */
  exchangeRate: number;
  rateDetails: OutgoingRateDetails;
  /** principal × rate − grossReceivingAmount, exact, in receiving minor units; always in [0, 1). */
  fxRoundingRemainder: Rational;
}

export type FxQuoteErrorCode =
  | 'UNKNOWN_CURRENCY'
  | 'SAME_CURRENCY'
  | 'INVALID_RATE'
  | 'INVALID_FEE'
  | 'INVALID_AMOUNT'
  | 'AMOUNT_BELOW_FEES'
  | 'AMOUNT_UNSAFE';

export interface FxQuoteError {
  code: FxQuoteErrorCode;
  message: string;
}

export type FxQuoteResult = { ok: true; value: FxQuotePricing } | { ok: false; error: FxQuoteError };

const fail = (code: FxQuoteErrorCode, message: string): FxQuoteResult => ({ ok: false, error: { code, message } });

/** Validated, exact parameters of the pricing function (all bigint / rational). */
interface Params {
  /** Receiving minor units per sending minor unit. */
  rate: Rational;
  /** mSATs per sending minor unit. */
  msatsPerSendingMinor: Rational;
  variableBps: bigint;
  platformVariableBps: bigint;
  fixedFee: bigint;
  platformFixedFee: bigint;
  counterpartyFee: bigint;
  sendingDecimals: number;
  receivingDecimals: number;
}

/** Amounts for a given total sending amount S (all bigint). */
interface Amounts {
  sending: bigint;
  variableFee: bigint;
  platformVariableFee: bigint;
  fees: bigint;
  principal: bigint;
  gross: bigint;
  receiving: bigint;
}

/** The one pricing chain; every step has exactly one rounding rule. */
function amountsFor(p: Params, sending: bigint): Amounts {
  const variableFee = ceilDiv(sending * p.variableBps, BPS_PER_UNIT); // fee: round UP
  const platformVariableFee = ceilDiv(sending * p.platformVariableBps, BPS_PER_UNIT); // platform share: round UP
  const fees = variableFee + p.fixedFee;
  const principal = sending - fees;
  const gross = principal > 0n ? floorDiv(principal * p.rate.num, p.rate.den) : 0n; // delivery: round DOWN
  return { sending, variableFee, platformVariableFee, fees, principal, gross, receiving: gross - p.counterpartyFee };
}

const isCount = (n: number): boolean => Number.isSafeInteger(n) && n >= 0;

function validate(input: FxQuoteInput): Params | FxQuoteResult {
  const s = findCurrency(input.sendingCurrency);
  const r = findCurrency(input.receivingCurrency);
  if (!s || !r) return fail('UNKNOWN_CURRENCY', `unknown currency ${!s ? input.sendingCurrency : input.receivingCurrency}`);
  if (s.code === r.code) return fail('SAME_CURRENCY', 'same-currency transfers do not use quotes');
  const mid = parseDecimal(input.midRate);
  const btc = parseDecimal(input.sendingPerBtc);
  if (!mid || mid.num === 0n || !btc || btc.num === 0n) return fail('INVALID_RATE', 'rates must be positive decimal strings');
  const f = input.fees;
  const counts = [f.gridVariableFeeBps, f.gridFixedFee, f.platformVariableFeeBps, f.platformFixedFee, f.counterpartyFixedFee];
  if (!counts.every(isCount) || f.gridVariableFeeBps + f.platformVariableFeeBps >= 10_000) {
    return fail('INVALID_FEE', 'fees must be safe integers >= 0 and variable fees below 10000 bps in total');
  }
  if (!Number.isSafeInteger(input.lockedCurrencyAmount) || input.lockedCurrencyAmount <= 0) {
    return fail('INVALID_AMOUNT', 'lockedCurrencyAmount must be a positive safe integer');
  }
  const sScale = 10n ** BigInt(s.decimals);
  return {
    rate: mul(mid, { num: 10n ** BigInt(r.decimals), den: sScale }),
    msatsPerSendingMinor: reduce({ num: MSATS_PER_BTC * btc.den, den: btc.num * sScale }),
    variableBps: BigInt(f.gridVariableFeeBps + f.platformVariableFeeBps),
    platformVariableBps: BigInt(f.platformVariableFeeBps),
    fixedFee: BigInt(f.gridFixedFee + f.platformFixedFee),
    platformFixedFee: BigInt(f.platformFixedFee),
    counterpartyFee: BigInt(f.counterpartyFixedFee),
    sendingDecimals: s.decimals,
    receivingDecimals: r.decimals,
  };
}

/**
 * Smallest total sending amount S with receiving(S) >= target. receiving(S) is non-decreasing in S
 * (principal grows by 0 or 1 per unit of S because the variable fee rate is below 100%), so bisect.
 */
function smallestSendingFor(p: Params, target: bigint): bigint | undefined {
  if (amountsFor(p, MAX_SAFE).receiving < target) return undefined;
  let lo = 1n;
  let hi = MAX_SAFE;
  while (lo < hi) {
    const mid = (lo + hi) / 2n;
    if (amountsFor(p, mid).receiving >= target) hi = mid;
    else lo = mid + 1n;
  }
  return lo;
}

/** Prices a quote. Pure: every input (rates included) enters as data. */
export function priceFxQuote(input: FxQuoteInput): FxQuoteResult {
  const p = validate(input);
  if ('ok' in p) return p;
  const locked = BigInt(input.lockedCurrencyAmount);
  let sending: bigint | undefined = locked;
  if (input.lockedCurrencySide === 'RECEIVING') {
    sending = smallestSendingFor(p, locked);
    if (sending === undefined) return fail('AMOUNT_UNSAFE', 'the sending amount would exceed the safe integer range');
  }
  const a = amountsFor(p, sending);
  if (a.principal <= 0n || a.receiving <= 0n) {
    return fail('AMOUNT_BELOW_FEES', 'the amount does not cover the fees');
  }
  if (a.gross > MAX_SAFE) return fail('AMOUNT_UNSAFE', 'the receiving amount exceeds the safe integer range');
  return { ok: true, value: publish(p, a) };
}

function publish(p: Params, a: Amounts): FxQuotePricing {
  const keep: Rational = { num: BPS_PER_UNIT - p.variableBps, den: BPS_PER_UNIT };
  const bps = Number(p.variableBps);
  return {
    totalSendingAmount: Number(a.sending),
    totalReceivingAmount: Number(a.receiving),
    feesIncluded: Number(a.fees),
    platformFeesIncluded: Number(a.platformVariableFee + p.platformFixedFee),
    principalAmount: Number(a.principal),
    grossReceivingAmount: Number(a.gross),
    exchangeRate: toNumber(
      reduce({
        num: a.principal * 10n ** BigInt(p.receivingDecimals),
        den: a.gross * 10n ** BigInt(p.sendingDecimals),
      }),
    ),
    rateDetails: {
      counterpartyMultiplier: toNumber(mul(p.rate, { num: p.msatsPerSendingMinor.den, den: p.msatsPerSendingMinor.num })),
      counterpartyFixedFee: Number(p.counterpartyFee),
      gridApiMultiplier: toNumber(mul(p.msatsPerSendingMinor, keep)),
      gridApiFixedFee: Number(p.fixedFee),
      gridApiVariableFeeRate: bps / 100,
      gridApiVariableFeeAmount: Number(a.variableFee),
    },
    fxRoundingRemainder: reduce({ num: a.principal * p.rate.num - a.gross * p.rate.den, den: p.rate.den }),
  };
}
