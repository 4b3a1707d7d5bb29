import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { ApiError, type RailConnectorConfig } from '@payments/contracts';
import { Iso20022Error } from '@payments/iso20022';
import type { RailOrder } from '../rail-connector';
import type { RailPaymentRow } from '../rail-payments';
import type { OutboundFileMeta } from '../files/file-format';
import { endToEndIdOf, fileIdOfMessageId, iso20022RailKind, messageIdOf, paymentIdOfEndToEndId } from './iso20022-format';

const fixture = (name: string) => readFileSync(join(__dirname, 'fixtures', name));
const libraryFixture = (name: string) => readFileSync(join(__dirname, '../../../../iso20022/src/fixtures', name));

const config: RailConnectorConfig = {
  id: 'bank-eu',
  kind: 'ISO20022',
  routes: [
    { currency: 'EUR', paymentRail: 'SEPA', directions: ['PAYOUT'] },
    { currency: 'EUR', paymentRail: 'SEPA_INSTANT', directions: ['PAYOUT'] },
    { currency: 'USD', paymentRail: 'WIRE', directions: ['PAYOUT'] },
  ],
  outboxDirectory: '/tmp/out',
  inboxDirectory: '/tmp/in',
  batchIntervalSeconds: 60,
  iso20022: { initiatingPartyName: 'Payments Platform Ltd', debtorName: 'Payments Platform Ltd', debtorIban: 'DE89370400440532013000', debtorAgentBic: 'COBADEFFXXX' },
};

const A = '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b';
const B = '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5c';
const C = '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5d';
const D = '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5e';
const hex = (uuid: string) => uuid.replace(/-/g, '');

function order(uuid: string, overrides: Partial<RailOrder> = {}): RailOrder {
  return {
    paymentId: `Transaction:${uuid}`,
    platformId: 'Platform:p1',
    mode: 'PRODUCTION',
    kind: 'CREDIT',
    paymentRail: 'SEPA',
    currency: 'EUR',
    amount: 12345,
    externalAccountId: `ExternalAccount:${uuid}`,
    accountInfo: { accountType: 'EUR_ACCOUNT', iban: 'FR14 2004 1010 0505 0001 3M02 606', swiftCode: 'BNPAFRPP' },
    beneficiary: { name: 'Jean Dupont', type: 'INDIVIDUAL' },
    reference: 'REF-A',
    ...overrides,
  };
}

function row(o: RailOrder, sequence: number): RailPaymentRow {
  return {
    payment_id: o.paymentId,
    connector_id: config.id,
    platform_id: o.platformId,
    mode: 'PRODUCTION',
    kind: o.kind,
    payment_rail: o.paymentRail,
    currency: o.currency,
    amount: String(o.amount),
    external_account_id: o.externalAccountId,
    sequence: String(sequence),
    rail_reference: endToEndIdOf(o.paymentId)!,
    rail_order: o,
    status: 'SUBMITTED',
    file_id: null,
    provider_reference: null,
    last_sequence: null,
    settles_at: null,
    submitted_at: new Date('2026-11-27T08:00:00Z'),
    updated_at: new Date('2026-11-27T08:00:00Z'),
  };
}

const format = iso20022RailKind.outbound(config);
const [pain002, camt054] = iso20022RailKind.inbound(config);
const meta: OutboundFileMeta = { createdAt: '2026-11-27T09:00:00.456Z', sequenceOfDay: 1, fileId: 'RailFile:0190ffff-0000-7000-8000-000000000001' };
const payments = [
  row(order(A), 1),
  row(order(B, { paymentRail: 'SEPA_INSTANT', amount: 1, beneficiary: { name: 'José Müller-Łukasiewicz', type: 'INDIVIDUAL' }, accountInfo: { iban: 'NL91ABNA0417164300' }, reference: 'REF-B' }), 2),
  row(order(C, { currency: 'USD', paymentRail: 'WIRE', amount: 99_999_999_999, accountInfo: { iban: 'BE68539007547034', bic: 'GEBABEBB' }, beneficiary: { name: 'Acme SA', type: 'BUSINESS' }, reference: '' }), 3),
  row(order(D, { amount: 250_00, accountInfo: { iban: 'DE89370400440532013000' }, reference: 'REF-D' }), 4),
];

