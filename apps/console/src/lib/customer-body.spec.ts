import { customerBody } from './customer-body';

describe('the customer form’s body', () => {
  it('sends an individual only what was filled, the address nested', () => {
    expect(customerBody({ customerType: 'INDIVIDUAL', fullName: 'Ada Lovelace', birthDate: '1815-12-10', line1: '12 St James Sq', city: 'London', country: 'GB', legalName: undefined, email: '' })).toEqual({
      customerType: 'INDIVIDUAL',
      fullName: 'Ada Lovelace',
      birthDate: '1815-12-10',
      address: { line1: '12 St James Sq', city: 'London', country: 'GB' },
    });
  });

  it('puts a business’s fields in businessInfo (with its country) and drops the individual ones', () => {
    expect(customerBody({ customerType: 'BUSINESS', legalName: 'Acme LLC', registrationNumber: 'R-1', fullName: 'ignored', country: 'US' })).toEqual({
      customerType: 'BUSINESS',
      businessInfo: { legalName: 'Acme LLC', registrationNumber: 'R-1', country: 'US' },
      address: { country: 'US' },
    });
  });

  it('sends no address when none was typed', () => {
    expect(customerBody({ customerType: 'INDIVIDUAL', fullName: 'X' })).toEqual({ customerType: 'INDIVIDUAL', fullName: 'X' });
  });
});
