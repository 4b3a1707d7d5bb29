import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ApiError, RailConnectorConfig } from '@payments/contracts';
import { readNachaFile } from '@payments/rails';
import type { RailOrder, RailPaymentKind } from '../rail-connector';
import type { RailPaymentRow } from '../rail-payments';
import { fileIdModifier, nachaRailKind } from './nacha-format';

const CONFIG: RailConnectorConfig = {
  id: 'ach-main',
  kind: 'NACHA',
  routes: [{ currency: 'USD', paymentRail: 'ACH', directions: ['PAYOUT', 'PULL'] }],
  outboxDirectory: '/tmp/out',
  inboxDirectory: '/tmp/in',
  nacha: {
    immediateDestination: '091000019', immediateDestinationName: 'Our ODFI Bank', immediateOrigin: '1234567890', immediateOriginName: 'Acme Payments',
    companyName: 'Acme Payments', companyIdentification: '1234567890', originatingDfi: '09100001', settlementHourUtc: 22, prenoteWaitBankingDays: 3, debitHoldBankingDays: 2,
  },
};
const outbound = nachaRailKind.outbound(CONFIG);
const [inbound] = nachaRailKind.inbound(CONFIG);

const JANE = { name: 'Jane Doe', type: 'INDIVIDUAL' as const };
const order = (over: Partial<RailOrder> = {}): RailOrder => ({
  paymentId: 'Transaction:1', platformId: 'Platform:1', mode: 'PRODUCTION', kind: 'CREDIT', paymentRail: 'ACH', currency: 'USD', amount: 12_345, externalAccountId: 'ExternalAccount:1',
  accountInfo: { accountType: 'USD_ACCOUNT', routingNumber: '021000021', accountNumber: '123456789' }, beneficiary: JANE, reference: '0192F3A4B5C6D7E8', ...over,
});
/** A rail_payments row as the connector reads it back: the order, its sequence and the reference given at submission. */
const row = (paymentId: string, kind: RailPaymentKind, sequence: number, over: Partial<RailOrder> = {}): RailPaymentRow => {
  const o = order({ paymentId, kind, ...over });
  return {
    payment_id: paymentId, connector_id: 'ach-main', platform_id: o.platformId, mode: 'PRODUCTION', kind, payment_rail: 'ACH', currency: 'USD', amount: String(o.amount),
    external_account_id: o.externalAccountId, sequence: String(sequence), rail_reference: outbound.railReference(o, sequence), rail_order: o, status: 'SUBMITTED',
    file_id: null, provider_reference: null, last_sequence: null, settles_at: null, submitted_at: new Date(), updated_at: new Date(),
  };
};
const ROWS: RailPaymentRow[] = [
  row('Transaction:credit-ppd', 'CREDIT', 101),
  row('Transaction:credit-ccd', 'CREDIT', 102, { amount: 500_000, beneficiary: { name: 'Acme LLC', type: 'BUSINESS' }, accountInfo: { routingNumber: '026009593', accountNumber: '987654321', bankAccountType: 'SAVINGS' } }),
  row('Transaction:debit', 'DEBIT', 103, { amount: 2_500, beneficiary: { name: 'John Roe', type: 'INDIVIDUAL' }, accountInfo: { routingNumber: '011000015', accountNumber: '555000111' }, reference: 'PULL42' }),
  row('Prenote:ExternalAccount:1', 'PRENOTE', 104, { amount: 0, reference: 'A1B2C3D4E5F6' }),
  // A sequence past 10^7: the trace number keeps its last 7 digits.
  row('Transaction:credit-ppd-2', 'CREDIT', 10_000_105, { amount: 100, accountInfo: { routingNumber: '011000015', accountNumber: '42-77' } }),
];
const META = { createdAt: '2026-11-25T15:30:00.000Z', sequenceOfDay: 2, fileId: 'RailFile:1' };

/** The records of a written file, read by position (not by the reader under test). */
const records = (content: Buffer) => content.toString('ascii').split('\n').filter((l) => l !== '');

