import { Institution, institutionsOf } from './institution';

/** Banks and wallets in Europe, the Middle East and Africa (public institution names). */
export const EUROPE_AFRICA: readonly Institution[] = [
  ...institutionsOf('DE', 'EUR', [['DEUTSCHE_BANK', 'Deutsche Bank'], ['COMMERZBANK', 'Commerzbank']]),
  ...institutionsOf('FR', 'EUR', [['BNP_PARIBAS', 'BNP Paribas'], ['SOCIETE_GENERALE', 'Société Générale']]),
  ...institutionsOf('ES', 'EUR', [['BANCO_SANTANDER', 'Banco Santander'], ['BBVA', 'BBVA']]),
  ...institutionsOf('NL', 'EUR', [['ING_BANK', 'ING Bank'], ['ABN_AMRO', 'ABN AMRO']]),
  ...institutionsOf('IT', 'EUR', [['INTESA_SANPAOLO', 'Intesa Sanpaolo'], ['UNICREDIT', 'UniCredit']]),
  ...institutionsOf('GB', 'GBP', [
    ['BARCLAYS', 'Barclays Bank'], ['HSBC_UK', 'HSBC UK'], ['LLOYDS_BANK', 'Lloyds Bank'], ['NATWEST', 'NatWest'],
    ['SANTANDER_UK', 'Santander UK'], ['MONZO', 'Monzo Bank'],
  ]),
  ...institutionsOf('DK', 'DKK', [['DANSKE_BANK', 'Danske Bank'], ['NORDEA_DANMARK', 'Nordea Danmark'], ['JYSKE_BANK', 'Jyske Bank'], ['NYKREDIT_BANK', 'Nykredit Bank']]),
  ...institutionsOf('AE', 'AED', [
    ['EMIRATES_NBD', 'Emirates NBD'], ['FIRST_ABU_DHABI_BANK', 'First Abu Dhabi Bank'], ['ABU_DHABI_COMMERCIAL_BANK', 'Abu Dhabi Commercial Bank'],
    ['DUBAI_ISLAMIC_BANK', 'Dubai Islamic Bank'], ['MASHREQ', 'Mashreq Bank'],
  ]),
  ...institutionsOf('EG', 'EGP', [
    ['NATIONAL_BANK_OF_EGYPT', 'National Bank of Egypt'], ['BANQUE_MISR', 'Banque Misr'], ['COMMERCIAL_INTERNATIONAL_BANK', 'Commercial International Bank (CIB)'],
    ['VODAFONE_CASH', 'Vodafone Cash'], ['ORANGE_CASH', 'Orange Cash'],
  ]),
  ...institutionsOf('NG', 'NGN', [
    ['ACCESS_BANK', 'Access Bank'], ['GUARANTY_TRUST_BANK', 'Guaranty Trust Bank (GTBank)'], ['ZENITH_BANK', 'Zenith Bank'],
    ['FIRST_BANK_OF_NIGERIA', 'First Bank of Nigeria'], ['UNITED_BANK_FOR_AFRICA', 'United Bank for Africa'],
  ]),
  ...institutionsOf('ZA', 'ZAR', [
    ['STANDARD_BANK', 'Standard Bank'], ['FIRST_NATIONAL_BANK', 'First National Bank (FNB)'], ['ABSA', 'Absa Bank'],
    ['NEDBANK', 'Nedbank'], ['CAPITEC_BANK', 'Capitec Bank'],
  ]),
  ...institutionsOf('GH', 'GHS', [
    ['GCB_BANK', 'GCB Bank'], ['ECOBANK_GHANA', 'Ecobank Ghana'], ['STANBIC_BANK_GHANA', 'Stanbic Bank Ghana'],
    ['MTN_MOMO', 'MTN Mobile Money'], ['TELECEL_CASH', 'Telecel Cash'],
  ]),
  // Phone + provider types: bankName here is the `provider` value (mobile-money-providers.ts).
  ...institutionsOf('KE', 'KES', [['M_PESA', 'Safaricom M-Pesa']]),
  ...institutionsOf('TZ', 'TZS', [['M_PESA', 'Vodacom M-Pesa'], ['AIRTEL_MONEY', 'Airtel Money']]),
  ...institutionsOf('ZM', 'ZMW', [['MTN_MOMO', 'MTN MoMo'], ['AIRTEL_MONEY', 'Airtel Money'], ['ZAMTEL_KWACHA', 'Zamtel Kwacha'], ['ZED_MOBILE', 'Zed Mobile']]),
  ...institutionsOf('RW', 'RWF', [['MTN_MOMO', 'MTN MoMo'], ['AIRTEL_MONEY', 'Airtel Money']]),
  ...institutionsOf('MW', 'MWK', [['AIRTEL_MONEY', 'Airtel Money'], ['TNM_MPAMBA', 'TNM Mpamba']]),
  ...institutionsOf('UG', 'UGX', [['MTN_MOMO', 'MTN MoMo'], ['AIRTEL_MONEY', 'Airtel Money']]),
  ...institutionsOf('SN', 'XOF', [['ORANGE_MONEY', 'Orange Money'], ['WAVE', 'Wave']]),
  ...institutionsOf('CI', 'XOF', [['ORANGE_MONEY', 'Orange Money'], ['MTN_MOMO', 'MTN MoMo'], ['MOOV_MONEY', 'Moov Money'], ['WAVE', 'Wave']]),
  ...institutionsOf('BJ', 'XOF', [['MTN_MOMO', 'MTN MoMo'], ['MOOV_MONEY', 'Moov Money']]),
  ...institutionsOf('CM', 'XAF', [['MTN_MOMO', 'MTN Mobile Money'], ['ORANGE_MONEY', 'Orange Money']]),
  ...institutionsOf('CG', 'XAF', [['MTN_MOMO', 'MTN Mobile Money'], ['AIRTEL_MONEY', 'Airtel Money']]),
  ...institutionsOf('BW', 'BWP', [['ORANGE_MONEY', 'Orange Money'], ['MASCOM_MYZAKA', 'Mascom MyZaka'], ['BTC_SMEGA', 'BTC Smega']]),
];
