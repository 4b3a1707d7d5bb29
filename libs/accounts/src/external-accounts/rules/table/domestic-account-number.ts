import { digits } from '../formats';

/**
 * A domestic account number where the seed gives no length (GTQ, JMD, HKD, IDR, MYR, SGD, BDT, CNY, GHS, PKR, COP,
 * SLV): 5 to 20 digits, wide enough for every national scheme in the table.
 */
export const DOMESTIC_ACCOUNT_NUMBER = digits(5, 20);
