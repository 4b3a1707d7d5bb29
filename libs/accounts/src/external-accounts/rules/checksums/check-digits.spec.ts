import { abaRoutingNumberValid, cbuValid, clabeValid } from './bank-check-digits';
import { cnpjValid, cpfValid } from './brazil-tax-ids';

describe('national check digits', () => {
  it.each(['021000021', '026009593', '011000015', '121000248'])('ABA routing number %s holds', (n) => expect(abaRoutingNumberValid(n)).toBe(true));
  it.each(['021000022', '123456789', '02100002', '02100002a'])('ABA routing number %s fails', (n) => expect(abaRoutingNumberValid(n)).toBe(false));

  it('CLABE: a published example holds, each other final digit fails', () => {
    expect(clabeValid('032180000118359719')).toBe(true);
    for (let d = 0; d <= 9; d++) if (d !== 9) expect(clabeValid(`03218000011835971${d}`)).toBe(false);
    expect(clabeValid('03218000011835971')).toBe(false);
  });

  it('CBU: both blocks are checked', () => {
    expect(cbuValid('2850590940090418135201')).toBe(true);
    expect(cbuValid('2850590840090418135201')).toBe(false); // bank block
    expect(cbuValid('2850590940090418135202')).toBe(false); // account block
    expect(cbuValid('285059094009041813520')).toBe(false);
  });

  it('CPF and CNPJ: valid numbers hold; a changed check digit, a wrong length or repeated digits fail', () => {
    expect(cpfValid('52998224725')).toBe(true);
    expect(cpfValid('52998224715')).toBe(false);
    expect(cpfValid('52998224726')).toBe(false);
    expect(cpfValid('11111111111')).toBe(false);
    expect(cpfValid('5299822472')).toBe(false);
    expect(cnpjValid('11222333000181')).toBe(true);
    expect(cnpjValid('11222333000191')).toBe(false);
    expect(cnpjValid('11222333000182')).toBe(false);
    expect(cnpjValid('00000000000000')).toBe(false);
  });
});