// An independent reading of the written file: repeated elements as arrays, every value kept as text.
const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@', parseTagValue: false, isArray: (name) => ['PmtInf', 'CdtTrfTxInf'].includes(name) });
type Node = Record<string, any>;

describe('ISO 20022 outbound (pain.001.001.09)', () => {
  it("puts the payer's remittance information in Ustrd (SEPA characters, 140 at most), the EndToEndId staying ours", () => {
    const withRemittance = (remittanceInformation: string) => {
      const doc = parser.parse(format.write([row(order(A, { remittanceInformation }), 1)], meta).content.toString('utf8')).Document as Node;
      return (doc.CstmrCdtTrfInitn.PmtInf[0].CdtTrfTxInf as Node[])[0];
    };
    expect(withRemittance('Invoice 42 – Zoë')).toMatchObject({ PmtId: { EndToEndId: hex(A), InstrId: hex(A) }, RmtInf: { Ustrd: 'Invoice 42 - Zoe' } });
    expect(withRemittance('Zoë Šimůnková – 東京').RmtInf.Ustrd).toBe('Zoe Simunkova -');
    // Nothing Latin left: the transaction's short reference, as without remittance information.
    expect(withRemittance('東京').RmtInf.Ustrd).toBe('REF-A');
  });

  it('writes one message whose totals, blocks and transactions read back exactly', () => {
    const written = format.write(payments, meta);
    expect(format).toMatchObject({ name: 'PAIN001', extension: 'xml' });
    const doc = parser.parse(written.content.toString('utf8')).Document as Node;
    expect(doc['@xmlns']).toBe('urn:iso:std:iso:20022:tech:xsd:pain.001.001.09');
    const msg = doc.CstmrCdtTrfInitn as Node;
    expect(msg.GrpHdr).toMatchObject({ MsgId: '0190ffff000070008000000000000001', CreDtTm: '2026-11-27T09:00:00Z', NbOfTxs: '4', InitgPty: { Nm: 'Payments Platform Ltd' } });

    const blocks = msg.PmtInf as Node[];
    expect(blocks.map((b) => [b.PmtInfId, b.BtchBookg, b.ReqdExctnDt.Dt, b.ChrgBr, b.PmtTpInf?.SvcLvl?.Cd, b.PmtTpInf?.LclInstrm?.Cd])).toEqual([
      ['0190ffff0000700080000000000000-1', 'false', '2026-11-27', 'SLEV', 'SEPA', undefined],
      ['0190ffff0000700080000000000000-2', 'false', '2026-11-27', 'SLEV', 'SEPA', 'INST'],
      ['0190ffff0000700080000000000000-3', 'false', '2026-11-27', 'SHAR', undefined, undefined],
    ]);
    for (const b of blocks) expect([b.Dbtr.Nm, b.DbtrAcct.Id.IBAN, b.DbtrAgt.FinInstnId.BICFI]).toEqual(['Payments Platform Ltd', 'DE89370400440532013000', 'COBADEFFXXX']);

    const txs = blocks.flatMap((b) => (b.CdtTrfTxInf as Node[]).map((t) => ({ t, ccy: t.Amt.InstdAmt['@Ccy'] as string })));
    expect(txs.map(({ t, ccy }) => [t.PmtId.EndToEndId, t.PmtId.InstrId, ccy, t.Amt.InstdAmt['#text'], t.CdtrAcct.Id.IBAN, t.CdtrAgt?.FinInstnId.BICFI, t.Cdtr.Nm, t.RmtInf?.Ustrd])).toEqual([
      [hex(A), hex(A), 'EUR', '123.45', 'FR1420041010050500013M02606', 'BNPAFRPP', 'Jean Dupont', 'REF-A'],
      [hex(D), hex(D), 'EUR', '250.00', 'DE89370400440532013000', undefined, 'Jean Dupont', 'REF-D'],
      [hex(B), hex(B), 'EUR', '0.01', 'NL91ABNA0417164300', undefined, 'Jose Muller-Lukasiewicz', 'REF-B'],
      [hex(C), hex(C), 'USD', '999999999.99', 'BE68539007547034', 'GEBABEBB', 'Acme SA', undefined],
    ]);

    // Totals recomputed from the amounts read back, in cents (every currency here has 2 decimals).
    const cents = (s: string) => BigInt(s.replace('.', ''));
    for (const b of blocks) {
      const sum = (b.CdtTrfTxInf as Node[]).reduce((s, t) => s + cents(t.Amt.InstdAmt['#text']), 0n);
      expect([b.NbOfTxs, cents(b.CtrlSum)]).toEqual([String(b.CdtTrfTxInf.length), sum]);
    }
    const total = txs.reduce((s, { t }) => s + cents(t.Amt.InstdAmt['#text']), 0n);
    expect(cents(msg.GrpHdr.CtrlSum)).toBe(total);
    expect(total).toBe(BigInt(12345 + 25000 + 1 + 99_999_999_999));

    expect(written).toMatchObject({ entryCount: 4, totalAmount: 12345 + 25000 + 1 + 99_999_999_999 });
    expect(written.summary).toMatchObject({ messageId: '0190ffff000070008000000000000001', numberOfTransactions: 4, controlSum: msg.GrpHdr.CtrlSum, requestedExecutionDate: '2026-11-27' });
    expect((written.summary.paymentInformations as Node[]).map((p) => [p.currency, p.paymentRail, p.numberOfTransactions])).toEqual([['EUR', 'SEPA', 2], ['EUR', 'SEPA_INSTANT', 1], ['USD', 'WIRE', 1]]);
    expect(written.settlesAt).toBeUndefined();
  });

  it('writes the same bytes for the same payments and file, other bytes for another file', () => {
    const first = format.write(payments, meta);
    expect(iso20022RailKind.outbound(config).write(payments.map((p) => structuredClone(p)), { ...meta }).content.equals(first.content)).toBe(true);
    expect(format.write(payments, { ...meta, fileId: 'RailFile:0190ffff-0000-7000-8000-000000000002' }).content.equals(first.content)).toBe(false);
  });

  it('uses the transaction id as end-to-end id, reversibly, and the file id as message id', () => {
    expect(format.railReference(order(A), 17)).toBe('0190a1b2c3d47e5f8a9b0c1d2e3f4a5b');
    expect(paymentIdOfEndToEndId('0190A1B2C3D47E5F8A9B0C1D2E3F4A5B')).toBe(`Transaction:${A}`);
    expect(paymentIdOfEndToEndId('E2E-0001')).toBeUndefined();
    expect(fileIdOfMessageId(messageIdOf(meta.fileId))).toBe(meta.fileId);
    expect(messageIdOf('some-other-file-id')).toMatch(/^[0-9a-f]{32}$/);
    expect(() => format.railReference(order(A, { paymentId: 'Prenote:ExternalAccount:x' }), 1)).toThrow('paymentId: ');
  });

  const cases: [string, Partial<RailOrder>, string][] = [
    ['a debit', { kind: 'DEBIT' }, 'kind'],
    ['a currency not routed', { currency: 'GBP' }, 'currency'],
    ['a rail not routed for the currency', { paymentRail: 'WIRE' }, 'paymentRail'],
    ['a prenote id', { paymentId: 'Prenote:ExternalAccount:x' }, 'paymentId'],
    ['no IBAN', { accountInfo: { accountNumber: '123' } }, 'accountInfo.iban'],
    ['an IBAN failing mod-97', { accountInfo: { iban: 'FR1520041010050500013M02606' } }, 'accountInfo.iban'],
    ['a malformed swiftCode', { accountInfo: { iban: 'NL91ABNA0417164300', swiftCode: 'ABN1' } }, 'accountInfo.swiftCode'],
    ['a malformed bic', { accountInfo: { iban: 'NL91ABNA0417164300', bic: 'ABNANL2' } }, 'accountInfo.bic'],
    ['no BIC on a rail other than SEPA', { currency: 'USD', paymentRail: 'WIRE', accountInfo: { iban: 'NL91ABNA0417164300' } }, 'accountInfo.swiftCode'],
    ['no beneficiary', { beneficiary: null }, 'beneficiary.name'],
    ['a name in another script', { beneficiary: { name: 'Иван Петров', type: 'INDIVIDUAL' } }, 'beneficiary.name'],
    ['a reference outside the SEPA set', { reference: 'A&B' }, 'reference'],
    ['a reference over 140 characters', { reference: 'x'.repeat(141) }, 'reference'],
    ['a zero amount', { amount: 0 }, 'amount'],
    ['a fractional amount', { amount: 1.5 }, 'amount'],
  ];
  it.each(cases)('refuses %s, naming the field', (_label, overrides, field) => {
    let error: unknown;
    try {
      format.validate(order(A, overrides));
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ code: 'INVALID_INPUT', status: 400, details: { errors: [{ field }] } });
    expect((error as ApiError).message.startsWith(`${field}: `)).toBe(true);
  });

  it('accepts a valid order, with or without a BIC on SEPA', () => {
    expect(() => format.validate(order(A))).not.toThrow();
    expect(() => format.validate(order(A, { accountInfo: { iban: 'NL91ABNA0417164300' } }))).not.toThrow();
  });

  it('refuses a routed currency the writer cannot carry, and a bad debtor account in the configuration', () => {
    const crypto = iso20022RailKind.outbound({ ...config, routes: [{ currency: 'BTC', paymentRail: 'SEPA', directions: ['PAYOUT'] }] });
    expect(() => crypto.validate(order(A, { currency: 'BTC' }))).toThrow('currency: BTC is not a currency a pain.001 can carry');
    expect(() => iso20022RailKind.outbound({ ...config, iso20022: { ...config.iso20022!, debtorIban: 'DE88370400440532013000' } })).toThrow(
      'rails configuration: bank-eu.iso20022.debtorIban "DE88370400440532013000" is not a valid IBAN',
    );
  });

  it('refuses to write a file with a payment it cannot carry, naming the payment', () => {
    const bad = row(order(A, { beneficiary: { name: 'Smith & Co', type: 'BUSINESS' } }), 1);
    expect(() => format.write([payments[1], bad], meta)).toThrow(`payment Transaction:${A} cannot be written into a pain.001: beneficiary.name: has a character outside the SEPA character set: "&"`);
    expect(() => format.write([{ ...payments[0], rail_reference: 'OTHER' }], meta)).toThrow('railReference: "OTHER" is not this payment');
  });
});

