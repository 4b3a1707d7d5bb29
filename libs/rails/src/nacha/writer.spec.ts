import { isValidRoutingNumber, NachaValidationError } from './fields';
import type { NachaFileInput } from './model';
import { readNachaFile } from './reader';
import { writeNachaFile } from './writer';

const CREATED = new Date('2026-03-02T14:05:00Z');

function file(overrides: Partial<NachaFileInput> = {}): NachaFileInput {
  return {
    immediateDestination: '091000019',
    immediateDestinationName: 'Our ODFI Bank',
    immediateOrigin: '1234567890',
    immediateOriginName: 'Acme Payments',
    createdAt: CREATED,
    fileIdModifier: 'A',
    batches: [
      {
        secCode: 'PPD',
        companyName: 'Acme Payments Incorporated',
        companyIdentification: '1234567890',
        companyEntryDescription: 'payout',
        effectiveEntryDate: '2026-03-03',
        originatingDfi: '09100001',
        entries: [
          { reference: 'tx-1', direction: 'CREDIT', accountType: 'CHECKING', routingNumber: '021000021', accountNumber: '000123456789', amount: 12345, individualId: 'CUST1', name: 'José Müller-Ångström the Third of Many' },
          { reference: 'tx-2', direction: 'CREDIT', accountType: 'SAVINGS', routingNumber: '011000015', accountNumber: '5550001', amount: 1, individualId: 'CUST2', name: 'ann lee' },
          { reference: 'tx-3', direction: 'DEBIT', accountType: 'CHECKING', routingNumber: '021000021', accountNumber: '42', amount: 99_999, individualId: 'CUST3', name: 'Bo Pull' },
        ],
      },
      {
        secCode: 'CCD',
        companyName: 'Acme Payments',
        companyIdentification: '1234567890',
        companyEntryDescription: 'collect',
        effectiveEntryDate: '2026-03-03',
        originatingDfi: '09100001',
        entries: [
          { reference: 'tx-4', direction: 'DEBIT', accountType: 'SAVINGS', routingNumber: '091000019', accountNumber: '77-88', amount: 250_000_00, individualId: 'BIZ1', name: 'Widgets LLC' },
          { reference: 'tx-5', direction: 'CREDIT', accountType: 'CHECKING', routingNumber: '011000015', accountNumber: '9', amount: 0, prenote: true, individualId: 'BIZ2', name: 'Prenote Co' },
        ],
      },
    ],
    ...overrides,
  };
}

