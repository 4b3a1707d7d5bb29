import { ApiError } from '@payments/contracts';

/**
 * A token amount (digits, `tokenDecimals`) in the base currency's smallest unit (`fiatDecimals`), 1:1 in value. It must
 * convert exactly (whole cents) and fit the ledger's safe integers; BigInt all the way, no float.
 */
export function fiatAmountOf(amount: string, tokenDecimals: number, fiatDecimals: number): number {
  const units = BigInt(amount);
  if (units === 0n) throw invalidAmount('amount must be greater than 0');
  const shift = tokenDecimals - fiatDecimals;
  let fiat: bigint;
  if (shift >= 0) {
    const step = 10n ** BigInt(shift);
    if (units % step !== 0n) throw invalidAmount(`amount must be a multiple of ${step} (whole ${fiatDecimals === 2 ? 'cents' : 'minor units'} of the base currency at ${tokenDecimals} token decimals)`);
    fiat = units / step;
  } else {
    fiat = units * 10n ** BigInt(-shift);
  }
  if (fiat > BigInt(Number.MAX_SAFE_INTEGER)) throw invalidAmount('amount is beyond what one operation can move');
  return Number(fiat);
}

const invalidAmount = (message: string) => new ApiError('INVALID_AMOUNT', message, { errors: [{ field: 'amount', message }] });
