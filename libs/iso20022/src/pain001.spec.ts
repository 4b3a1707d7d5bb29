import { XMLParser } from 'fast-xml-parser';
import { CreditTransferBatch, PAIN_001_NAMESPACE, writePain001, writePain001Message } from './pain001';

// An independent reading: document order kept (preserveOrder), prefixes and entities untouched, numbers left as text.
type Ordered = Record<string, unknown>;
const orderedParser = new XMLParser({ preserveOrder: true, ignoreAttributes: false, attributeNamePrefix: '', parseTagValue: false, processEntities: false });
const nameOf = (n: Ordered) => Object.keys(n).find((k) => k !== ':@')!;
const childrenOf = (n: Ordered) => n[nameOf(n)] as Ordered[];
const kids = (n: Ordered, name: string) => childrenOf(n).filter((c) => nameOf(c) === name);
const kid = (n: Ordered, name: string) => {
  const found = kids(n, name);
  if (found.length !== 1) throw new Error(`expected one ${name}, found ${found.length}`);
  return found[0];
};
const textOf = (n: Ordered) => String((childrenOf(n)[0] as Ordered)['#text']);
const path = (n: Ordered, p: string) => p.split('/').reduce(kid, n);

function batch(overrides: Partial<CreditTransferBatch> = {}): CreditTransferBatch {
  return {
    messageId: 'MSG-20261127-01',
    paymentInformationId: 'PMT-20261127-01',
    createdAt: new Date('2026-11-27T09:00:00.123Z'),
    requestedExecutionDate: '2026-11-30',
    currency: 'EUR',
    initiatingPartyName: 'Payments Platform Ltd',
    debtor: { name: 'Payments Platform Ltd', iban: 'DE89 3704 0044 0532 0130 00', bic: 'cobadeffxxx' },
    transfers: [
      { instructionId: 'TX-0001', endToEndId: 'E2E-0001', amount: 12345, creditorName: 'Jean Dupont', creditorIban: 'FR1420041010050500013M02606', creditorBic: 'BNPAFRPP', remittanceInformation: 'Invoice 42' },
      { instructionId: 'TX-0002', endToEndId: 'E2E-0002', amount: 1, creditorName: 'José Müller-Łukasiewicz', creditorIban: 'NL91ABNA0417164300' },
      { instructionId: 'TX-0003', endToEndId: 'Transaction:019a7/3', amount: 99_999_999_999, creditorName: 'A'.repeat(80), creditorIban: 'BE68539007547034' },
    ],
    ...overrides,
  };
}