describe('NACHA format: outbound files', () => {
  it('writes PPD and CCD batches per purpose that the strict reader accepts, with totals and entry hash recomputed here', () => {
    const written = outbound.write(ROWS, META);
    const file = readNachaFile(written.content.toString('ascii'));

    expect(file.header).toMatchObject({ immediateDestination: '091000019', immediateOrigin: '1234567890', creationDate: '2026-11-25', creationTime: '1530', fileIdModifier: 'B' });
    expect(file.batches.map((b) => [b.header.secCode, b.header.serviceClassCode, b.header.companyEntryDescription, b.header.effectiveEntryDate, b.entries.map((e) => e.transactionCode)])).toEqual([
      ['PPD', '220', 'PAYOUT', '2026-11-27', ['22', '22']],
      ['CCD', '220', 'PAYOUT', '2026-11-27', ['32']],
      ['PPD', '225', 'COLLECTION', '2026-11-27', ['27']],
      ['PPD', '220', 'PRENOTE', '2026-11-27', ['23']],
    ]);
    const ppd = file.batches[0].entries[0];
    expect(ppd).toMatchObject({ routingNumber: '021000021', accountNumber: '123456789', amount: 12_345, individualId: '192F3A4B5C6D7E8', name: 'JANE DOE' });
    expect(file.batches[1].entries[0]).toMatchObject({ name: 'ACME LLC', accountNumber: '987654321', amount: 500_000 });
    expect(file.batches[3].entries[0]).toMatchObject({ amount: 0, individualId: 'A1B2C3D4E5F6' });

    // Trace numbers are the references given at submission (ODFI + sequence mod 10^7).
    const traces = Object.fromEntries(file.batches.flatMap((b) => b.entries.map((e) => [e.traceNumber, e.amount])));
    expect(Object.keys(traces).sort()).toEqual(ROWS.map((r) => r.rail_reference).sort());
    expect(ROWS[4].rail_reference).toBe('091000010000105');

    // Independent recomputation from the records' positions.
    const lines = records(written.content);
    const entries = lines.filter((l) => l[0] === '6');
    const amount = (l: string) => Number(l.slice(29, 39));
    const debit = entries.filter((l) => ['27', '37'].includes(l.slice(1, 3))).reduce((s, l) => s + amount(l), 0);
    const credit = entries.filter((l) => ['22', '32', '23', '33'].includes(l.slice(1, 3))).reduce((s, l) => s + amount(l), 0);
    const hash = entries.reduce((s, l) => s + Number(l.slice(3, 11)), 0) % 10_000_000_000;
    const control = lines.find((l) => l[0] === '9' && l !== '9'.repeat(94))!;
    expect(lines).toHaveLength(20); // 1 + 4 × 2 + 5 + 1 = 15 records, padded to two blocks
    expect(lines.every((l) => l.length === 94)).toBe(true);
    expect([Number(control.slice(1, 7)), Number(control.slice(7, 13)), Number(control.slice(13, 21)), Number(control.slice(21, 31)), Number(control.slice(31, 43)), Number(control.slice(43, 55))]).toEqual([4, 2, 5, hash, debit, credit]);
    expect([debit, credit, hash]).toEqual([2_500, 12_345 + 500_000 + 0 + 100, 2100002 + 2600959 + 1100001 + 2100002 + 1100001]);

    expect(written).toMatchObject({ entryCount: 5, totalAmount: 514_945 });
    expect(written.summary).toEqual({ effectiveEntryDate: '2026-11-27', fileIdModifier: 'B', batchCount: 4, entryAddendaCount: 5, entryHash: hash, totalDebit: debit, totalCredit: credit, blockCount: 2 });
  });

  it('is deterministic: the same rows and meta give the same bytes, whatever order the rows come in', () => {
    const first = outbound.write(ROWS, META).content;
    expect(outbound.write(ROWS, META).content.equals(first)).toBe(true);
    expect(outbound.write([...ROWS].reverse(), META).content.equals(first)).toBe(true);
    expect(outbound.write(ROWS, { ...META, sequenceOfDay: 3 }).content.equals(first)).toBe(false);
  });

  it('settles a credit on its effective date (Thanksgiving skipped), a pull after its hold, a prenote after its wait', () => {
    // Created Wednesday 2026-11-25; Thursday the 26th is Thanksgiving: effective Friday the 27th.
    expect(outbound.write(ROWS, META).settlesAt).toEqual({
      'Transaction:credit-ppd': '2026-11-27T22:00:00.000Z',
      'Transaction:credit-ccd': '2026-11-27T22:00:00.000Z',
      'Transaction:credit-ppd-2': '2026-11-27T22:00:00.000Z',
      'Transaction:debit': '2026-12-01T22:00:00.000Z', // + 2 banking days: Monday 30th, Tuesday 1st
      'Prenote:ExternalAccount:1': '2026-12-02T22:00:00.000Z', // + 3 banking days
    });
  });

  it('takes the UTC date of the file and skips a weekend: made on a Friday, effective on Monday', () => {
    const written = outbound.write([ROWS[0]], { ...META, createdAt: '2026-03-06T23:59:00.000Z' });
    expect(readNachaFile(written.content.toString('ascii')).batches[0].header.effectiveEntryDate).toBe('2026-03-09');
    expect(written.settlesAt).toEqual({ 'Transaction:credit-ppd': '2026-03-09T22:00:00.000Z' });
  });

  it('numbers a day’s files A–Z then 0–9 and refuses a 37th', () => {
    expect([1, 2, 26, 27, 36].map(fileIdModifier)).toEqual(['A', 'B', 'Z', '0', '9']);
    expect(() => fileIdModifier(37)).toThrow(/36 files a day.*file 37 of the day/);
    expect(() => outbound.write(ROWS, { ...META, sequenceOfDay: 37 })).toThrow(/36 files a day/);
  });

  it('refuses a row whose recorded trace number is not ODFI + sequence (the file would not match its returns)', () => {
    expect(() => outbound.write([{ ...ROWS[0], rail_reference: '091000020000101' }], META)).toThrow(/payment Transaction:credit-ppd: its trace number 091000020000101/);
  });
});

