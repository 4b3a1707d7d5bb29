import type { IncomingFailureReason, OutgoingFailureReason } from '@payments/contracts';
import type { Batch, Entry, NachaFile } from './reader';

/** What a return reason code means for the transaction it returns: the published reasons; the code goes to failureDetail. */
export interface ReturnReason {
  code: string;
  description: string;
  /** For a returned credit (a payout, transfer-out). */
  outgoing: OutgoingFailureReason;
  /** For a returned debit (a collection, transfer-in pull). */
  incoming: IncomingFailureReason;
}

// Account problems map to the published account reasons; the rest of a returned payout is PAYOUT_RETURNED; a returned
// collection is always COLLECTION_FAILED (the incoming enum has nothing finer). R16 (OFAC/frozen) is a compliance stop.
const CODES: Record<string, [string, OutgoingFailureReason]> = {
  R01: ['Insufficient funds', 'PAYOUT_RETURNED'],
  R02: ['Account closed', 'ACCOUNT_CANNOT_RECEIVE'],
  R03: ['No account / unable to locate account', 'ACCOUNT_INVALID'],
  R04: ['Invalid account number structure', 'ACCOUNT_INVALID'],
  R05: ['Unauthorized debit to consumer account using corporate SEC code', 'PAYOUT_RETURNED'],
  R06: ['Returned per ODFI request', 'PAYOUT_RETURNED'],
  R07: ['Authorization revoked by customer', 'PAYOUT_RETURNED'],
  R08: ['Payment stopped', 'PAYOUT_RETURNED'],
  R09: ['Uncollected funds', 'PAYOUT_RETURNED'],
  R10: ['Customer advises originator is not known and/or not authorized', 'PAYOUT_RETURNED'],
  R11: ['Customer advises entry not in accordance with the terms of the authorization', 'PAYOUT_RETURNED'],
  R12: ['Account sold to another DFI', 'ACCOUNT_CANNOT_RECEIVE'],
  R13: ['Invalid ACH routing number', 'ACCOUNT_INVALID'],
  R14: ['Representative payee deceased or unable to continue in that capacity', 'ACCOUNT_CANNOT_RECEIVE'],
  R15: ['Beneficiary or account holder deceased', 'ACCOUNT_CANNOT_RECEIVE'],
  R16: ['Account frozen / entry returned per OFAC instruction', 'COMPLIANCE_REJECTED'],
  R17: ['File record edit criteria / entry with invalid account number initiated under questionable circumstances', 'PAYOUT_RETURNED'],
  R20: ['Non-transaction account', 'ACCOUNT_CANNOT_RECEIVE'],
  R23: ['Credit entry refused by receiver', 'ACCOUNT_CANNOT_RECEIVE'],
  R24: ['Duplicate entry', 'PAYOUT_RETURNED'],
  R29: ['Corporate customer advises not authorized', 'PAYOUT_RETURNED'],
  R31: ['Permissible return entry (CCD and CTX only)', 'PAYOUT_RETURNED'],
};

export function returnReason(code: string): ReturnReason {
  const known = CODES[code];
  return {
    code,
    description: known?.[0] ?? 'Returned entry',
    outgoing: known?.[1] ?? 'PAYOUT_RETURNED',
    incoming: 'COLLECTION_FAILED',
  };
}

export const CHANGE_CODES: Record<string, string> = {
  C01: 'Incorrect DFI account number',
  C02: 'Incorrect routing number',
  C03: 'Incorrect routing number and incorrect DFI account number',
  C05: 'Incorrect transaction code',
  C06: 'Incorrect DFI account number and incorrect transaction code',
  C07: 'Incorrect routing number, incorrect DFI account number and incorrect transaction code',
  C09: 'Incorrect individual identification number',
  C13: 'Addenda format error',
};

export interface ReturnedEntry {
  /** Trace number of the entry we originated (what the transaction keeps). */
  originalTraceNumber: string;
  reason: ReturnReason;
  /** The return entry's own trace number (assigned by the RDFI). */
  traceNumber: string;
  transactionCode: string;
  amount: number;
  routingNumber: string;
  accountNumber: string;
  individualId: string;
  name: string;
  secCode: string;
  dateOfDeath: string;
  information: string;
  line: number;
}

export interface NotificationOfChange {
  originalTraceNumber: string;
  changeCode: string;
  description: string;
  /** The corrected value(s) as the RDFI wrote them (e.g. the right account number for C01). */
  correctedData: string;
  traceNumber: string;
  routingNumber: string;
  accountNumber: string;
  individualId: string;
  name: string;
  line: number;
}

/** The returns (entries with a type 99 addenda) of a parsed file. */
export function returnsOf(file: NachaFile): ReturnedEntry[] {
  return each(file, (batch, entry) =>
    entry.addenda.flatMap((a) =>
      'returnCode' in a
        ? [{
            originalTraceNumber: a.originalTraceNumber, reason: returnReason(a.returnCode), traceNumber: entry.traceNumber,
            transactionCode: entry.transactionCode, amount: entry.amount, routingNumber: entry.routingNumber, accountNumber: entry.accountNumber,
            individualId: entry.individualId, name: entry.name, secCode: batch.header.secCode, dateOfDeath: a.dateOfDeath,
            information: a.information, line: entry.line,
          }]
        : [],
    ),
  );
}

/** The notifications of change (type 98 addenda, COR batches) of a parsed file. */
export function notificationsOfChange(file: NachaFile): NotificationOfChange[] {
  return each(file, (_batch, entry) =>
    entry.addenda.flatMap((a) =>
      'changeCode' in a
        ? [{
            originalTraceNumber: a.originalTraceNumber, changeCode: a.changeCode, description: CHANGE_CODES[a.changeCode] ?? 'Notification of change',
            correctedData: a.correctedData, traceNumber: entry.traceNumber, routingNumber: entry.routingNumber, accountNumber: entry.accountNumber,
            individualId: entry.individualId, name: entry.name, line: entry.line,
          }]
        : [],
    ),
  );
}

function each<T>(file: NachaFile, f: (batch: Batch, entry: Entry) => T[]): T[] {
  return file.batches.flatMap((b) => b.entries.flatMap((e) => f(b, e)));
}
