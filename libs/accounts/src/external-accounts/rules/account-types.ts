/** Every external-account `accountType` the seed names: its table's 39 and the 9 whose fields it does not show. */
export const ACCOUNT_TYPES = [
  'USD_ACCOUNT', 'MXN_ACCOUNT', 'BRL_ACCOUNT', 'COP_ACCOUNT', 'SLV_ACCOUNT', 'EUR_ACCOUNT', 'PHP_ACCOUNT', 'GBP_ACCOUNT',
  'INR_ACCOUNT', 'NGN_ACCOUNT', 'ZAR_ACCOUNT', 'KES_ACCOUNT', 'TZS_ACCOUNT', 'ZMW_ACCOUNT', 'RWF_ACCOUNT', 'MWK_ACCOUNT',
  'UGX_ACCOUNT', 'XOF_ACCOUNT', 'XAF_ACCOUNT', 'BWP_ACCOUNT', 'CAD_ACCOUNT', 'AED_ACCOUNT', 'BDT_ACCOUNT', 'CNY_ACCOUNT',
  'EGP_ACCOUNT', 'GHS_ACCOUNT', 'GTQ_ACCOUNT', 'HTG_ACCOUNT', 'JMD_ACCOUNT', 'PKR_ACCOUNT', 'DKK_ACCOUNT', 'HKD_ACCOUNT',
  'IDR_ACCOUNT', 'MYR_ACCOUNT', 'SGD_ACCOUNT', 'SPARK_WALLET', 'TRON_WALLET', 'PLASMA_WALLET', 'LIGHTNING',
  'THB_ACCOUNT', 'VND_ACCOUNT', 'ARS_ACCOUNT', 'SWIFT_ACCOUNT', 'SOLANA_WALLET', 'POLYGON_WALLET', 'BASE_WALLET',
  'ETHEREUM_WALLET', 'BITCOIN_L1',
] as const;

export type AccountType = (typeof ACCOUNT_TYPES)[number];

export const isAccountType = (value: unknown): value is AccountType => (ACCOUNT_TYPES as readonly unknown[]).includes(value);