describe('NACHA format: validation names the field', () => {
  const refusal = (o: RailOrder): { field: string; message: string } => {
    try {
      outbound.validate(o);
    } catch (error) {
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).code).toBe('INVALID_INPUT');
      const [detail] = (error as ApiError).details!.errors as { field: string; message: string }[];
      expect((error as ApiError).message).toBe(`${detail.field}: ${detail.message}`);
      return detail;
    }
    throw new Error('accepted');
  };

  it('accepts payouts, pulls and prenotes it can write (bankAccountType optional, CHECKING by default)', () => {
    for (const o of [order(), order({ kind: 'DEBIT' }), order({ kind: 'PRENOTE', amount: 0 }), order({ amount: 9_999_999_999, accountInfo: { routingNumber: '026009593', accountNumber: '12-AB', bankAccountType: 'SAVINGS' } })]) {
      expect(() => outbound.validate(o)).not.toThrow();
    }
  });

  it.each([
    ['a bad ABA check digit', order({ accountInfo: { routingNumber: '021000022', accountNumber: '1' } }), 'accountInfo.routingNumber'],
    ['an 8-digit routing number', order({ accountInfo: { routingNumber: '02100002', accountNumber: '1' } }), 'accountInfo.routingNumber'],
    ['EUR', order({ currency: 'EUR' }), 'currency'],
    ['no beneficiary', order({ beneficiary: null }), 'beneficiary.name'],
    ['a name NACHA cannot write', order({ beneficiary: { name: 'Zoë 😀', type: 'INDIVIDUAL' } }), 'beneficiary.name'],
    ['an 18-character account number', order({ accountInfo: { routingNumber: '021000021', accountNumber: '123456789012345678' } }), 'accountInfo.accountNumber'],
    ['an account number with a slash', order({ accountInfo: { routingNumber: '021000021', accountNumber: '12/34' } }), 'accountInfo.accountNumber'],
    ['a brokerage account', order({ accountInfo: { routingNumber: '021000021', accountNumber: '1', bankAccountType: 'BROKERAGE' } }), 'accountInfo.bankAccountType'],
    ['amount 0 for a credit', order({ amount: 0 }), 'amount'],
    ['a prenote with an amount', order({ kind: 'PRENOTE', amount: 1 }), 'amount'],
    ['a fractional amount', order({ amount: 1.5 }), 'amount'],
    ['more than $99,999,999.99', order({ amount: 10_000_000_000 }), 'amount'],
  ])('refuses %s', (_what, o, field) => {
    expect(refusal(o).field).toBe(field);
  });
});

