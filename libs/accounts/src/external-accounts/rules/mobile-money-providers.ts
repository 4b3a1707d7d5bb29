/**
 * Mobile-money `provider` values: one UPPER_SNAKE name per wallet service, as many per currency as the seed allows
 * (KES one, TZS/RWF/MWK/UGX two, ZMW four). XOF and XAF span several countries, so their lists are per country and a
 * provider must operate in the phone number's (XOF) or the region's (XAF) country.
 */
export const MOBILE_MONEY_PROVIDERS = {
  KES: ['M_PESA'], // Safaricom M-Pesa
  TZS: ['M_PESA', 'AIRTEL_MONEY'], // Vodacom M-Pesa, Airtel Money
  ZMW: ['MTN_MOMO', 'AIRTEL_MONEY', 'ZAMTEL_KWACHA', 'ZED_MOBILE'], // the four mobile network operators
  RWF: ['MTN_MOMO', 'AIRTEL_MONEY'],
  MWK: ['AIRTEL_MONEY', 'TNM_MPAMBA'], // Airtel Money, TNM Mpamba
  UGX: ['MTN_MOMO', 'AIRTEL_MONEY'],
  BWP: ['ORANGE_MONEY', 'MASCOM_MYZAKA', 'BTC_SMEGA'], // Orange Money, Mascom MyZaka, BTC Smega
} as const satisfies Record<string, readonly string[]>;

/** XOF (WAEMU) mobile money, by the country of the phone number. */
export const XOF_PROVIDERS_BY_COUNTRY = {
  SN: ['ORANGE_MONEY', 'WAVE'],
  CI: ['ORANGE_MONEY', 'MTN_MOMO', 'MOOV_MONEY', 'WAVE'],
  BJ: ['MTN_MOMO', 'MOOV_MONEY'],
} as const satisfies Record<string, readonly string[]>;

/** XAF (CEMAC) mobile money, by `region`: Cameroon and the Republic of the Congo. */
export const XAF_PROVIDERS_BY_REGION = {
  CM: ['MTN_MOMO', 'ORANGE_MONEY'],
  CG: ['MTN_MOMO', 'AIRTEL_MONEY'],
} as const satisfies Record<string, readonly string[]>;

export const unionOf = (byCountry: Readonly<Record<string, readonly string[]>>): string[] => [...new Set(Object.values(byCountry).flat())];