describe('writeNachaFile', () => {
  it('writes a file the reader reads back, with totals and entry hash that match an independent computation', () => {
    const input = file();
    const written = writeNachaFile(input);
    const lines = written.text.split('\n').slice(0, -1);
    expect(lines.every((l) => l.length === 94)).toBe(true);
    expect(lines.length % 10).toBe(0);

    const all = input.batches.flatMap((b) => b.entries);
    const credits = all.filter((e) => e.direction === 'CREDIT').reduce((s, e) => s + e.amount, 0);
    const debits = all.filter((e) => e.direction === 'DEBIT').reduce((s, e) => s + e.amount, 0);
    const hash = all.reduce((s, e) => s + Number(e.routingNumber.slice(0, 8)), 0) % 1e10;
    expect([credits, debits, hash]).toEqual([12_346, 25_099_999, 2_100_002 + 1_100_001 + 2_100_002 + 9_100_001 + 1_100_001]);

    const read = readNachaFile(written.text);
    expect(read.control).toEqual({ batchCount: 2, blockCount: 2, entryAddendaCount: 5, entryHash: hash, totalDebit: debits, totalCredit: credits });
    expect(read.batches.map((b) => [b.header.serviceClassCode, b.header.secCode, b.header.effectiveEntryDate, b.header.batchNumber])).toEqual([
      ['200', 'PPD', '2026-03-03', 1],
      ['200', 'CCD', '2026-03-03', 2],
    ]);
    expect(read.header).toMatchObject({ immediateDestination: '091000019', immediateOrigin: '1234567890', creationDate: '2026-03-02', creationTime: '1405', fileIdModifier: 'A', immediateOriginName: 'ACME PAYMENTS' });
    const entries = read.batches.flatMap((b) => b.entries);
    expect(entries.map((e) => [e.transactionCode, e.amount, e.routingNumber, e.accountNumber])).toEqual([
      ['22', 12345, '021000021', '000123456789'],
      ['32', 1, '011000015', '5550001'],
      ['27', 99999, '021000021', '42'],
      ['37', 25_000_000, '091000019', '77-88'],
      ['23', 0, '011000015', '9'],
    ]);
    // Names: upper-cased, accents dropped, cut to the 22-character field; company name cut to 16.
    expect(entries[0].name).toBe('JOSE MULLER-ANGSTROM T');
    expect(entries[1].name).toBe('ANN LEE');
    expect(read.batches[0].header.companyName).toBe('ACME PAYMENTS IN');
    // Trace numbers: ODFI 8 digits + a 7-digit sequence, returned to the caller by reference.
    expect(written.entries.map((e) => [e.reference, e.traceNumber, e.batchNumber])).toEqual([
      ['tx-1', '091000010000001', 1],
      ['tx-2', '091000010000002', 1],
      ['tx-3', '091000010000003', 1],
      ['tx-4', '091000010000004', 2],
      ['tx-5', '091000010000005', 2],
    ]);
    expect(entries.map((e) => e.traceNumber)).toEqual(written.entries.map((e) => e.traceNumber));
  });

  it('chooses service class 220 for credits only and 225 for debits only, and pads to 10 records with 9s', () => {
    const base = file().batches[0];
    const written = writeNachaFile(
      file({
        firstTraceSequence: 500,
        batches: [
          { ...base, entries: base.entries.filter((e) => e.direction === 'CREDIT') },
          { ...base, entries: base.entries.filter((e) => e.direction === 'DEBIT') },
        ],
      }),
    );
    const lines = written.text.split('\n').slice(0, -1);
    expect(lines.map((l) => l[0]).join('')).toBe('1566856899');
    expect(lines[1].slice(1, 4)).toBe('220');
    expect(lines[5].slice(1, 4)).toBe('225');
    expect(lines[9]).toBe('9'.repeat(94));
    expect(written.entries.map((e) => e.traceNumber.slice(8))).toEqual(['0000500', '0000501', '0000502']);
    expect(readNachaFile(written.text).control.blockCount).toBe(1);
  });

  it('counts blocks past ten records', () => {
    const base = file().batches[0];
    const entries = Array.from({ length: 12 }, (_, k) => ({ ...base.entries[0], reference: `tx-${k}`, amount: 100 + k }));
    const written = writeNachaFile(file({ batches: [{ ...base, entries }] }));
    // 1 header + 1 batch header + 12 entries + 1 batch control + 1 file control = 16 → 2 blocks, 4 padding records.
    expect(written.totals.blockCount).toBe(2);
    expect(written.text.split('\n').slice(0, -1)).toHaveLength(20);
    expect(readNachaFile(written.text).control.totalCredit).toBe(entries.reduce((s, e) => s + e.amount, 0));
  });

  function refusal(input: NachaFileInput): string {
    try {
      writeNachaFile(input);
    } catch (e) {
      expect(e).toBeInstanceOf(NachaValidationError);
      return (e as Error).message;
    }
    throw new Error('not refused');
  }

  function withEntry(patch: object): NachaFileInput {
    const f = file();
    f.batches[0].entries[0] = { ...f.batches[0].entries[0], ...patch };
    return f;
  }

  it('refuses amounts that are not positive integers of cents, and prenotes with an amount', () => {
    expect(refusal(withEntry({ amount: 0 }))).toBe('batches[0].entries[0].amount: must be a positive number of cents');
    expect(refusal(withEntry({ amount: -5 }))).toBe('batches[0].entries[0].amount: must be a positive number of cents');
    expect(refusal(withEntry({ amount: 12.5 }))).toBe('batches[0].entries[0].amount: must be an integer number of cents');
    expect(refusal(withEntry({ amount: 10_000_000_000 }))).toBe('batches[0].entries[0].amount: does not fit in 10 digits');
    expect(refusal(withEntry({ amount: 100, prenote: true }))).toBe('batches[0].entries[0].amount: a prenote carries a zero amount');
  });

  it('refuses a routing number with a wrong check digit, and bad identifiers', () => {
    expect(isValidRoutingNumber('021000021')).toBe(true);
    expect(isValidRoutingNumber('021000022')).toBe(false);
    expect(refusal(withEntry({ routingNumber: '021000022' }))).toBe('batches[0].entries[0].routingNumber: must be a 9-digit ABA routing number with a valid check digit');
    expect(refusal(file({ immediateDestination: '12345678' }))).toMatch(/^immediateDestination: /);
    expect(refusal(withEntry({ accountNumber: '123456789012345678' }))).toBe('batches[0].entries[0].accountNumber: must be 1 to 17 digits, letters or hyphens');
    expect(refusal(withEntry({ individualId: 'ID-LONGER-THAN-15' }))).toBe('batches[0].entries[0].individualId: longer than 15 characters');
    expect(refusal(withEntry({ name: '王小明' }))).toBe('batches[0].entries[0].name: contains characters NACHA does not allow');
    expect(refusal(withEntry({ traceSequence: 2 }))).toBe('batches[0].entries[2].traceSequence: trace number 091000010000002 is used twice in the file');
    expect(refusal(file({ fileIdModifier: 'a' }))).toBe('fileIdModifier: must be one character A-Z or 0-9');
    const f = file();
    f.batches[0].effectiveEntryDate = '2026-02-30';
    expect(refusal(f)).toBe('batches[0].effectiveEntryDate: must be a date YYYY-MM-DD');
  });

  it('writes payment related information as one 05 addenda per entry, counted in the controls, and reads it back', () => {
    const f = file();
    f.batches[0].entries[0].paymentRelatedInformation = 'Invoice 42 - Zoe, due 2026-03-31; ref #A/7';
    f.batches[1].entries[0].paymentRelatedInformation = 'x'.repeat(85);
    const written = writeNachaFile(f);
    const lines = written.text.trimEnd().split('\n');
    const entry = lines[2];
    const addenda = lines[3];
    expect(entry[0]).toBe('6');
    expect(entry[78]).toBe('1');
    expect(addenda).toHaveLength(94);
    expect(addenda.slice(0, 3)).toBe('705');
    expect(addenda.slice(3, 83)).toBe('Invoice 42 - Zoe, due 2026-03-31; ref #A/7'.padEnd(80, ' '));
    expect(addenda.slice(83, 87)).toBe('0001');
    expect(addenda.slice(87)).toBe(entry.slice(87)); // the entry's trace sequence
    expect(lines[4][78]).toBe('0'); // an entry without remittance has no addenda
    expect(written.totals.entryAddendaCount).toBe(7);
    const read = readNachaFile(written.text);
    expect(read.batches.map((b) => b.control.entryAddendaCount)).toEqual([4, 3]);
    expect(read.control.entryAddendaCount).toBe(7);
    expect(read.batches[0].entries[0].addenda).toEqual([{ line: 4, type: '05', paymentRelatedInformation: 'Invoice 42 - Zoe, due 2026-03-31; ref #A/7', addendaSequence: 1, entryDetailSequence: entry.slice(87) }]);
    expect(read.batches[1].entries[0].addenda).toMatchObject([{ type: '05', paymentRelatedInformation: 'x'.repeat(80) }]);
    expect(read.batches[0].entries[1].addenda).toEqual([]);
  });

  it('refuses payment related information NACHA cannot carry, and an addenda that names another entry', () => {
    expect(refusal(withEntry({ paymentRelatedInformation: 'Zoë' }))).toBe('batches[0].entries[0].paymentRelatedInformation: contains characters NACHA does not allow (printable ASCII only)');
    expect(refusal(withEntry({ paymentRelatedInformation: '  ' }))).toBe('batches[0].entries[0].paymentRelatedInformation: is empty (leave it out instead)');
    const f = file();
    f.batches[0].entries[0].paymentRelatedInformation = 'Invoice 42';
    const text = writeNachaFile(f).text.split('\n');
    text[3] = text[3].slice(0, 87) + '9999999';
    expect(() => readNachaFile(text.join('\n'))).toThrow(/line 4: entry detail sequence number 9999999 is not the last 7 digits/);
  });
});
