import { findCurrency } from '../currencies';
import { BPS_PER_UNIT } from './quote-pricing';
import type { OutgoingRateDetails } from './quote-pricing';
import { ceilDiv } from './rational';

/** The published (client-visible) fields of a quote. */
export interface PublishedQuote {
  sendingCurrency: string;
  receivingCurrency: string;
  totalSendingAmount: number;
  totalReceivingAmount: number;
  feesIncluded: number;
  platformFeesIncluded: number;
  exchangeRate: number;
  rateDetails: OutgoingRateDetails;
}

/** Relative tolerance for the display-only `number` multipliers and exchangeRate (float views of exact rationals). */
export const FLOAT_RELATIVE_TOLERANCE = 1e-9;

/**
 * What a client can check from the published fields alone. Integer relations are exact; the float
 * multipliers must reproduce the gross receiving amount to within the one floor step (plus float noise).
 * Returns the list of violated relations (empty when consistent).
 */
export function checkPublishedQuote(q: PublishedQuote): string[] {
  const problems: string[] = [];
  const d = q.rateDetails;
  const s = findCurrency(q.sendingCurrency);
  const r = findCurrency(q.receivingCurrency);
  if (!s || !r) return ['unknown currency'];
  const bps = BigInt(Math.round(d.gridApiVariableFeeRate * 100));
  const sending = BigInt(q.totalSendingAmount);
  const variable = ceilDiv(sending * bps, BPS_PER_UNIT);
  if (variable !== BigInt(d.gridApiVariableFeeAmount)) problems.push('gridApiVariableFeeAmount != ceil(S × rate%)');
  const fees = variable + BigInt(d.gridApiFixedFee);
  if (fees !== BigInt(q.feesIncluded)) problems.push('feesIncluded != variable + fixed');
  if (q.platformFeesIncluded > q.feesIncluded) problems.push('platformFeesIncluded > feesIncluded');
  const principal = Number(sending - fees);
  const gross = q.totalReceivingAmount + d.counterpartyFixedFee;
  // principal × mSATs/minor × receiving-minor/mSAT: exact value lies in [gross, gross + 1).
  const msatsPerMinor = d.gridApiMultiplier / (1 - d.gridApiVariableFeeRate / 100);
  const exact = principal * msatsPerMinor * d.counterpartyMultiplier;
  const tol = FLOAT_RELATIVE_TOLERANCE * Math.max(exact, 1);
  if (exact < gross - tol || exact >= gross + 1 + tol) problems.push('multipliers do not reproduce the gross receiving amount');
  const implied = (principal / 10 ** s.decimals) / (gross / 10 ** r.decimals);
  if (Math.abs(q.exchangeRate - implied) > FLOAT_RELATIVE_TOLERANCE * implied) problems.push('exchangeRate != principal / gross');
  return problems;
}
