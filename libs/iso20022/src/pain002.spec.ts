import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Iso20022Error } from './errors';
import { readPain002 } from './pain002';
import { writePain001 } from './pain001';

const fixture = (name: string) => readFileSync(join(__dirname, 'fixtures', name));

describe('readPain002', () => {
  it('reads a partially accepted pain.002.001.10 into per-transaction updates with published failure reasons', () => {
    const report = readPain002(fixture('pain002-partial.v10.xml'));
    expect(report).toMatchObject({
      version: '001.10',
      messageId: 'STS-20261127-0001',
      originalMessageId: 'MSG-20261127-01',
      originalMessageNameId: 'pain.001.001.09',
      groupStatus: 'PART',
      wholeMessageRejected: false,
      paymentInformations: [{ originalPaymentInformationId: 'PMT-20261127-01', status: 'PART', outcome: 'ACCEPTED' }],
    });
    expect(report.transactions.map((t) => [t.originalEndToEndId, t.status, t.outcome, t.failureReason, t.failureCode])).toEqual([
      ['E2E-0001', 'ACSC', 'SETTLED', undefined, undefined],
      ['E2E-0002', 'RJCT', 'REJECTED', 'ACCOUNT_INVALID', 'AC01'],
      ['E2E-0003', 'RJCT', 'REJECTED', 'QUOTE_EXECUTION_FAILED', 'AM04'],
      ['E2E-0004', 'RJCT', 'REJECTED', 'COUNTERPARTY_POST_TX_FAILED', 'MS03'],
      ['E2E-0005', 'PDNG', 'PENDING', undefined, undefined],
    ]);
    expect(report.transactions[1]).toMatchObject({ originalInstructionId: 'TX-0002', amount: { currency: 'EUR', amount: 25000 }, reasons: [{ additionalInformation: ['Account number incorrect'] }] });
    expect(report.transactions[2].reasons[0].additionalInformation).toEqual(['Insufficient funds & no overdraft']);
  });

  it('reads a prefixed pain.002.001.03 rejecting the whole original message', () => {
    const report = readPain002(fixture('pain002-group-rejected.v03.xml'));
    expect(report).toMatchObject({
      version: '001.03',
      originalMessageId: 'MSG-20261127-02',
      groupStatus: 'RJCT',
      groupOutcome: 'REJECTED',
      wholeMessageRejected: true,
      groupReasons: [{ code: 'FF01', failureReason: 'QUOTE_EXECUTION_FAILED', additionalInformation: ['Invalid file format'] }],
      transactions: [],
    });
  });

  it('gives a transaction without TxSts the rejection of its group, with the group reason', () => {
    const xml = fixture('pain002-group-rejected.v03.xml')
      .toString()
      .replace('</p:OrgnlGrpInfAndSts>', '</p:OrgnlGrpInfAndSts><p:OrgnlPmtInfAndSts><p:OrgnlPmtInfId>P1</p:OrgnlPmtInfId><p:TxInfAndSts><p:OrgnlEndToEndId>E2E-9</p:OrgnlEndToEndId></p:TxInfAndSts></p:OrgnlPmtInfAndSts>');
    expect(readPain002(xml).transactions).toEqual([
      expect.objectContaining({ originalEndToEndId: 'E2E-9', status: 'RJCT', outcome: 'REJECTED', failureReason: 'QUOTE_EXECUTION_FAILED', failureCode: 'FF01' }),
    ]);
  });

  it.each([
    ['pain002-missing-ids.xml', 'MISSING_ELEMENT', 'Document/CstmrPmtStsRpt/OrgnlPmtInfAndSts[1]/TxInfAndSts[2]/OrgnlEndToEndId is missing (and no OrgnlInstrId)'],
    ['pain002-unknown-status.xml', 'INVALID_VALUE', 'Document/CstmrPmtStsRpt/OrgnlPmtInfAndSts[1]/TxInfAndSts[1]/TxSts: unknown status "DONE"'],
    ['pain002-missing-original-message.xml', 'MISSING_ELEMENT', 'Document/CstmrPmtStsRpt/OrgnlGrpInfAndSts/OrgnlMsgId is missing'],
    ['pain002-amount-decimals.xml', 'INVALID_AMOUNT', '"10.001" has more than 2 decimal places'],
    ['camt054-booked.xml', 'WRONG_MESSAGE', 'expected a Document in urn:iso:std:iso:20022:tech:xsd:pain.002.001.10 or urn:iso:std:iso:20022:tech:xsd:pain.002.001.03, got Document in urn:iso:std:iso:20022:tech:xsd:camt.054.001.08'],
    ['camt054-doctype.xml', 'DOCTYPE_FORBIDDEN', 'document has a DOCTYPE or entity declaration; refused'],
  ])('refuses %s whole', (name, code, message) => {
    const attempt = () => readPain002(fixture(name));
    expect(attempt).toThrow(Iso20022Error);
    expect(attempt).toThrow(message);
    expect(() => attempt()).toThrow(expect.objectContaining({ code }));
  });

  it('refuses our own pain.001 fed back as a status report', () => {
    const { xml } = writePain001({
      messageId: 'M', paymentInformationId: 'P', createdAt: new Date(), requestedExecutionDate: '2026-11-30', currency: 'EUR', initiatingPartyName: 'Us',
      debtor: { name: 'Us', iban: 'DE89370400440532013000', bic: 'COBADEFF' },
      transfers: [{ instructionId: 'I', endToEndId: 'E', amount: 100, creditorName: 'Them', creditorIban: 'BE68539007547034' }],
    });
    expect(() => readPain002(xml)).toThrow('got Document in urn:iso:std:iso:20022:tech:xsd:pain.001.001.09');
  });
});