describe('ISO 20022 inbound', () => {
  it('recognizes each message by its root namespace, prefixed or not', () => {
    expect([pain002.recognizes(fixture('pain002-ours.v10.xml')), camt054.recognizes(fixture('pain002-ours.v10.xml'))]).toEqual([true, false]);
    expect([pain002.recognizes(libraryFixture('pain002-group-rejected.v03.xml')), camt054.recognizes(libraryFixture('pain002-group-rejected.v03.xml'))]).toEqual([true, false]);
    expect([pain002.recognizes(fixture('camt054-ours.xml')), camt054.recognizes(fixture('camt054-ours.xml'))]).toEqual([false, true]);
    expect([pain002.recognizes(libraryFixture('camt053-foreign.xml')), camt054.recognizes(libraryFixture('camt053-foreign.xml'))]).toEqual([false, false]);
    expect(pain002.recognizes(Buffer.from('101 021000021 0123456789'))).toBe(false);
  });

  it('reads a pain.002: a rejection with its reason, an acceptance for information, a settlement, a rejected block', () => {
    const parsed = pain002.parse(fixture('pain002-ours.v10.xml'));
    expect(parsed.format).toBe('PAIN002');
    expect(parsed.summary).toMatchObject({ statusReportId: 'STS-0190-0001', originalMessageId: '0190ffff000070008000000000000001', fileId: meta.fileId, groupStatus: 'PART' });
    expect(parsed.entries.map((e) => (e.type === 'OUTCOME' ? [e.type, e.railReference, e.kind, e.failureReason, e.railCode] : [e.type, e.raw.informational]))).toEqual([
      ['OUTCOME', hex(A), 'REJECTED', 'ACCOUNT_INVALID', 'AC04'],
      ['OTHER', true],
      ['OUTCOME', hex(C), 'SETTLED', undefined, undefined],
      ['OTHER', false],
    ]);
    expect(parsed.entries[0].raw).toMatchObject({ status: 'RJCT', amount: 12345, currency: 'EUR', reasons: [{ code: 'AC04', additionalInformation: ['Account closed'] }] });
    expect(parsed.entries[1]).toMatchObject({ message: `pain.002: ${hex(B)} is ACCP (accepted); nothing changes` });
    expect(parsed.entries[3]).toMatchObject({
      message: expect.stringContaining('rejected payment information 0190ffff0000700080000000000000-2 of message 0190ffff000070008000000000000001 (RJCT AM04)'),
      raw: { level: 'PAYMENT_INFORMATION', fileId: meta.fileId, paymentInformationId: '0190ffff0000700080000000000000-2', failureReason: 'QUOTE_EXECUTION_FAILED', railCode: 'AM04' },
    });
  });

  it('reports a whole rejected message (pain.002.001.03) as one entry for the connector to act on', () => {
    const parsed = pain002.parse(libraryFixture('pain002-group-rejected.v03.xml'));
    expect(parsed.entries).toEqual([
      {
        type: 'OTHER',
        message: 'pain.002: the bank rejected message MSG-20261127-02 (RJCT FF01) without itemising its transactions: every payment in it failed',
        raw: expect.objectContaining({ level: 'GROUP', originalMessageId: 'MSG-20261127-02', informational: false, failureReason: 'QUOTE_EXECUTION_FAILED', railCode: 'FF01' }),
      },
    ]);
    expect(parsed.summary).toMatchObject({ wholeMessageRejected: true });
  });

  it('records each reason as the published reason its code maps to, the code kept', () => {
    const parsed = pain002.parse(libraryFixture('pain002-partial.v10.xml'));
    const outcomes = parsed.entries.flatMap((e) => (e.type === 'OUTCOME' ? [[e.railReference, e.kind, e.failureReason, e.railCode]] : []));
    expect(outcomes).toEqual([
      ['E2E-0001', 'SETTLED', undefined, undefined],
      ['E2E-0002', 'REJECTED', 'ACCOUNT_INVALID', 'AC01'],
      ['E2E-0003', 'REJECTED', 'QUOTE_EXECUTION_FAILED', 'AM04'],
      ['E2E-0004', 'REJECTED', 'COUNTERPARTY_POST_TX_FAILED', 'MS03'],
    ]);
  });

  it('reads a camt.054: a booked payout settles, a pending one informs, a return returns, a fee is reported, a credit arrives', () => {
    const parsed = camt054.parse(fixture('camt054-ours.xml'));
    expect(parsed.format).toBe('CAMT054');
    expect(parsed.summary).toMatchObject({ messageId: 'CAMT54-0190-01', movements: 5 });
    const [settled, pending, returned, fee, credit] = parsed.entries;
    expect(settled).toMatchObject({ type: 'OUTCOME', railReference: hex(A), kind: 'SETTLED', raw: { amount: 12345, currency: 'EUR', bookingDate: '2026-11-27', accountServicerReference: 'BANKREF-1' } });
    expect(pending).toMatchObject({ type: 'OTHER', raw: { status: 'PDNG', informational: true } });
    expect(returned).toMatchObject({ type: 'OUTCOME', railReference: hex(C), kind: 'RETURNED', failureReason: 'PAYOUT_RETURNED', railCode: 'AC04', raw: { amount: 38000 } });
    expect(fee).toMatchObject({ type: 'OTHER', message: 'camt.054: a booked debit of 300 EUR that is no payout of ours', raw: { informational: false } });
    expect(credit).toEqual({
      type: 'CREDIT',
      amount: 42550,
      currency: 'EUR',
      reference: 'FUND PP7K2M9Q',
      // No AcctSvcrRef in this entry: the notification and NtryRef name it at the bank.
      bankReference: 'NTF-0190-01/5||42550|EUR',
      texts: ['FUND PP7K2M9Q'],
      accountNumbers: [],
      debtorName: 'Müller & Söhne GmbH',
      bookedAt: '2026-11-27',
      raw: expect.objectContaining({ debtorIban: 'BE68539007547034', endToEndId: null }),
    });
  });

  it('refuses malformed, foreign and entity-laden files whole, with the library error', () => {
    const refusal = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        return e instanceof Iso20022Error ? [e.code, e.message] : e;
      }
      return 'accepted';
    };
    const entity = Buffer.from(
      '<?xml version="1.0"?><!DOCTYPE Document [<!ENTITY amt "999999.99">]>' +
        '<Document xmlns="urn:iso:std:iso:20022:tech:xsd:pain.002.001.10"><CstmrPmtStsRpt><GrpHdr><MsgId>X</MsgId><CreDtTm>2026-11-27T10:00:00</CreDtTm></GrpHdr>' +
        '<OrgnlGrpInfAndSts><OrgnlMsgId>M</OrgnlMsgId><OrgnlMsgNmId>pain.001.001.09</OrgnlMsgNmId><GrpSts>ACSC</GrpSts></OrgnlGrpInfAndSts>' +
        '<OrgnlPmtInfAndSts><OrgnlPmtInfId>P</OrgnlPmtInfId><TxInfAndSts><OrgnlEndToEndId>E</OrgnlEndToEndId><TxSts>ACSC</TxSts><OrgnlTxRef><Amt><InstdAmt Ccy="EUR">&amt;</InstdAmt></Amt></OrgnlTxRef></TxInfAndSts></OrgnlPmtInfAndSts>' +
        '</CstmrPmtStsRpt></Document>',
    );
    expect(pain002.recognizes(entity)).toBe(true);
    expect(refusal(() => pain002.parse(entity))).toEqual(['DOCTYPE_FORBIDDEN', 'document has a DOCTYPE or entity declaration; refused']);
    expect(refusal(() => camt054.parse(libraryFixture('camt054-doctype.xml')))).toEqual(['DOCTYPE_FORBIDDEN', 'document has a DOCTYPE or entity declaration; refused']);

    const truncated = fixture('pain002-ours.v10.xml').subarray(0, 900);
    expect(refusal(() => pain002.parse(truncated))).toEqual(['NOT_XML', expect.stringContaining('not well-formed XML')]);
    expect(refusal(() => camt054.parse(libraryFixture('camt054-not-well-formed.xml')))).toEqual(['NOT_XML', expect.stringContaining('not well-formed XML')]);

    expect(refusal(() => pain002.parse(fixture('camt054-ours.xml')))).toEqual(['WRONG_MESSAGE', expect.stringContaining('got Document in urn:iso:std:iso:20022:tech:xsd:camt.054.001.08')]);
    expect(refusal(() => camt054.parse(libraryFixture('camt053-foreign.xml')))).toEqual(['WRONG_MESSAGE', expect.stringContaining('camt.053')]);

    expect(refusal(() => pain002.parse(libraryFixture('pain002-amount-decimals.xml')))).toEqual(['INVALID_AMOUNT', expect.stringContaining('decimal places')]);
    expect(refusal(() => camt054.parse(libraryFixture('camt054-sum-mismatch.xml')))).toEqual(['TOTALS_MISMATCH', expect.any(String)]);
  });
});
