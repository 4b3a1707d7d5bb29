import { sandboxBeneficiaryCheck, sandboxSuffix } from './beneficiary-check';

const usd = (accountNumber: string) => ({ accountType: 'USD_ACCOUNT', accountNumber, routingNumber: '021000021' });

describe('sandbox beneficiary-name check (seed: account identifier suffixes 102-107)', () => {
  it.each([
    ['123456102', { outcome: 'STATUS', status: 'NOT_MATCHED' }],
    ['123456103', { outcome: 'STATUS', status: 'PARTIAL_MATCH' }],
    ['123456104', { outcome: 'STATUS', status: 'PENDING' }],
    ['123456105', { outcome: 'INVALID_ACCOUNT', httpStatus: 400, code: 'INVALID_BANK_ACCOUNT', message: expect.any(String) }],
    ['123456106', { outcome: 'STATUS', status: 'UNSUPPORTED' }],
    ['123456107', { outcome: 'STATUS', status: 'CHECKED_BY_RECEIVING_FI' }],
    ['123456101', { outcome: 'STATUS', status: 'MATCHED' }],
    ['123456108', { outcome: 'STATUS', status: 'MATCHED' }],
    ['123456002', { outcome: 'STATUS', status: 'MATCHED' }],
    ['123451020', { outcome: 'STATUS', status: 'MATCHED' }],
  ])('account number %s → %j', (accountNumber, expected) => {
    expect(sandboxBeneficiaryCheck('USD_ACCOUNT', usd(accountNumber))).toEqual(expected);
  });

  it('reads the primary identifier of each type', () => {
    expect(sandboxBeneficiaryCheck('EUR_ACCOUNT', { iban: 'DE00000000000000000102' })).toEqual({ outcome: 'STATUS', status: 'NOT_MATCHED' });
    expect(sandboxBeneficiaryCheck('MXN_ACCOUNT', { clabeNumber: '032180000118359103' })).toEqual({ outcome: 'STATUS', status: 'PARTIAL_MATCH' });
    expect(sandboxBeneficiaryCheck('KES_ACCOUNT', { phoneNumber: '+254712345104' })).toEqual({ outcome: 'STATUS', status: 'PENDING' });
    expect(sandboxBeneficiaryCheck('ARS_ACCOUNT', { cbu: '2850590940090418135106' })).toEqual({ outcome: 'STATUS', status: 'UNSUPPORTED' });
    expect(sandboxBeneficiaryCheck('COP_ACCOUNT', { bankName: 'NEQUI', phoneNumber: '+573001234107' })).toEqual({ outcome: 'STATUS', status: 'CHECKED_BY_RECEIVING_FI' });
  });

  it('for identifiers with a domain, reads the digits at the end of the user part', () => {
    expect(sandboxBeneficiaryCheck('INR_ACCOUNT', { vpa: 'asha102@okaxis' })).toEqual({ outcome: 'STATUS', status: 'NOT_MATCHED' });
    expect(sandboxBeneficiaryCheck('BRL_ACCOUNT', { pixKeyType: 'EMAIL', pixKey: 'testuser.105@pix.com.br' }).outcome).toBe('INVALID_ACCOUNT');
    expect(sandboxBeneficiaryCheck('INR_ACCOUNT', { vpa: 'asha@bank102' })).toEqual({ outcome: 'STATUS', status: 'MATCHED' });
  });

  it('does not apply to crypto wallets (no beneficiary) or unknown types', () => {
    expect(sandboxBeneficiaryCheck('ETHEREUM_WALLET', { address: '0x0000000000000000000000000000000000000105' })).toEqual({ outcome: 'NOT_APPLICABLE' });
    expect(sandboxBeneficiaryCheck('NOPE_ACCOUNT', { accountNumber: '105' })).toEqual({ outcome: 'NOT_APPLICABLE' });
  });
});

describe('sandboxSuffix (shared with the 002-007 transfer and quote suffixes)', () => {
  it.each([
    ['USD_ACCOUNT', { accountNumber: '987654002' }, '002'],
    ['SWIFT_ACCOUNT', { iban: 'GB29NWBK60161331926007', accountNumber: '1' }, '007'],
    ['SWIFT_ACCOUNT', { accountNumber: 'ABC123004' }, '004'],
    ['SLV_ACCOUNT', { phoneNumber: '+50370123005' }, '005'],
    ['LIGHTNING', { lightningAddress: 'alice003@example.com' }, '003'],
    ['LIGHTNING', { invoice: 'lnbc1xyz006' }, '006'],
    ['ETHEREUM_WALLET', { address: '0xabc0000000000000000000000000000000000002' }, '002'],
    ['SPARK_WALLET', { address: 'spark1pgss9z2gpzrnhztwy8ffs44x67angma38sqewwddhxlsk65t0c5d5576quly2j' }, undefined],
    ['USD_ACCOUNT', { accountNumber: '12' }, undefined],
    ['USD_ACCOUNT', {}, undefined],
    ['LIGHTNING', { lightningAddress: 'alice@example002.com' }, undefined],
    ['NOPE', { accountNumber: '987654002' }, undefined],
  ])('%s %j → %s', (accountType, accountInfo, expected) => {
    expect(sandboxSuffix(accountType, accountInfo)).toBe(expected);
  });
});
