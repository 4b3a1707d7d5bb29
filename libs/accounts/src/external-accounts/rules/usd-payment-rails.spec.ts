import { usdPaymentRails } from './usd-payment-rails';

const account = { accountType: 'USD_ACCOUNT', accountNumber: '123456789', routingNumber: '021000021', bankAccountType: 'CHECKING', bankName: 'Chase' };

describe('usdPaymentRails', () => {
  it('is every rail in a fixed order when no participant directory is given (sandbox)', () => {
    expect(usdPaymentRails(account)).toEqual(['ACH', 'WIRE', 'RTP', 'FEDNOW']);
  });

  it('includes WIRE with or without the wire-only fields, which only shape a wire', () => {
    const wire = { ...account, intermediaryBankName: 'Citibank', intermediaryRoutingNumber: '021000089', fiToFiInformation: 'REF' };
    expect(usdPaymentRails(wire, { rtp: new Set(), fedNow: new Set() })).toEqual(['ACH', 'WIRE']);
    expect(usdPaymentRails(account, { rtp: new Set(), fedNow: new Set() })).toEqual(['ACH', 'WIRE']);
  });

  it('adds RTP and FEDNOW only for routing numbers that participate', () => {
    expect(usdPaymentRails(account, { rtp: new Set(['021000021']), fedNow: new Set() })).toEqual(['ACH', 'WIRE', 'RTP']);
    expect(usdPaymentRails(account, { rtp: new Set(), fedNow: new Set(['021000021']) })).toEqual(['ACH', 'WIRE', 'FEDNOW']);
    expect(usdPaymentRails(account, { rtp: new Set(['026009593']), fedNow: new Set(['026009593']) })).toEqual(['ACH', 'WIRE']);
  });
});
