/** Whether the platform may pay a provider's users (BLOCKED: it may not). */
export type UmaAllowListStatus = 'ALLOWED' | 'BLOCKED';

/** A provider of the catalogue: currencies by code; the API answers it as a published UmaProvider. */
export interface UmaCatalogueEntry {
  name: string;
  supportedRegions: string[];
  domain: string;
  logoUrl: string;
  supportedCurrencies: string[];
  lei: string;
  allowListStatus: UmaAllowListStatus;
}

const provider = (name: string, host: string, supportedRegions: string[], supportedCurrencies: string[], lei: string, allowListStatus: UmaAllowListStatus = 'ALLOWED'): UmaCatalogueEntry => ({
  name,
  supportedRegions,
  domain: `uma.${host}`,
  logoUrl: `https://${host}/logo.png`,
  supportedCurrencies,
  lei,
  allowListStatus,
});

/**
 * The shipped catalogue: fictional providers under the reserved `.example` top-level domain (RFC 2606), so none
 * names or reaches a real company. The LEIs carry valid check digits but are made up.
 */
export const UMA_PROVIDERS: readonly UmaCatalogueEntry[] = [
  provider('Brightharbor Wallet', 'brightharbor.example', ['US', 'CA'], ['USD', 'CAD', 'BTC', 'USDC'], '5493002BRHARBOR0UM75'),
  provider('Tidepool Pay', 'tidepool.example', ['US', 'MX'], ['USD', 'MXN', 'USDC'], '984500TIDEPOOL1PAY93'),
  provider('Northwind Finance', 'northwind-finance.example', ['GB', 'IE'], ['GBP', 'EUR'], '213800NORTHWND0FIN10'),
  provider('Lantern Remit', 'lanternremit.example', ['PH', 'SG', 'HK'], ['PHP', 'SGD', 'HKD', 'USD'], '5299000LANTERN0REM14'),
  provider('Meridian Pay', 'meridianpay.example', ['DE', 'FR', 'NL', 'ES', 'IT'], ['EUR', 'USDC'], '391200MERIDIAN0PAY55'),
  provider('Quetzal Digital', 'quetzaldigital.example', ['GT', 'MX'], ['GTQ', 'MXN', 'USD'], '635400QUETZAL0DIGI04'),
  provider('Orchid Wallet', 'orchidwallet.example', ['TH', 'VN', 'MY', 'ID'], ['THB', 'VND', 'MYR', 'IDR'], '549300ORCHID0WALLT66'),
  provider('Savanna Pay', 'savannapay.example', ['KE', 'TZ', 'UG', 'RW'], ['KES', 'TZS', 'UGX', 'RWF', 'USDT'], '3358001SAVANNA0PAY79'),
  provider('Kestrel Money', 'kestrelmoney.example', ['NG', 'GH'], ['NGN', 'GHS', 'USDT'], '25490000KESTREL0MN27'),
  provider('Harbour Light', 'harbourlight.example', ['IN', 'BD', 'PK'], ['INR', 'BDT', 'PKR'], '894500HARBOURLGHT095'),
  provider('Coral Reef Bank', 'coralreef.example', ['JM', 'HT'], ['JMD', 'HTG', 'USD'], '724500CORALREEF0BK73'),
  provider('Granite FX', 'granitefx.example', ['BR', 'AR', 'CO'], ['BRL', 'ARS', 'COP', 'USDC'], '959800GRANITE0FX0147', 'BLOCKED'),
  provider('Pinegrove Union', 'pinegrove.example', ['ZA', 'BW', 'ZM'], ['ZAR', 'BWP', 'ZMW'], '5493006PINEGROVE0U74', 'BLOCKED'),
];

/** ISO 17442 check: 20 upper-case alphanumerics whose MOD 97-10 remainder (letters as 10..35) is 1. */
export function isLei(value: string): boolean {
  if (!/^[A-Z0-9]{18}[0-9]{2}$/.test(value)) return false;
  let remainder = 0;
  for (const char of value) {
    const digits = /[A-Z]/.test(char) ? String(char.charCodeAt(0) - 55) : char;
    for (const d of digits) remainder = (remainder * 10 + Number(d)) % 97;
  }
  return remainder === 1;
}
