import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { NachaFormatError, readNachaFile } from './reader';
import { notificationsOfChange, returnReason, returnsOf } from './returns';

const fixture = (name: string) => readFileSync(join(__dirname, 'fixtures', name), 'utf8');

function refusal(text: string): NachaFormatError {
  try {
    readNachaFile(text);
  } catch (e) {
    expect(e).toBeInstanceOf(NachaFormatError);
    return e as NachaFormatError;
  }
  throw new Error('not refused');
}

describe('readNachaFile', () => {
  it('reads a hand-written return file (CRLF) with an R01 and an R03, mapped to the published failure reasons', () => {
    const file = readNachaFile(fixture('return-r01-r03.ach'));
    expect(file.control).toMatchObject({ batchCount: 1, blockCount: 1, entryAddendaCount: 4, entryHash: 18_200_002, totalDebit: 12345, totalCredit: 50000 });
    const returns = returnsOf(file);
    expect(returns.map((r) => [r.originalTraceNumber, r.reason.code, r.reason.outgoing, r.reason.incoming, r.amount, r.transactionCode, r.secCode])).toEqual([
      ['091000010000001', 'R01', 'PAYOUT_RETURNED', 'COLLECTION_FAILED', 12345, '26', 'PPD'],
      ['091000010000002', 'R03', 'ACCOUNT_INVALID', 'COLLECTION_FAILED', 50000, '21', 'PPD'],
    ]);
    expect(returns[0]).toMatchObject({ traceNumber: '021000020000101', name: 'JANE DOE', individualId: 'TXN0000000001', information: 'INSUFFICIENT FUNDS', line: 3 });
    expect(returns[0].reason.description).toBe('Insufficient funds');
    expect(notificationsOfChange(file)).toEqual([]);
  });

  it('reads a notification of change C01 with its corrected account number', () => {
    const file = readNachaFile(fixture('noc-c01.ach'));
    expect(file.batches[0].header.secCode).toBe('COR');
    expect(returnsOf(file)).toEqual([]);
    expect(notificationsOfChange(file)).toEqual([
      {
        originalTraceNumber: '091000010000003', changeCode: 'C01', description: 'Incorrect DFI account number', correctedData: '0001234567890',
        traceNumber: '021000020000201', routingNumber: '091000019', accountNumber: '12345678', individualId: 'TXN0000000003', name: 'JANE DOE', line: 3,
      },
    ]);
  });

  it('reads records sent without line breaks', () => {
    const joined = fixture('noc-c01.ach').split('\n').join('');
    expect(notificationsOfChange(readNachaFile(joined))).toHaveLength(1);
  });

  it.each([
    ['malformed-record-length.ach', 5, 'NACHA file refused: line 5: record length 95, expected 94'],
    ['malformed-entry-hash.ach', 7, 'NACHA file refused: line 7: batch control entry hash is 18200003 but the records give 18200002'],
    ['malformed-counts.ach', 8, 'NACHA file refused: line 8: file control entry addenda count is 3 but the records give 4'],
    ['malformed-truncated.ach', 5, 'NACHA file refused: line 5: the file ends inside batch 1 without its batch control (type 8); it is truncated'],
    ['not-nacha.csv', 1, 'NACHA file refused: line 1: not a NACHA file: it does not begin with a file header record ("101")'],
  ])('refuses %s whole', (name, line, message) => {
    const error = refusal(fixture(name));
    expect(error.message).toBe(message);
    expect(error.line).toBe(line);
  });

  it('refuses totals, unknown records, broken addenda and bad padding', () => {
    const good = fixture('return-r01-r03.ach').split('\r\n').slice(0, -1);
    const edit = (i: number, from: number, text: string) => {
      const lines = [...good];
      lines[i] = lines[i].slice(0, from) + text + lines[i].slice(from + text.length);
      return lines.join('\n') + '\n';
    };
    expect(refusal(edit(6, 20, '000000012346')).message).toBe('NACHA file refused: line 7: batch control total debit is 12346 but the records give 12345');
    expect(refusal(edit(7, 43, '000000050001')).message).toBe('NACHA file refused: line 8: file control total credit is 50001 but the records give 50000');
    expect(refusal(edit(2, 0, '4')).message).toBe('NACHA file refused: line 3: expected an entry (type 6), addenda (type 7) or batch control (type 8), found record type "4"');
    expect(refusal(edit(3, 3, 'X01')).message).toBe('NACHA file refused: line 4: return reason code "X01" is not R followed by two digits');
    expect(refusal(edit(2, 78, '0')).message).toBe('NACHA file refused: line 3: addenda follow an entry whose addenda indicator is 0');
    expect(refusal(edit(2, 29, '00000123A5')).message).toBe('NACHA file refused: line 3: amount "00000123A5" (positions 30-39) is not numeric');
    expect(refusal(edit(9, 0, '8')).message).toBe('NACHA file refused: line 10: only 9-filled padding records may follow the file control, found record type "8"');
    expect(refusal(good.slice(0, 8).join('\n')).message).toBe('NACHA file refused: 8 records is not a whole number of blocks of 10');
    expect(refusal('').message).toBe('NACHA file refused: the file is empty');
  });
});

describe('returnReason', () => {
  it('maps account problems to account reasons, OFAC to compliance, the rest to PAYOUT_RETURNED', () => {
    expect(['R02', 'R03', 'R04', 'R13', 'R16', 'R99'].map((c) => returnReason(c).outgoing)).toEqual([
      'ACCOUNT_CANNOT_RECEIVE', 'ACCOUNT_INVALID', 'ACCOUNT_INVALID', 'ACCOUNT_INVALID', 'COMPLIANCE_REJECTED', 'PAYOUT_RETURNED',
    ]);
  });
});
