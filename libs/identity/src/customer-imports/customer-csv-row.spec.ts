import { CUSTOMER_CSV_COLUMNS, CustomerCsvColumn } from '@payments/contracts';
import { prepareRow, toRowErrors } from './customer-csv-row';

const header = [...CUSTOMER_CSV_COLUMNS] as CustomerCsvColumn[];
const cells = (values: Partial<Record<CustomerCsvColumn, string>>) => header.map((c) => values[c] ?? '');
const address = { addressLine1: '1 Main St', city: 'Springfield', state: 'IL', postalCode: '62701', country: 'US' };

describe('CSV row → customer request', () => {
  it('maps an individual onto the POST /customers shape', () => {
    const row = prepareRow(header, cells({ umaAddress: '$a@x.io', platformCustomerId: 'a', customerType: 'INDIVIDUAL', fullName: ' Ada ', birthDate: '1990-01-02', email: 'a@x.io', platformAccountId: 'acct', description: 'vip', ...address }), 4);
    expect(row).toEqual({
      rowNumber: 4,
      correlationId: 'a',
      request: { customerType: 'INDIVIDUAL', platformCustomerId: 'a', umaAddress: '$a@x.io', fullName: 'Ada', birthDate: '1990-01-02', email: 'a@x.io', address: { line1: '1 Main St', city: 'Springfield', state: 'IL', postalCode: '62701', country: 'US' } },
      keys: ['platformCustomerId:a', 'umaAddress:$a@x.io'],
    });
  });

  it('maps a business, waiving only the absence of incorporatedOn and taxId', () => {
    const ok = prepareRow(header, cells({ umaAddress: '$b@x.io', platformCustomerId: 'b', customerType: 'BUSINESS', businessLegalName: 'B LLC', businessRegistrationNumber: 'R1', ...address }), 1);
    expect(ok).toMatchObject({ request: { businessInfo: { legalName: 'B LLC', country: 'US', registrationNumber: 'R1' } } });
    const badTax = prepareRow(header, cells({ umaAddress: '$b@x.io', platformCustomerId: 'b', customerType: 'BUSINESS', businessLegalName: 'B LLC', businessTaxId: 'x'.repeat(65), ...address }), 1);
    expect(badTax).toMatchObject({ errors: [{ row: 1, field: 'businessTaxId', code: 'INVALID_INPUT' }] });
  });

  it('reports every missing, misplaced and invalid cell by column, once', () => {
    const row = prepareRow(header, cells({ umaAddress: 'nope', platformCustomerId: 'c', customerType: 'BUSINESS', fullName: 'x', ...address, country: 'XX' }), 7);
    expect('errors' in row && row.errors.map((e) => e.field)).toEqual(expect.arrayContaining(['businessLegalName', 'fullName', 'umaAddress', 'country']));
    expect('errors' in row && row.errors).toHaveLength(4);
    expect(prepareRow(header, cells({ customerType: 'PERSON' }), 1)).toMatchObject({ errors: [{ field: 'customerType' }] });
    expect(prepareRow(header, ['a', 'b'], 2)).toMatchObject({ errors: [{ row: 2, code: 'INVALID_INPUT', message: `the row has 2 fields; the header has ${header.length}` }] });
  });

  it('names columns in errors coming back from the customer API', () => {
    expect(toRowErrors(3, 'p', 'INVALID_INPUT', 'invalid', [{ field: 'address.postalCode', message: 'US postal codes are ZIP or ZIP+4' }, { field: 'currencies', message: 'x' }])).toEqual([
      { row: 3, code: 'INVALID_INPUT', correlationId: 'p', field: 'postalCode', message: 'US postal codes are ZIP or ZIP+4' },
      { row: 3, code: 'INVALID_INPUT', correlationId: 'p', message: 'x' },
    ]);
    expect(toRowErrors(3, undefined, 'INVALID_CURRENCY', 'no currencies')).toEqual([{ row: 3, code: 'INVALID_CURRENCY', message: 'no currencies' }]);
  });
});
