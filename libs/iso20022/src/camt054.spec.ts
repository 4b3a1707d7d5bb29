import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readCamt054 } from './camt054';
import { Iso20022Error } from './errors';

const fixture = (name: string) => readFileSync(join(__dirname, 'fixtures', name));

describe('readCamt054', () => {
  it('reads booked debits of our payouts by end-to-end id, and incoming credits with their remittance information', () => {
    const n = readCamt054(fixture('camt054-booked.xml'));
    expect(n.messageId).toBe('CAMT54-20261127-01');
    expect(n.movements.map((m) => [m.notificationId, m.direction, m.status, m.endToEndId, m.amount, m.currency, m.entryAmount])).toEqual([
      ['NTF-20261127-01', 'DEBIT', 'BOOK', 'E2E-0001', 75000, 'EUR', 100000],
      ['NTF-20261127-01', 'DEBIT', 'BOOK', 'E2E-0006', 25000, 'EUR', 100000],
      ['NTF-20261127-01', 'CREDIT', 'BOOK', undefined, 42550, 'EUR', 42550],
      ['NTF-20261127-01', 'CREDIT', 'PDNG', undefined, 1230, 'EUR', 1230],
      ['NTF-20261127-01', 'CREDIT', 'BOOK', 'E2E-0007', 8000, 'EUR', 8000],
      ['NTF-20261127-02', 'CREDIT', 'BOOK', 'E2E-USD-1', 1000, 'USD', 1000],
    ]);
    const [first, second, credit, pending, returned, usd] = n.movements;
    expect(first).toMatchObject({
      accountIban: 'DE89370400440532013000', instructionId: 'TX-0001', paymentInformationId: 'PMT-20261127-01', messageId: 'MSG-20261127-01',
      accountServicerReference: 'BANKREF-1001', bookingDate: '2026-11-27', valueDate: '2026-11-27', reversal: false,
      creditor: { name: 'Jean Dupont', iban: 'FR1420041010050500013M02606' }, remittanceInformation: ['Invoice 42'],
    });
    expect(second).toMatchObject({ accountServicerReference: 'BANKREF-1000', creditor: { name: 'Anna de Vries', iban: 'NL91ABNA0417164300' } });
    expect(credit).toMatchObject({
      remittanceInformation: ['FUND REF-ABC123'], creditorReference: 'RF18539007547034',
      debtor: { name: 'Müller & Söhne GmbH', iban: 'BE68539007547034' }, creditor: { name: 'Payments Platform Ltd' },
    });
    expect(pending).toMatchObject({ bookingDate: undefined, valueDate: '2026-11-28', remittanceInformation: [] });
    expect(returned).toMatchObject({ reversal: true, returnReasonCode: 'AC04', instructionId: 'TX-0007' });
    expect(usd).toMatchObject({ accountIban: undefined, accountOtherId: '987654321', bookingDate: '2026-11-27T15:04:05Z' });
  });

  it.each([
    ['camt054-count-mismatch.xml', 'TOTALS_MISMATCH', 'Document/BkToCstmrDbtCdtNtfctn/Ntfctn[1]/TxsSummry/TtlNtries/NbOfNtries says 3 but 2 notified entries are listed'],
    ['camt054-sum-mismatch.xml', 'TOTALS_MISMATCH', 'TxsSummry/TtlCdtNtries/Sum says 30.01 but the credit entries add up to 30.00'],
    ['camt054-batch-mismatch.xml', 'TOTALS_MISMATCH', 'Ntfctn[1]/Ntry[1]: its transactions add up to 90.00 EUR, not the entry\'s 100.00'],
    ['camt054-too-many-decimals.xml', 'INVALID_AMOUNT', 'Ntry[1]/Amt: "10.005" has more than 2 decimal places'],
    ['camt054-negative.xml', 'INVALID_AMOUNT', 'Ntry[1]/Amt: "-10.00" is not a non-negative decimal amount'],
    ['camt054-unknown-currency.xml', 'UNKNOWN_CURRENCY', 'Ntry[1]/Amt: unknown currency "XYZ"'],
    ['camt054-missing-indicator.xml', 'MISSING_ELEMENT', 'Document/BkToCstmrDbtCdtNtfctn/Ntfctn[1]/Ntry[1]/CdtDbtInd is missing'],
    ['camt054-doctype.xml', 'DOCTYPE_FORBIDDEN', 'document has a DOCTYPE or entity declaration; refused'],
    ['camt054-not-well-formed.xml', 'NOT_XML', "not well-formed XML: Expected closing tag 'GrpHdr'"],
    ['camt053-foreign.xml', 'WRONG_MESSAGE', 'expected a Document in urn:iso:std:iso:20022:tech:xsd:camt.054.001.08, got Document in urn:iso:std:iso:20022:tech:xsd:camt.053.001.08'],
    ['pain002-partial.v10.xml', 'WRONG_MESSAGE', 'got Document in urn:iso:std:iso:20022:tech:xsd:pain.002.001.10'],
  ])('refuses %s whole', (name, code, message) => {
    const attempt = () => readCamt054(fixture(name));
    expect(attempt).toThrow(Iso20022Error);
    expect(attempt).toThrow(message);
    expect(attempt).toThrow(expect.objectContaining({ code }));
  });

  it('refuses input that is not XML, a root that is not Document, and a document over the size limit', () => {
    expect(() => readCamt054('PK\u0003\u0004 not xml at all')).toThrow(expect.objectContaining({ code: 'NOT_XML' }));
    expect(() => readCamt054('<BkToCstmrDbtCdtNtfctn xmlns="urn:iso:std:iso:20022:tech:xsd:camt.054.001.08"/>')).toThrow('got BkToCstmrDbtCdtNtfctn in');
    expect(() => readCamt054('<Document><BkToCstmrDbtCdtNtfctn/></Document>')).toThrow('got Document in no namespace');
    const booked = fixture('camt054-booked.xml');
    expect(() => readCamt054(booked, { maxBytes: 1000 })).toThrow(`document of ${booked.length} bytes exceeds the limit of 1000`);
  });
});
