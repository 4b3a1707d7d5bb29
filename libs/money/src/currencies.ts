/** A currency the platform can hold or move: ISO 4217 fiat, or a crypto ticker. Amounts are integers in minor units. */
export interface Currency {
  code: string;
  name: string;
  symbol: string;
  decimals: number;
  kind: 'FIAT' | 'CRYPTO';
}

const fiat = (code: string, name: string, symbol: string, decimals = 2): Currency => ({ code, name, symbol, decimals, kind: 'FIAT' });
const crypto = (code: string, name: string, symbol: string, decimals: number): Currency => ({ code, name, symbol, decimals, kind: 'CRYPTO' });

// Decimals are ISO 4217 minor units; BTC counts satoshis, USDC/USDT/USDB their 6-decimal token units.
// USDB (Brale-issued USD stablecoin) is what Embedded Wallet internal accounts ("Global Accounts") hold; the published
// docs name it `{"code": "USDB", "name": "USDB", "decimals": 6}` (mintlify/snippets/global-accounts/walkthrough.mdx).
const TABLE: readonly Currency[] = [
  fiat('USD', 'United States Dollar', '$'),
  fiat('EUR', 'Euro', '€'),
  fiat('GBP', 'Pound Sterling', '£'),
  fiat('MXN', 'Mexican Peso', '$'),
  fiat('BRL', 'Brazilian Real', 'R$'),
  fiat('CAD', 'Canadian Dollar', '$'),
  fiat('DKK', 'Danish Krone', 'kr'),
  fiat('INR', 'Indian Rupee', '₹'),
  fiat('NGN', 'Nigerian Naira', '₦'),
  fiat('HKD', 'Hong Kong Dollar', 'HK$'),
  fiat('IDR', 'Indonesian Rupiah', 'Rp'),
  fiat('MYR', 'Malaysian Ringgit', 'RM'),
  fiat('PHP', 'Philippine Peso', '₱'),
  fiat('SGD', 'Singapore Dollar', 'S$'),
  fiat('THB', 'Thai Baht', '฿'),
  fiat('VND', 'Vietnamese Dong', '₫', 0),
  fiat('AED', 'UAE Dirham', 'د.إ'),
  fiat('KES', 'Kenyan Shilling', 'KSh'),
  fiat('MWK', 'Malawian Kwacha', 'MK'),
  fiat('RWF', 'Rwandan Franc', 'FRw', 0),
  fiat('TZS', 'Tanzanian Shilling', 'TSh'),
  fiat('UGX', 'Ugandan Shilling', 'USh', 0),
  fiat('XOF', 'West African CFA Franc', 'CFA', 0),
  fiat('XAF', 'Central African CFA Franc', 'FCFA', 0),
  fiat('ZAR', 'South African Rand', 'R'),
  fiat('ZMW', 'Zambian Kwacha', 'ZK'),
  fiat('BWP', 'Botswana Pula', 'P'),
  fiat('BDT', 'Bangladeshi Taka', '৳'),
  fiat('ARS', 'Argentine Peso', '$'),
  fiat('COP', 'Colombian Peso', '$'),
  fiat('EGP', 'Egyptian Pound', 'E£'),
  fiat('GHS', 'Ghanaian Cedi', 'GH₵'),
  fiat('GTQ', 'Guatemalan Quetzal', 'Q'),
  fiat('HTG', 'Haitian Gourde', 'G'),
  fiat('JMD', 'Jamaican Dollar', 'J$'),
  fiat('PKR', 'Pakistani Rupee', '₨'),
  fiat('CNY', 'Chinese Yuan', '¥'),
  crypto('BTC', 'Bitcoin', '₿', 8),
  crypto('USDC', 'USD Coin', 'USDC', 6),
  crypto('USDT', 'Tether USD', 'USDT', 6),
  crypto('USDB', 'USDB', 'USDB', 6),
];

const BY_CODE = new Map(TABLE.map((c) => [c.code, c]));

export const SUPPORTED_CURRENCY_CODES: readonly string[] = TABLE.map((c) => c.code);
export const CRYPTO_CURRENCY_CODES: readonly string[] = TABLE.filter((c) => c.kind === 'CRYPTO').map((c) => c.code);

export function findCurrency(code: string): Currency | undefined {
  return BY_CODE.get(code);
}

/** The public Currency object of the spec: `{code, name, symbol, decimals}`. */
export function currencyObject(code: string): Omit<Currency, 'kind'> {
  const c = BY_CODE.get(code);
  if (!c) throw new Error(`unknown currency ${code}`);
  return { code: c.code, name: c.name, symbol: c.symbol, decimals: c.decimals };
}
