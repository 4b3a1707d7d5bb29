import { Institution, institutionsOf } from './institution';

/** Banks and wallets in Asia (public institution names). */
export const ASIA: readonly Institution[] = [
  ...institutionsOf('PH', 'PHP', [
    ['BDO_UNIBANK', 'BDO Unibank'], ['BANK_OF_THE_PHILIPPINE_ISLANDS', 'Bank of the Philippine Islands (BPI)'],
    ['METROBANK', 'Metropolitan Bank and Trust Company (Metrobank)'], ['LANDBANK', 'Land Bank of the Philippines'],
    ['PHILIPPINE_NATIONAL_BANK', 'Philippine National Bank'], ['SECURITY_BANK', 'Security Bank'],
    ['UNIONBANK_OF_THE_PHILIPPINES', 'UnionBank of the Philippines'], ['RCBC', 'Rizal Commercial Banking Corporation (RCBC)'],
    ['CHINA_BANKING_CORPORATION', 'China Banking Corporation (China Bank)'], ['GCASH', 'GCash'], ['MAYA', 'Maya'],
  ]),
  ...institutionsOf('IN', 'INR', [
    ['STATE_BANK_OF_INDIA', 'State Bank of India'], ['HDFC_BANK', 'HDFC Bank'], ['ICICI_BANK', 'ICICI Bank'],
    ['AXIS_BANK', 'Axis Bank'], ['KOTAK_MAHINDRA_BANK', 'Kotak Mahindra Bank'], ['PUNJAB_NATIONAL_BANK', 'Punjab National Bank'],
  ]),
  ...institutionsOf('BD', 'BDT', [
    ['SONALI_BANK', 'Sonali Bank'], ['DUTCH_BANGLA_BANK', 'Dutch-Bangla Bank'], ['BRAC_BANK', 'BRAC Bank'],
    ['ISLAMI_BANK_BANGLADESH', 'Islami Bank Bangladesh'], ['BKASH', 'bKash'], ['NAGAD', 'Nagad'],
  ]),
  ...institutionsOf('CN', 'CNY', [
    ['ICBC', 'Industrial and Commercial Bank of China'], ['CHINA_CONSTRUCTION_BANK', 'China Construction Bank'],
    ['AGRICULTURAL_BANK_OF_CHINA', 'Agricultural Bank of China'], ['BANK_OF_CHINA', 'Bank of China'],
    ['CHINA_MERCHANTS_BANK', 'China Merchants Bank'], ['ALIPAY', 'Alipay'], ['WECHAT_PAY', 'WeChat Pay'],
  ]),
  ...institutionsOf('PK', 'PKR', [
    ['HABIB_BANK', 'Habib Bank Limited (HBL)'], ['UNITED_BANK_LIMITED', 'United Bank Limited (UBL)'], ['MCB_BANK', 'MCB Bank'],
    ['ALLIED_BANK', 'Allied Bank'], ['MEEZAN_BANK', 'Meezan Bank'], ['JAZZCASH', 'JazzCash'], ['EASYPAISA', 'Easypaisa'],
  ]),
  ...institutionsOf('HK', 'HKD', [
    ['HSBC_HONG_KONG', 'The Hongkong and Shanghai Banking Corporation'], ['BANK_OF_CHINA_HONG_KONG', 'Bank of China (Hong Kong)'],
    ['HANG_SENG_BANK', 'Hang Seng Bank'], ['STANDARD_CHARTERED_HONG_KONG', 'Standard Chartered Bank (Hong Kong)'],
  ]),
  ...institutionsOf('ID', 'IDR', [
    ['BANK_CENTRAL_ASIA', 'Bank Central Asia (BCA)'], ['BANK_MANDIRI', 'Bank Mandiri'], ['BANK_RAKYAT_INDONESIA', 'Bank Rakyat Indonesia (BRI)'],
    ['BANK_NEGARA_INDONESIA', 'Bank Negara Indonesia (BNI)'], ['CIMB_NIAGA', 'CIMB Niaga'],
  ]),
  ...institutionsOf('MY', 'MYR', [
    ['MAYBANK', 'Malayan Banking (Maybank)'], ['CIMB_BANK', 'CIMB Bank'], ['PUBLIC_BANK', 'Public Bank'],
    ['RHB_BANK', 'RHB Bank'], ['HONG_LEONG_BANK', 'Hong Leong Bank'],
  ]),
  ...institutionsOf('SG', 'SGD', [
    ['DBS_BANK', 'DBS Bank'], ['OCBC_BANK', 'OCBC Bank'], ['UNITED_OVERSEAS_BANK', 'United Overseas Bank (UOB)'],
    ['STANDARD_CHARTERED_SINGAPORE', 'Standard Chartered Bank (Singapore)'],
  ]),
  ...institutionsOf('TH', 'THB', [
    ['BANGKOK_BANK', 'Bangkok Bank'], ['KASIKORNBANK', 'Kasikornbank'], ['SIAM_COMMERCIAL_BANK', 'Siam Commercial Bank'],
    ['KRUNG_THAI_BANK', 'Krung Thai Bank'], ['BANK_OF_AYUDHYA', 'Bank of Ayudhya (Krungsri)'],
  ]),
  ...institutionsOf('VN', 'VND', [
    ['VIETCOMBANK', 'Vietcombank'], ['VIETINBANK', 'VietinBank'], ['BIDV', 'Bank for Investment and Development of Vietnam (BIDV)'],
    ['TECHCOMBANK', 'Techcombank'], ['MB_BANK', 'Military Commercial Joint Stock Bank (MB Bank)'],
  ]),
];
