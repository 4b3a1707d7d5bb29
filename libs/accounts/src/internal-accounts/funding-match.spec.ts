import { fundingReferencesIn, nextVirtualAccountNumber } from './funding-match';
import { assertDepositAccountsValid } from './deposit-account-check';

describe('incoming credits: the reference code in what the sender wrote', () => {
  it.each([
    ['exactly', 'PP3F2A9C01BE', ['PP3F2A9C01BE']],
    ['in lower case, inside other words', 'invoice 7 pp3f2a9c01be thanks', ['PP3F2A9C01BE']],
    ['with spaces and dashes in it', 'PP3F 2A9C-01BE', ['PP3F2A9C01BE']],
    ['twice, once', 'PP3F2A9C01BE / PP3F2A9C01BE', ['PP3F2A9C01BE']],
    ['not at all (too short)', 'PP3F2A9C01', []],
    ['not at all (not hexadecimal)', 'PP3F2A9C01BZ', []],
  ])('finds it %s', (_how, text, expected) => {
    expect(fundingReferencesIn(text)).toEqual(expected);
  });
});

describe('virtual account numbers: the next of a range', () => {
  const range = { from: '0088000000', to: '0088000002' };
  it('starts at the range, keeps its leading zeros, and ends with it', () => {
    expect(nextVirtualAccountNumber(range, null)).toBe('0088000000');
    expect(nextVirtualAccountNumber(range, '0088000000')).toBe('0088000001');
    expect(nextVirtualAccountNumber(range, '0088000002')).toBeNull();
  });
});

describe('deposit accounts: check digits at start', () => {
  const base = { bankName: 'B', accountHolderName: 'H' };
  it('refuses a routing number or an IBAN with a wrong check digit, naming it', () => {
    expect(() => assertDepositAccountsValid({ connectors: [], depositAccounts: [{ ...base, currency: 'USD', routingNumber: '021000022', accountNumber: '1234' }] })).toThrow('depositAccounts[0]: routingNumber "021000022" fails the ABA check digit');
    expect(() => assertDepositAccountsValid({ connectors: [], depositAccounts: [{ ...base, currency: 'EUR', iban: 'DE88370400440532013000', bic: 'COBADEFFXXX' }] })).toThrow('depositAccounts[0]: iban "DE88370400440532013000"');
    expect(() => assertDepositAccountsValid({ connectors: [], depositAccounts: [{ ...base, currency: 'EUR', iban: 'DE89370400440532013000', bic: 'COBADEFFXXX' }] })).not.toThrow();
  });
});