describe('writePain001', () => {
  it('writes one CustomerCreditTransferInitiationV09 whose totals, ids and amounts read back exactly', () => {
    const written = writePain001(batch());
    const doc = (orderedParser.parse(written.xml) as Ordered[]).find((n) => nameOf(n) === 'Document')!;
    expect((doc[':@'] as Record<string, string>).xmlns).toBe(PAIN_001_NAMESPACE);
    expect(childrenOf(doc).map(nameOf)).toEqual(['CstmrCdtTrfInitn']);
    const root = kid(doc, 'CstmrCdtTrfInitn');
    const pmtInf = kid(root, 'PmtInf');
    // Element order of the schema's sequences.
    expect(childrenOf(kid(root, 'GrpHdr')).map(nameOf)).toEqual(['MsgId', 'CreDtTm', 'NbOfTxs', 'CtrlSum', 'InitgPty']);
    expect(childrenOf(pmtInf).map(nameOf)).toEqual([
      'PmtInfId', 'PmtMtd', 'BtchBookg', 'NbOfTxs', 'CtrlSum', 'PmtTpInf', 'ReqdExctnDt', 'Dbtr', 'DbtrAcct', 'DbtrAgt', 'ChrgBr',
      'CdtTrfTxInf', 'CdtTrfTxInf', 'CdtTrfTxInf',
    ]);
    expect(childrenOf(kids(pmtInf, 'CdtTrfTxInf')[0]).map(nameOf)).toEqual(['PmtId', 'Amt', 'CdtrAgt', 'Cdtr', 'CdtrAcct', 'RmtInf']);

    const txs = kids(pmtInf, 'CdtTrfTxInf');
    const amounts = txs.map((t) => textOf(path(t, 'Amt/InstdAmt')));
    expect(amounts).toEqual(['123.45', '0.01', '999999999.99']);
    expect(txs.map((t) => (path(t, 'Amt/InstdAmt')[':@'] as Record<string, string>).Ccy)).toEqual(['EUR', 'EUR', 'EUR']);
    expect(txs.map((t) => textOf(path(t, 'PmtId/EndToEndId')))).toEqual(['E2E-0001', 'E2E-0002', 'Transaction:019a7/3']);
    expect(txs.map((t) => textOf(path(t, 'PmtId/InstrId')))).toEqual(['TX-0001', 'TX-0002', 'TX-0003']);

    // Totals recomputed from the read-back amounts in integer cents.
    const cents = amounts.map((a) => BigInt(a.replace('.', '')));
    const total = cents.reduce((s, c) => s + c, 0n);
    for (const header of [kid(root, 'GrpHdr'), pmtInf]) {
      expect(textOf(kid(header, 'NbOfTxs'))).toBe(String(txs.length));
      expect(BigInt(textOf(kid(header, 'CtrlSum')).replace('.', ''))).toBe(total);
    }
    expect(written.controlSum).toBe('1000000123.45');
    expect(written.numberOfTransactions).toBe(3);

    expect(textOf(path(root, 'GrpHdr/CreDtTm'))).toBe('2026-11-27T09:00:00Z');
    expect(textOf(path(pmtInf, 'PmtTpInf/SvcLvl/Cd'))).toBe('SEPA');
    expect(textOf(kid(pmtInf, 'ChrgBr'))).toBe('SLEV');
    expect(textOf(kid(pmtInf, 'PmtMtd'))).toBe('TRF');
    expect(textOf(path(pmtInf, 'ReqdExctnDt/Dt'))).toBe('2026-11-30');
    expect(textOf(path(pmtInf, 'DbtrAcct/Id/IBAN'))).toBe('DE89370400440532013000');
    expect(textOf(path(pmtInf, 'DbtrAgt/FinInstnId/BICFI'))).toBe('COBADEFFXXX');
    expect(textOf(path(txs[0], 'CdtrAgt/FinInstnId/BICFI'))).toBe('BNPAFRPP');
    expect(kids(txs[1], 'CdtrAgt')).toHaveLength(0);
    expect(textOf(path(txs[1], 'Cdtr/Nm'))).toBe('Jose Muller-Lukasiewicz');
    expect(textOf(path(txs[2], 'Cdtr/Nm'))).toBe('A'.repeat(70));
    expect(textOf(path(txs[0], 'RmtInf/Ustrd'))).toBe('Invoice 42');
  });

  it('writes amounts of a zero-decimal currency and of non-EUR batches without the SEPA service level', () => {
    const written = writePain001(batch({ currency: 'XOF', transfers: [{ instructionId: 'A', endToEndId: 'B', amount: 5000, creditorName: 'Awa', creditorIban: 'BE68539007547034' }] }));
    expect(written.xml).toContain('<InstdAmt Ccy="XOF">5000</InstdAmt>');
    expect(written.controlSum).toBe('5000');
    expect(written.xml).not.toContain('<PmtTpInf>');
    expect(written.xml).toContain('<ChrgBr>SHAR</ChrgBr>');
  });

  it.each<[string, Partial<CreditTransferBatch>, string]>([
    ['a bad creditor IBAN check digit', { transfers: [{ ...batch().transfers[0], creditorIban: 'FR1520041010050500013M02606' }] }, 'transfers[0].creditorIban "FR1520041010050500013M02606" is not a valid IBAN'],
    ['a bad debtor BIC', { debtor: { ...batch().debtor, bic: 'COBA1EFF' } }, 'debtor.bic "COBA1EFF" is not a valid BIC'],
    ['an end-to-end id over 35 characters', { transfers: [{ ...batch().transfers[0], endToEndId: 'E'.repeat(36) }] }, `transfers[0].endToEndId "${'E'.repeat(36)}" must be 1-35 characters`],
    ['an end-to-end id with a forbidden character', { transfers: [{ ...batch().transfers[0], endToEndId: 'E2E_1' }] }, 'transfers[0].endToEndId "E2E_1" must be 1-35 characters'],
    ['an id with "//"', { transfers: [{ ...batch().transfers[0], instructionId: 'A//B' }] }, 'must not start or end with "/" or contain "//"'],
    ['a repeated end-to-end id', { transfers: [batch().transfers[0], { ...batch().transfers[1], endToEndId: 'E2E-0001' }] }, 'transfers[1].endToEndId "E2E-0001" is repeated in the batch'],
    ['a fractional amount', { transfers: [{ ...batch().transfers[0], amount: 12.5 }] }, 'transfers[0].amount 12.5 must be a positive integer of minor units'],
    ['a zero amount', { transfers: [{ ...batch().transfers[0], amount: 0 }] }, 'transfers[0].amount 0 must be a positive integer'],
    ['a name in another script', { transfers: [{ ...batch().transfers[0], creditorName: 'Иван Петров' }] }, 'transfers[0].creditorName has a character outside the SEPA character set: "И"'],
    ['an ampersand in a name', { debtor: { ...batch().debtor, name: 'Smith & Co' } }, 'debtor.name has a character outside the SEPA character set: "&"'],
    ['remittance information over 140 characters', { transfers: [{ ...batch().transfers[0], remittanceInformation: 'x'.repeat(141) }] }, 'transfers[0].remittanceInformation is longer than 140 characters'],
    ['an unknown currency', { currency: 'XYZ' }, 'currency: unknown currency "XYZ"'],
    ['a crypto currency', { currency: 'BTC' }, 'currency: unknown currency "BTC"'],
    ['no transfers', { transfers: [] }, 'a batch needs at least one transfer'],
    ['a bad execution date', { requestedExecutionDate: '30/11/2026' }, 'requestedExecutionDate "30/11/2026" is not a date'],
  ])('refuses %s', (_label, overrides, message) => {
    expect(() => writePain001(batch(overrides))).toThrow(message);
  });
});

