/**
 * Test fixtures: the files a bank sends back, written from the specifications' record layouts and message
 * definitions (not with our writers), so an import is tested against what a bank would send. Not part of the runtime
 * API (`@payments/rails/testing`): the rails' e2e tests and the chaos run's simulated bank use them.
 */

const alpha = (value: string, width: number) => value.toUpperCase().slice(0, width).padEnd(width, ' ');
const num = (value: number | string, width: number) => String(value).padStart(width, '0');

export interface ReturnedEntryFixture {
  /** Trace number of the entry we sent (ODFI 8 digits + 7-digit sequence). */
  originalTrace: string;
  /** R01, R03… */
  code: string;
  /** Cents. */
  amount: number;
  /** The returned entry was a debit we originated (a pull); a credit (payout) otherwise. */
  debit?: boolean;
  routingNumber: string;
  accountNumber: string;
  name: string;
}

/**
 * A NACHA return file (NACHA Operating Rules, Appendix Three: file header 1, batch header 5, entry detail 6 with a
 * type 99 return addenda 7, batch control 8, file control 9, padded with 9-records to a multiple of 10). The returning
 * bank is the RDFI; the return entries come back to our ODFI (`odfi`, 8 digits): that routing goes in each entry.
 */
export function nachaReturnFile(entries: ReturnedEntryFixture[], odfi: string, createdAt = new Date()): string {
  const yymmdd = createdAt.toISOString().slice(2, 10).replace(/-/g, '');
  const hhmm = createdAt.toISOString().slice(11, 16).replace(':', '');
  const records: string[] = [];
  records.push(`101 ${odfi}${checkDigit(odfi)} 091000019${yymmdd}${hhmm}A094101${alpha('OUR ODFI BANK', 23)}${alpha('RETURNING BANK', 23)}${alpha('', 8)}`);
  // Return entries keep the side of the entry they return: 21 returns a checking credit (a credit entry), 26 a checking debit.
  const serviceClass = entries.some((e) => e.debit) && entries.some((e) => !e.debit) ? '200' : entries.some((e) => e.debit) ? '225' : '220';
  records.push(`5${serviceClass}${alpha('RETURNING BANK', 16)}${alpha('', 20)}${alpha('9876543210', 10)}PPD${alpha('RETURN', 10)}${alpha('', 6)}${yymmdd}   1${'09100001'}${num(1, 7)}`);
  let hash = 0;
  let totalDebit = 0;
  let totalCredit = 0;
  entries.forEach((e, i) => {
    const code = e.debit ? '26' : '21';
    const trace = `09100001${num(i + 1, 7)}`;
    records.push(`6${code}${odfi}${checkDigit(odfi)}${alpha(e.accountNumber, 17)}${num(e.amount, 10)}${alpha('', 15)}${alpha(e.name, 22)}  1${trace}`);
    records.push(`799${e.code}${e.originalTrace}${alpha('', 6)}${e.routingNumber.slice(0, 8)}${alpha('', 44)}${trace}`);
    hash += Number(odfi);
    if (e.debit) totalDebit += e.amount;
    else totalCredit += e.amount;
  });
  const entryHash = num(hash % 10_000_000_000, 10);
  const count = entries.length * 2;
  records.push(`8${serviceClass}${num(count, 6)}${entryHash}${num(totalDebit, 12)}${num(totalCredit, 12)}${alpha('9876543210', 10)}${alpha('', 19)}${alpha('', 6)}09100001${num(1, 7)}`);
  const blocks = Math.ceil((records.length + 1) / 10);
  records.push(`9${num(1, 6)}${num(blocks, 6)}${num(count, 8)}${entryHash}${num(totalDebit, 12)}${num(totalCredit, 12)}${alpha('', 39)}`);
  while (records.length % 10 !== 0) records.push('9'.repeat(94));
  return `${records.join('\n')}\n`;
}

/** The ABA check digit of an 8-digit routing prefix (weights 3, 7, 1). */
function checkDigit(first8: string): number {
  const weights = [3, 7, 1, 3, 7, 1, 3, 7];
  const sum = [...first8].reduce((s, d, i) => s + Number(d) * weights[i], 0);
  return (10 - (sum % 10)) % 10;
}

const decimal = (minor: number) => `${Math.floor(minor / 100)}.${String(minor % 100).padStart(2, '0')}`;

/** A pain.002.001.10 customer payment status report rejecting transactions of one of our pain.001 messages. */
export function pain002Rejection(originalMsgId: string, rejections: { endToEndId: string; code: string; amount: number; currency: string }[]): string {
  const statuses = rejections
    .map(
      (r, i) => `
      <TxInfAndSts>
        <StsId>S${i + 1}</StsId>
        <OrgnlEndToEndId>${r.endToEndId}</OrgnlEndToEndId>
        <TxSts>RJCT</TxSts>
        <StsRsnInf><Rsn><Cd>${r.code}</Cd></Rsn><AddtlInf>Rejected by the creditor bank</AddtlInf></StsRsnInf>
        <OrgnlTxRef><Amt><InstdAmt Ccy="${r.currency}">${decimal(r.amount)}</InstdAmt></Amt></OrgnlTxRef>
      </TxInfAndSts>`,
    )
    .join('');
  return `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:pain.002.001.10">
  <CstmrPmtStsRpt>
    <GrpHdr><MsgId>STS-${originalMsgId.slice(0, 20)}</MsgId><CreDtTm>${new Date().toISOString()}</CreDtTm></GrpHdr>
    <OrgnlGrpInfAndSts><OrgnlMsgId>${originalMsgId}</OrgnlMsgId><OrgnlMsgNmId>pain.001.001.09</OrgnlMsgNmId><GrpSts>PART</GrpSts></OrgnlGrpInfAndSts>
    <OrgnlPmtInfAndSts>
      <OrgnlPmtInfId>PMT-1</OrgnlPmtInfId>
      <PmtInfSts>PART</PmtInfSts>${statuses}
    </OrgnlPmtInfAndSts>
  </CstmrPmtStsRpt>
</Document>
`;
}