// ---- Inbound ---------------------------------------------------------------------------------------------------------

/** A record built by hand from the NACHA layout: fields given at their widths, checked to make 94 characters. */
const rec = (...fields: string[]) => {
  const line = fields.join('');
  if (line.length !== 94) throw new Error(`fixture record of ${line.length} characters: ${line}`);
  return line;
};
const an = (text: string, width: number) => text.padEnd(width, ' ');
const nu = (value: number, width: number) => String(value).padStart(width, '0');
const ODFI = '09100001';
/** A return entry (to our ODFI, 091000019) with its 99 addenda; RDFI 02100002 returns it. */
const returned = (code: string, account: string, amount: number, name: string, returnCode: string, originalTrace: string, n: number) => [
  rec('6', code, ODFI, '9', an(account, 17), nu(amount, 10), an('', 15), an(name, 22), '  ', '1', '02100002' + nu(n, 7)),
  rec('7', '99', returnCode, originalTrace, an('', 6), '02100002', an('', 44), '02100002' + nu(n, 7)),
];
const RETURN_FILE = [
  rec('1', '01', ' 091000019', ' 021000021', '261201', '0800', 'A', '094101', an('OUR ODFI BANK', 23), an('RDFI BANK', 23), an('', 8)),
  rec('5', '200', an('ACME PAYMENTS', 16), an('', 20), '1234567890', 'PPD', an('PAYOUT', 10), an('', 6), '261127', '   ', '1', '02100002', nu(1, 7)),
  ...returned('21', '123456789', 12_345, 'JANE DOE', 'R01', '091000010000101', 1), // our PPD credit
  ...returned('26', '555000111', 2_500, 'JOHN ROE', 'R01', '091000010000103', 2), // our pull
  ...returned('21', '123456789', 0, 'JANE DOE', 'R03', '091000010000104', 3), // our prenote
  rec('6', '22', ODFI, '9', an('999', 17), nu(700, 10), an('', 15), an('SOMEONE ELSE', 22), '  ', '0', '021000020000004'), // a forward credit, not a return
  rec('8', '200', nu(7, 6), nu(4 * 9_100_001, 10), nu(2_500, 12), nu(12_345 + 700, 12), '1234567890', an('', 19), an('', 6), '02100002', nu(1, 7)),
  rec('5', '220', an('ACME PAYMENTS', 16), an('', 20), '1234567890', 'COR', an('PAYOUT', 10), an('', 6), an('', 6), '   ', '1', '02600959', nu(2, 7)),
  rec('6', '21', ODFI, '9', an('987654321', 17), nu(0, 10), an('', 15), an('ACME LLC', 22), '  ', '1', '026009590000001'),
  rec('7', '98', 'C01', '091000010000102', an('', 6), '02600959', an('1234567890', 29), an('', 15), '026009590000001'),
  rec('8', '220', nu(2, 6), nu(9_100_001, 10), nu(0, 12), nu(0, 12), '1234567890', an('', 19), an('', 6), '02600959', nu(2, 7)),
  rec('9', nu(2, 6), nu(2, 6), nu(9, 8), nu(5 * 9_100_001, 10), nu(2_500, 12), nu(13_045, 12), an('', 39)),
  ...Array.from({ length: 5 }, () => '9'.repeat(94)),
].join('\r\n');
const FIXTURES = join(__dirname, '../../../../rails/src/nacha/fixtures');

