import { ApiError } from '@payments/contracts';
import { CsvFileError, CUSTOMER_CSV_ROWS_MAX, headerProblems, parseCustomerCsv, readHeader } from './customer-csv';

describe('customer CSV parsing', () => {
  it('reads quoted commas, doubled quotes, line breaks, CRLF and a BOM; skips blank lines', async () => {
    const csv = '\uFEFFumaAddress,platformCustomerId,customerType,fullName\r\n$a@x.io,a,INDIVIDUAL,"Doe, ""JJ""\r\nJane"\r\n\r\n,,,\r\n$b@x.io,b,BUSINESS,\r\n';
    const parsed = await parseCustomerCsv(csv);
    expect(parsed.header).toEqual(['umaAddress', 'platformCustomerId', 'customerType', 'fullName']);
    expect(parsed.rows).toEqual([['$a@x.io', 'a', 'INDIVIDUAL', 'Doe, "JJ"\r\nJane'], ['$b@x.io', 'b', 'BUSINESS', '']]);
  });

  it('keeps rows with a wrong field count (they become row errors), but fails an unclosed quote with its row', async () => {
    expect((await parseCustomerCsv('umaAddress,platformCustomerId,customerType\n$a@x.io,a\n')).rows).toEqual([['$a@x.io', 'a']]);
    const failure = await parseCustomerCsv('umaAddress,platformCustomerId,customerType\n$a@x.io,a,INDIVIDUAL\n$b@x.io,"b,BUSINESS\n').catch((e) => e);
    expect(failure).toBeInstanceOf(CsvFileError);
    expect(failure.error).toMatchObject({ row: 2, code: 'INVALID_INPUT' });
  });

  it('multi-byte characters survive the chunked parse', async () => {
    const name = 'Zoë Ærøskøbing 名前 🙂'.repeat(4000); // crosses the 64 KB chunk boundary mid-character
    const parsed = await parseCustomerCsv(`umaAddress,platformCustomerId,customerType,fullName\n$a@x.io,a,INDIVIDUAL,${name}\n`);
    expect(parsed.rows[0][3]).toBe(name);
  });

  it('bounds the number of rows', async () => {
    const csv = `umaAddress,platformCustomerId,customerType\n${'$a@x.io,a,INDIVIDUAL\n'.repeat(CUSTOMER_CSV_ROWS_MAX + 1)}`;
    await expect(parseCustomerCsv(csv)).rejects.toBeInstanceOf(CsvFileError);
  });

  it('names every header problem; readHeader answers 400 before any job exists', () => {
    expect(headerProblems([' umaAddress ', 'platformCustomerId', 'customerType', 'fullname', 'fullName', 'fullName']).map((p) => p.message)).toEqual([
      'unknown column "fullname"',
      'column "fullName" appears twice',
    ]);
    expect(headerProblems(['fullName']).map((p) => p.message)).toEqual(['missing column "umaAddress"', 'missing column "platformCustomerId"', 'missing column "customerType"']);
    expect(() => readHeader('')).toThrow(ApiError);
    expect(() => readHeader('"umaAddress,platformCustomerId')).toThrow(/not valid CSV/);
    expect(readHeader('umaAddress,customerType,platformCustomerId\n"unclosed')).toEqual(['umaAddress', 'customerType', 'platformCustomerId']);
  });
});
