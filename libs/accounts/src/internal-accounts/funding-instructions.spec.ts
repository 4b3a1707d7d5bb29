import { fundingInstructions } from './funding-instructions';

const ACCOUNT = 'InternalAccount:0190a5b0-0000-7000-8000-000000000001';

/**
 * The published PaymentInstructions.accountOrWalletInfo per accountType (Payment*AccountInfo / Payment*WalletInfo):
 * its required fields, and the rails its `paymentRails` may name.
 */
const PUBLISHED: Record<string, { required: string[]; rails?: string[] }> = {
  USD_ACCOUNT: { required: ['accountType', 'accountNumber', 'routingNumber', 'paymentRails', 'reference'], rails: ['ACH', 'WIRE', 'RTP', 'FEDNOW'] },
  EUR_ACCOUNT: { required: ['accountType', 'iban', 'paymentRails', 'reference'], rails: ['SEPA', 'SEPA_INSTANT'] },
  MXN_ACCOUNT: { required: ['accountType', 'clabeNumber', 'paymentRails', 'reference'], rails: ['SPEI'] },
  SWIFT_ACCOUNT: { required: ['accountType', 'accountHolderName', 'bankName', 'country', 'paymentRails', 'swiftCode'], rails: ['SWIFT'] },
  BASE_WALLET: { required: ['accountType', 'address'] },
  BITCOIN_L1: { required: ['accountType', 'address'] },
};

describe('funding payment instructions (sandbox)', () => {
  it.each([
    ['USD', 'USD_ACCOUNT', ['ACH', 'WIRE', 'RTP', 'FEDNOW']],
    ['EUR', 'EUR_ACCOUNT', ['SEPA', 'SEPA_INSTANT']],
    ['MXN', 'MXN_ACCOUNT', ['SPEI']],
    ['GBP', 'SWIFT_ACCOUNT', ['SWIFT']],
    ['NGN', 'SWIFT_ACCOUNT', ['SWIFT']],
  ])('%s: %s with the rails the external accounts answer (%j) and every published required field', (currency, accountType, rails) => {
    const [instructions] = fundingInstructions(ACCOUNT, currency, 'SANDBOX', false);
    const info = instructions.accountOrWalletInfo;
    expect(info.accountType).toBe(accountType);
    expect(info.paymentRails).toEqual(rails);
    const published = PUBLISHED[accountType];
    expect(published.required.filter((field) => info[field] === undefined)).toEqual([]);
    expect((info.paymentRails as string[]).filter((rail) => !published.rails!.includes(rail))).toEqual([]);
  });

  it('SWIFT: the country is the BIC\'s, the holder the FBO account', () => {
    const [{ accountOrWalletInfo: info }] = fundingInstructions(ACCOUNT, 'GBP', 'SANDBOX', true);
    expect(info).toMatchObject({ country: String(info.swiftCode).slice(4, 6), accountHolderName: 'Payments Platform FBO' });
  });

  it.each([
    ['USDC', 'BASE_WALLET'],
    ['BTC', 'BITCOIN_L1'],
  ])('%s: a %s with its published required fields and no paymentRails (wallets have none)', (currency, accountType) => {
    const [{ accountOrWalletInfo: info }] = fundingInstructions(ACCOUNT, currency, 'SANDBOX', false);
    expect(info.accountType).toBe(accountType);
    expect(PUBLISHED[accountType].required.filter((field) => info[field] === undefined)).toEqual([]);
    expect(info.paymentRails).toBeUndefined();
  });

  it('USDB (Embedded Wallet): none, as the published Global Account walkthrough lists it; funded by quote or sandbox fund', () => {
    expect(fundingInstructions(ACCOUNT, 'USDB', 'SANDBOX', false)).toEqual([]);
  });

  it('answers none in production', () => expect(fundingInstructions(ACCOUNT, 'USD', 'PRODUCTION', false)).toEqual([]));
});