describe('NACHA format: return and NOC files', () => {
  it('recognizes NACHA files (with or without line breaks), nothing else', () => {
    expect(inbound.recognizes(Buffer.from(RETURN_FILE))).toBe(true);
    expect(inbound.recognizes(Buffer.from(RETURN_FILE.replace(/\r\n/g, '')))).toBe(true);
    expect(inbound.recognizes(readFileSync(join(FIXTURES, 'not-nacha.csv')))).toBe(false);
    expect(inbound.recognizes(Buffer.from('<?xml version="1.0"?><Document/>'))).toBe(false);
  });

  it('turns returns into RETURNED outcomes of the original trace: a credit’s reason, a pull’s COLLECTION_FAILED; a NOC into a notice; a live credit to us into an incoming CREDIT', () => {
    const parsed = inbound.parse(Buffer.from(RETURN_FILE));
    expect(parsed.format).toBe('NACHA_RETURNS');
    expect(parsed.entries.map((e) => (e.type === 'OUTCOME' ? [e.type, e.railReference, e.kind, e.failureReason, e.railCode] : e.type === 'NOTICE' ? [e.type, e.railReference, e.code, e.message] : e.type === 'OTHER' ? [e.type, e.message] : [e.type]))).toEqual([
      ['OUTCOME', '091000010000101', 'RETURNED', 'PAYOUT_RETURNED', 'R01'],
      ['OUTCOME', '091000010000103', 'RETURNED', 'COLLECTION_FAILED', 'R01'],
      ['OUTCOME', '091000010000104', 'RETURNED', 'ACCOUNT_INVALID', 'R03'],
      ['CREDIT'],
      ['NOTICE', '091000010000102', 'C01', 'C01 incorrect account number: the account number must become 1234567890'],
    ]);
    expect(parsed.entries[0].raw).toMatchObject({ line: 3, transactionCode: '21', accountNumberLast4: '6789', description: 'Insufficient funds' });
    expect(JSON.stringify(parsed.entries.map((e) => e.raw))).not.toContain('123456789"'); // no full account numbers kept
    // An incoming credit (code 22, no return addenda): keyed on its trace number, matched by its DFI account number or what the sender wrote.
    const credit = parsed.entries[3];
    expect(credit).toMatchObject({ type: 'CREDIT', currency: 'USD', bankReference: 'ACH-TRACE:021000020000004' });
    if (credit.type !== 'CREDIT') throw new Error('not a credit');
    expect(credit.accountNumbers).toHaveLength(1);
    expect(credit.amount).toBe(credit.raw.amount);
    expect(parsed.summary).toMatchObject({ returns: 3, notices: 1, other: 0, batchCount: 2, totalDebit: 2_500, totalCredit: 13_045 });
  });

  it('reads the hand-written fixtures of libs/rails: R01 on a debit entry code 26, R03 on a credit, C01', () => {
    const returns = inbound.parse(readFileSync(join(FIXTURES, 'return-r01-r03.ach')));
    expect(returns.entries.map((e) => e.type === 'OUTCOME' && [e.railReference, e.failureReason, e.railCode])).toEqual([
      ['091000010000001', 'COLLECTION_FAILED', 'R01'],
      ['091000010000002', 'ACCOUNT_INVALID', 'R03'],
    ]);
    const noc = inbound.parse(readFileSync(join(FIXTURES, 'noc-c01.ach')));
    expect(noc.entries).toEqual([expect.objectContaining({ type: 'NOTICE', railReference: '091000010000003', code: 'C01', message: 'C01 incorrect account number: the account number must become 0001234567890' })]);
  });

  it('refuses a malformed file whole with the reader’s message naming the line', () => {
    expect(() => inbound.parse(readFileSync(join(FIXTURES, 'malformed-entry-hash.ach')))).toThrow(/^NACHA file refused: line \d+: .*entry hash/);
    expect(() => inbound.parse(readFileSync(join(FIXTURES, 'malformed-truncated.ach')))).toThrow(/^NACHA file refused: line \d+: .*truncated/);
    const badHash = RETURN_FILE.replace(nu(5 * 9_100_001, 10), nu(5 * 9_100_001 + 1, 10));
    expect(() => inbound.parse(Buffer.from(badHash))).toThrow('NACHA file refused: line 15: file control entry hash is 45500006 but the records give 45500005');
    const truncated = RETURN_FILE.split('\r\n').slice(0, 6).join('\r\n');
    expect(() => inbound.parse(Buffer.from(truncated))).toThrow(/NACHA file refused: line 6: the file ends inside batch 1/);
  });
});
