import type { TransactionFailureReason } from '@payments/contracts';
import { Entry, NachaFile, readNachaFile, RECORD_LENGTH, returnReason } from '@payments/rails';
import type { InboundEntry, InboundFormat, ParsedInboundFile } from '../files/file-format';

/**
 * The bank's NACHA return and NOC files: each return (addenda 99) is a RETURNED outcome of the entry we sent, found by
 * its original trace number (our rail reference); each notification of change (addenda 98) a NOTICE saying what must
 * change; anything else is shown to an operator. Strict: a malformed file throws the reader's error naming the line.
 */
export function nachaReturns(): InboundFormat {
  return { recognizes, parse };
}

/** A NACHA file begins with a 94-character file header record ("101…"), with or without line breaks. */
function recognizes(content: Buffer): boolean {
  const text = content.subarray(0, RECORD_LENGTH + 2).toString('latin1');
  if (!text.startsWith('101')) return false;
  const end = text.search(/\r?\n/);
  return end === RECORD_LENGTH || (end === -1 && content.length % RECORD_LENGTH === 0);
}

function parse(content: Buffer): ParsedInboundFile {
  // latin1 keeps one character per byte, so a stray non-ASCII byte is refused by the reader at its line.
  const file = readNachaFile(content.toString('latin1'));
  const entries = file.batches.flatMap((batch) => batch.entries.map((entry) => entryOf(entry, batch.header.secCode)));
  const count = (type: InboundEntry['type']) => entries.filter((e) => e.type === type).length;
  return {
    format: 'NACHA_RETURNS',
    entries,
    summary: { ...fileFacts(file), returns: count('OUTCOME'), notices: count('NOTICE'), other: count('OTHER') },
  };
}

function fileFacts(file: NachaFile): Record<string, unknown> {
  const { header, control } = file;
  return {
    immediateOrigin: header.immediateOrigin, immediateOriginName: header.immediateOriginName, creationDate: header.creationDate, fileIdModifier: header.fileIdModifier,
    batchCount: control.batchCount, entryAddendaCount: control.entryAddendaCount, totalDebit: control.totalDebit, totalCredit: control.totalCredit,
  };
}

function entryOf(entry: Entry, secCode: string): InboundEntry {
  const raw = rawOf(entry, secCode);
  for (const a of entry.addenda) {
    if ('returnCode' in a) {
      const reason = returnReason(a.returnCode);
      // A return entry carries the code of the reverse direction's family: 21/31 return a credit (22/23, 32/33, our
      // payouts and prenotes), 26/36 a debit (27/28, 37/38, our pulls). Only a returned pull is a failed collection.
      // (returnReason maps only to PAYOUT_RETURNED, ACCOUNT_*, COMPLIANCE_REJECTED and COLLECTION_FAILED, all transaction reasons.)
      const returnedDebit = '6789'.includes(entry.transactionCode[1]);
      return {
        type: 'OUTCOME', railReference: a.originalTraceNumber, kind: 'RETURNED', railCode: a.returnCode, failureReason: (returnedDebit ? reason.incoming : reason.outgoing) as TransactionFailureReason,
        raw: { ...raw, returnCode: a.returnCode, description: reason.description, information: a.information, dateOfDeath: a.dateOfDeath, addendaLine: a.line },
      };
    }
    if ('changeCode' in a) {
      return { type: 'NOTICE', railReference: a.originalTraceNumber, code: a.changeCode, message: changeMessage(a.changeCode, a.correctedData), raw: { ...raw, changeCode: a.changeCode, correctedData: a.correctedData, addendaLine: a.line } };
    }
  }
  // A live credit to our account (22 checking, 32 savings) an originator sent us: money arriving (a customer's
  // CCD/PPD credit to the deposit account). The DFI account number is the account it was addressed to (a virtual
  // account number), the identification number and the 05 addenda what the sender wrote (a reference code).
  if (entry.transactionCode === '22' || entry.transactionCode === '32') {
    const related = entry.addenda.flatMap((a) => ('raw' in a && a.type === '05' ? [a.raw.slice(3, 83).trim()] : []));
    return {
      type: 'CREDIT', amount: entry.amount, currency: 'USD', reference: related[0] || entry.individualId.trim() || null,
      bankReference: `ACH-TRACE:${entry.traceNumber}`,
      texts: [entry.individualId, ...related].map((t) => t.trim()).filter((t) => t !== ''),
      accountNumbers: [entry.accountNumber.trim()],
      ...(entry.name.trim() ? { debtorName: entry.name.trim() } : {}),
      raw: { ...raw, paymentRelatedInformation: related },
    };
  }
  return { type: 'OTHER', message: `line ${entry.line}: a ${secCode} entry (transaction code ${entry.transactionCode}, trace ${entry.traceNumber}) that is neither a return nor a notification of change`, raw };
}

/** What the entry says, without the full account number (it is kept by the account, not in file records). */
function rawOf(entry: Entry, secCode: string): Record<string, unknown> {
  return {
    line: entry.line, secCode, transactionCode: entry.transactionCode, traceNumber: entry.traceNumber, amount: entry.amount, routingNumber: entry.routingNumber,
    accountNumberLast4: entry.accountNumber.slice(-4), individualId: entry.individualId, name: entry.name,
  };
}

const ACCOUNT_TYPE_OF_CODE: Record<string, string> = { '22': 'CHECKING', '23': 'CHECKING', '27': 'CHECKING', '28': 'CHECKING', '32': 'SAVINGS', '33': 'SAVINGS', '37': 'SAVINGS', '38': 'SAVINGS' };
const accountType = (code: string) => `${ACCOUNT_TYPE_OF_CODE[code] ?? 'another account type'} (transaction code ${code})`;

/** The NOC's corrected data, laid out by change code (NACHA Operating Rules, Appendix Five), as what must change. */
function changeMessage(code: string, data: string): string {
  const field = (from: number, to: number) => data.slice(from - 1, to).trim();
  switch (code) {
    case 'C01':
      return `C01 incorrect account number: the account number must become ${field(1, 17)}`;
    case 'C02':
      return `C02 incorrect routing number: the routing number must become ${field(1, 9)}`;
    case 'C03':
      return `C03 incorrect routing and account number: they must become routing ${field(1, 9)}, account ${field(13, 29)}`;
    case 'C04':
      return `C04 incorrect name: the name must become ${field(1, 22)}`;
    case 'C05':
      return `C05 incorrect transaction code: the account type must become ${accountType(field(1, 2))}`;
    case 'C06':
      return `C06 incorrect account number and transaction code: they must become account ${field(1, 17)}, ${accountType(field(21, 22))}`;
    case 'C07':
      return `C07 incorrect routing number, account number and transaction code: they must become routing ${field(1, 9)}, account ${field(10, 26)}, ${accountType(field(27, 28))}`;
    case 'C09':
      return `C09 incorrect individual identification: it must become ${field(1, 22)}`;
    default:
      return `${code} notification of change: corrected data "${data}"`;
  }
}