describe('writePain001Message', () => {
  const { messageId, createdAt, initiatingPartyName, ...eur } = batch();
  const jpy = { ...eur, paymentInformationId: 'PMT-XOF', currency: 'XOF', transfers: [{ instructionId: 'TX-XOF', endToEndId: 'E2E-XOF', amount: 5000, creditorName: 'Taro', creditorIban: 'BE68539007547034', creditorBic: 'MHCBJPJT' }] };
  const inst = { ...eur, paymentInformationId: 'PMT-INST', localInstrument: 'INST', transfers: [{ instructionId: 'TX-INST', endToEndId: 'E2E-INST', amount: 700, creditorName: 'Ines', creditorIban: 'NL91ABNA0417164300' }] };

  it('writes one PmtInf per block, the group totals over all of them irrespective of currency', () => {
    const written = writePain001Message({ messageId, createdAt, initiatingPartyName, paymentInformations: [eur, jpy, inst] });
    const doc = (orderedParser.parse(written.xml) as Ordered[]).find((n) => nameOf(n) === 'Document')!;
    const root = kid(doc, 'CstmrCdtTrfInitn');
    const blocks = kids(root, 'PmtInf');
    expect(blocks.map((b) => textOf(kid(b, 'PmtInfId')))).toEqual(['PMT-20261127-01', 'PMT-XOF', 'PMT-INST']);
    expect(blocks.map((b) => [textOf(kid(b, 'NbOfTxs')), textOf(kid(b, 'CtrlSum'))])).toEqual([['3', '1000000123.45'], ['1', '5000'], ['1', '7.00']]);
    // 1000000123.45 EUR + 5000 XOF + 7.00 EUR, as decimals.
    expect([textOf(path(root, 'GrpHdr/NbOfTxs')), textOf(path(root, 'GrpHdr/CtrlSum'))]).toEqual(['5', '1000005130.45']);
    expect(written.paymentInformations.map((p) => [p.paymentInformationId, p.controlSumMinor])).toEqual([['PMT-20261127-01', 100000012345n], ['PMT-XOF', 5000n], ['PMT-INST', 700n]]);
    expect(kids(blocks[1], 'PmtTpInf')).toHaveLength(0);
    expect(childrenOf(kid(blocks[2], 'PmtTpInf')).map(nameOf)).toEqual(['SvcLvl', 'LclInstrm']);
    expect(textOf(path(blocks[2], 'PmtTpInf/LclInstrm/Cd'))).toBe('INST');
  });

  it('refuses ids repeated across blocks and names the block of a bad field', () => {
    expect(() => writePain001Message({ messageId, createdAt, initiatingPartyName, paymentInformations: [eur, { ...jpy, paymentInformationId: eur.paymentInformationId }] })).toThrow(
      'paymentInformations[1].paymentInformationId "PMT-20261127-01" is repeated in the message',
    );
    expect(() => writePain001Message({ messageId, createdAt, initiatingPartyName, paymentInformations: [eur, { ...jpy, transfers: [{ ...jpy.transfers[0], endToEndId: 'E2E-0002' }] }] })).toThrow(
      'paymentInformations[1].transfers[0].endToEndId "E2E-0002" is repeated in the message',
    );
    expect(() => writePain001Message({ messageId, createdAt, initiatingPartyName, paymentInformations: [eur, { ...jpy, currency: 'BTC' }] })).toThrow('paymentInformations[1].currency: unknown currency "BTC"');
    expect(() => writePain001Message({ messageId, createdAt, initiatingPartyName, paymentInformations: [] })).toThrow('a message needs at least one payment information block');
  });
});