/** A camt.054.001.08 notification: one booked debit entry per payout of ours (the bank booked them on our account). */
export function camt054Debits(iban: string, debits: { endToEndId: string; amount: number; currency: string }[]): string {
  const today = new Date().toISOString().slice(0, 10);
  const entries = debits
    .map(
      (d, i) => `
      <Ntry>
        <NtryRef>${i + 1}</NtryRef>
        <Amt Ccy="${d.currency}">${decimal(d.amount)}</Amt>
        <CdtDbtInd>DBIT</CdtDbtInd>
        <Sts><Cd>BOOK</Cd></Sts>
        <BookgDt><Dt>${today}</Dt></BookgDt>
        <ValDt><Dt>${today}</Dt></ValDt>
        <AcctSvcrRef>BANKREF-${i + 1}</AcctSvcrRef>
        <NtryDtls><TxDtls>
          <Refs><EndToEndId>${d.endToEndId}</EndToEndId></Refs>
          <Amt Ccy="${d.currency}">${decimal(d.amount)}</Amt>
          <CdtDbtInd>DBIT</CdtDbtInd>
        </TxDtls></NtryDtls>
      </Ntry>`,
    )
    .join('');
  return `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.054.001.08">
  <BkToCstmrDbtCdtNtfctn>
    <GrpHdr><MsgId>CAMT54-${Date.now()}</MsgId><CreDtTm>${new Date().toISOString()}</CreDtTm></GrpHdr>
    <Ntfctn>
      <Id>NTF-1</Id>
      <CreDtTm>${new Date().toISOString()}</CreDtTm>
      <Acct><Id><IBAN>${iban}</IBAN></Id><Ccy>${debits[0]?.currency ?? 'EUR'}</Ccy></Acct>${entries}
    </Ntfctn>
  </BkToCstmrDbtCdtNtfctn>
</Document>
`;
}

/**
 * A camt.054.001.08 notification of money that arrived on our account: one booked CRDT entry per credit, with the
 * bank's AcctSvcrRef, the sender's unstructured remittance information and, when given, the creditor account the
 * sender addressed (a virtual account number, as Othr/Id).
 */
export function camt054Credits(iban: string, credits: { amount: number; currency: string; bankReference: string; remittance?: string; creditorAccount?: string; debtorName?: string }[]): string {
  const today = new Date().toISOString().slice(0, 10);
  const entries = credits
    .map(
      (c, i) => `
      <Ntry>
        <NtryRef>${i + 1}</NtryRef>
        <Amt Ccy="${c.currency}">${decimal(c.amount)}</Amt>
        <CdtDbtInd>CRDT</CdtDbtInd>
        <Sts><Cd>BOOK</Cd></Sts>
        <BookgDt><Dt>${today}</Dt></BookgDt>
        <ValDt><Dt>${today}</Dt></ValDt>
        <AcctSvcrRef>${c.bankReference}</AcctSvcrRef>
        <NtryDtls><TxDtls>
          <Refs><EndToEndId>NOTPROVIDED</EndToEndId></Refs>
          <Amt Ccy="${c.currency}">${decimal(c.amount)}</Amt>
          <CdtDbtInd>CRDT</CdtDbtInd>
          <RltdPties>
            <Dbtr><Pty><Nm>${c.debtorName ?? 'Sam Sender'}</Nm></Pty></Dbtr>${c.creditorAccount ? `
            <CdtrAcct><Id><Othr><Id>${c.creditorAccount}</Id></Othr></Id></CdtrAcct>` : ''}
          </RltdPties>${c.remittance ? `
          <RmtInf><Ustrd>${c.remittance}</Ustrd></RmtInf>` : ''}
        </TxDtls></NtryDtls>
      </Ntry>`,
    )
    .join('');
  return `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.054.001.08">
  <BkToCstmrDbtCdtNtfctn>
    <GrpHdr><MsgId>CAMT54-${Date.now()}-${Math.random().toString(36).slice(2, 8)}</MsgId><CreDtTm>${new Date().toISOString()}</CreDtTm></GrpHdr>
    <Ntfctn>
      <Id>NTF-1</Id>
      <CreDtTm>${new Date().toISOString()}</CreDtTm>
      <Acct><Id><IBAN>${iban}</IBAN></Id><Ccy>${credits[0]?.currency ?? 'EUR'}</Ccy></Acct>${entries}
    </Ntfctn>
  </BkToCstmrDbtCdtNtfctn>
</Document>
`;
}
