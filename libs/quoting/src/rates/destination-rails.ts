/**
 * The rail a payout in each currency normally takes, for GET /exchange-rates' `destinationPaymentRail`: the first
 * rail the accounts service lists for an external account of that currency (USD: ACH; EUR: SEPA_INSTANT, the instant
 * one of the two it lists; the mobile-money currencies: MOBILE_MONEY). Crypto has no value in the published
 * PaymentRail enum: its network is named instead (BTC over Lightning; the stablecoins on the chains most payouts use).
 * USDB is never paid out to an external wallet (no external account type holds it, and the published docs take it out
 * of a Global Account only through a quote): it arrives in an Embedded Wallet, which "run[s] on Spark"
 * (mintlify/snippets/global-accounts/concepts.mdx), so its network is SPARK.
 */
const DESTINATION_RAILS: Readonly<Record<string, string>> = {
  USD: 'ACH',
  EUR: 'SEPA_INSTANT',
  DKK: 'SEPA_INSTANT',
  GBP: 'FASTER_PAYMENTS',
  MXN: 'SPEI',
  BRL: 'PIX',
  INR: 'UPI',
  SGD: 'FAST',
  KES: 'MOBILE_MONEY',
  MWK: 'MOBILE_MONEY',
  RWF: 'MOBILE_MONEY',
  TZS: 'MOBILE_MONEY',
  UGX: 'MOBILE_MONEY',
  XOF: 'MOBILE_MONEY',
  XAF: 'MOBILE_MONEY',
  ZMW: 'MOBILE_MONEY',
  BWP: 'MOBILE_MONEY',
  BTC: 'LIGHTNING',
  USDC: 'SOLANA',
  USDT: 'TRON',
  USDB: 'SPARK',
};

/** Every other fiat currency pays out by domestic bank transfer. */
export function destinationPaymentRail(currency: string): string {
  return DESTINATION_RAILS[currency] ?? 'BANK_TRANSFER';
}
