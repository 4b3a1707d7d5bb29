import { CRYPTO_CURRENCY_CODES } from '@payments/money';
import { destinationPaymentRail } from './destination-rails';

describe('destination payment rail of GET /exchange-rates', () => {
  it('names a network, never a bank transfer, for every crypto currency (USDB: Spark, where Embedded Wallets live)', () => {
    for (const code of CRYPTO_CURRENCY_CODES) expect(destinationPaymentRail(code)).not.toBe('BANK_TRANSFER');
    expect(destinationPaymentRail('USDB')).toBe('SPARK');
    expect(destinationPaymentRail('CNY')).toBe('BANK_TRANSFER');
  });
});
