import { normalizeAccountInfo, publicAccountInfo } from './published-form';

const ADDRESS = { line1: '1 Main Street', city: 'Springfield', postalCode: '12345', country: 'US' };
const USD = { accountType: 'USD_ACCOUNT', accountNumber: '12345678901', routingNumber: '021000021' };
const BUSINESS_INFO = { legalName: 'Acme Corp', taxId: '12-3456789' };

describe('normalizeAccountInfo: the published input to the stored form', () => {
  it('drops the input-only fields and hands platformAccountId back apart', () => {
    const sent = { ...USD, countries: ['US'], paymentRails: ['ACH'], platformAccountId: 'ext_acc_1', beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Ada' } };
    expect(normalizeAccountInfo(sent)).toEqual({ accountInfo: { ...USD, beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Ada' } }, platformAccountId: 'ext_acc_1' });
  });

  it('moves a flat business beneficiary into businessInfo and leaves the seed form as it is', () => {
    const flat = { beneficiaryType: 'BUSINESS', ...BUSINESS_INFO, phoneNumber: '+14155550123', address: ADDRESS };
    const seed = { beneficiaryType: 'BUSINESS', businessInfo: BUSINESS_INFO, phoneNumber: '+14155550123', address: ADDRESS };
    expect(normalizeAccountInfo({ ...USD, beneficiary: flat }).accountInfo.beneficiary).toEqual(seed);
    expect(normalizeAccountInfo({ ...USD, beneficiary: seed }).accountInfo.beneficiary).toEqual(seed);
  });
});

describe('publicAccountInfo: the stored form to the answer', () => {
  it('adds the rails, the flat business names, and hides write-only fields; twice is once', () => {
    const stored = { ...USD, beneficiary: { beneficiaryType: 'BUSINESS', businessInfo: BUSINESS_INFO, address: ADDRESS, documentNumber: 'X1' } };
    const answer = publicAccountInfo(stored);
    expect(answer).toEqual({ ...USD, paymentRails: ['ACH', 'WIRE', 'RTP', 'FEDNOW'], beneficiary: { beneficiaryType: 'BUSINESS', businessInfo: BUSINESS_INFO, ...BUSINESS_INFO, address: ADDRESS } });
    expect(publicAccountInfo(answer)).toEqual(answer);
  });

  it('gives each variant its rails, an XOF account its region, and a wallet none', () => {
    expect(publicAccountInfo({ accountType: 'INR_ACCOUNT', accountNumber: '123456789', ifsc: 'SBIN0000001', rail: 'RTGS' }).paymentRails).toEqual(['RTGS']);
    expect(publicAccountInfo({ accountType: 'INR_ACCOUNT', vpa: 'asha@okbank' }).paymentRails).toEqual(['UPI']);
    expect(publicAccountInfo({ accountType: 'GHS_ACCOUNT', bankName: 'MTN', phoneNumber: '+233241234567' }).paymentRails).toEqual(['MOBILE_MONEY']);
    expect(publicAccountInfo({ accountType: 'XOF_ACCOUNT', phoneNumber: '+22997123456', provider: 'MTN_MOMO' })).toMatchObject({ region: 'BJ', paymentRails: ['MOBILE_MONEY'] });
    expect(publicAccountInfo({ accountType: 'SPARK_WALLET', address: 'spark1…' })).toEqual({ accountType: 'SPARK_WALLET', address: 'spark1…' });
  });
});
