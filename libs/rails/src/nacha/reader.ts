import { BLOCKING_FACTOR, entryHash, RECORD_LENGTH } from './fields';

/** A file the reader refuses, whole; `line` is 1-based (0 when the problem is the file as a whole). */
export class NachaFormatError extends Error {
  constructor(
    readonly line: number,
    readonly problem: string,
  ) {
    super(line > 0 ? `NACHA file refused: line ${line}: ${problem}` : `NACHA file refused: ${problem}`);
    this.name = 'NachaFormatError';
  }
}

export interface FileHeader {
  immediateDestination: string;
  immediateOrigin: string;
  creationDate: string;
  creationTime: string;
  fileIdModifier: string;
  immediateDestinationName: string;
  immediateOriginName: string;
  referenceCode: string;
}

export interface BatchHeader {
  serviceClassCode: string;
  companyName: string;
  companyDiscretionaryData: string;
  companyIdentification: string;
  secCode: string;
  companyEntryDescription: string;
  effectiveEntryDate: string;
  originatingDfi: string;
  batchNumber: number;
}

/** Addenda 05 (payment related information), 99 (return), 98 (notification of change) or any other type (kept raw). */
export type Addenda =
  | { line: number; type: '05'; paymentRelatedInformation: string; addendaSequence: number; entryDetailSequence: string }
  | { line: number; type: '99'; returnCode: string; originalTraceNumber: string; dateOfDeath: string; originalRdfi: string; information: string; traceNumber: string }
  | { line: number; type: '98'; changeCode: string; originalTraceNumber: string; originalRdfi: string; correctedData: string; traceNumber: string }
  | { line: number; type: string; raw: string };

export interface Entry {
  line: number;
  transactionCode: string;
  /** The 9-digit routing number (8-digit RDFI id + check digit). */
  routingNumber: string;
  accountNumber: string;
  amount: number;
  individualId: string;
  name: string;
  discretionaryData: string;
  traceNumber: string;
  addenda: Addenda[];
}

export interface Batch {
  header: BatchHeader;
  entries: Entry[];
  control: { entryAddendaCount: number; entryHash: number; totalDebit: number; totalCredit: number };
}

export interface NachaFile {
  header: FileHeader;
  batches: Batch[];
  control: { batchCount: number; blockCount: number; entryAddendaCount: number; entryHash: number; totalDebit: number; totalCredit: number };
}

const DEBIT_CODES = new Set(['26', '27', '28', '29', '36', '37', '38', '39', '46', '47', '48', '49', '55', '56']);
const CREDIT_CODES = new Set(['21', '22', '23', '24', '31', '32', '33', '34', '41', '42', '43', '44', '51', '52', '53', '54']);

/** Parses a NACHA file strictly: structure, widths, counts, entry hashes and totals. Any problem refuses the whole file. */
export function readNachaFile(text: string): NachaFile {
  const lines = splitRecords(text);
  let i = 0;
  const at = () => i + 1;
  const peekType = () => (i < lines.length ? lines[i][0] : undefined);

  if (peekType() !== '1') throw new NachaFormatError(1, `expected a file header record (type 1), found ${describe(lines[0])}`);
  const header = fileHeader(lines[i], at());
  i++;

  const batches: Batch[] = [];
  while (peekType() === '5') batches.push(readBatch());
  if (i >= lines.length) throw new NachaFormatError(lines.length, 'the file ends without a file control record (type 9); it is truncated');
  if (peekType() !== '9') throw new NachaFormatError(at(), `expected a batch header (type 5) or the file control (type 9), found ${describe(lines[i])}`);
  const controlLine = at();
  const c = lines[i];
  i++;
  for (; i < lines.length; i++) {
    if (lines[i] !== '9'.repeat(RECORD_LENGTH)) throw new NachaFormatError(at(), `only 9-filled padding records may follow the file control, found ${describe(lines[i])}`);
  }
  const control = {
    batchCount: num(c, 2, 7, controlLine, 'batch count'),
    blockCount: num(c, 8, 13, controlLine, 'block count'),
    entryAddendaCount: num(c, 14, 21, controlLine, 'entry/addenda count'),
    entryHash: num(c, 22, 31, controlLine, 'entry hash'),
    totalDebit: num(c, 32, 43, controlLine, 'total debit amount'),
    totalCredit: num(c, 44, 55, controlLine, 'total credit amount'),
  };
  if (lines.length % BLOCKING_FACTOR !== 0) throw new NachaFormatError(0, `${lines.length} records is not a whole number of blocks of ${BLOCKING_FACTOR}`);
  const entries = batches.flatMap((b) => b.entries);
  const expected = {
    batchCount: batches.length,
    blockCount: lines.length / BLOCKING_FACTOR,
    entryAddendaCount: entries.reduce((n, e) => n + 1 + e.addenda.length, 0),
    entryHash: entryHash(entries.map((e) => e.routingNumber.slice(0, 8))),
    totalDebit: batches.reduce((s, b) => s + b.control.totalDebit, 0),
    totalCredit: batches.reduce((s, b) => s + b.control.totalCredit, 0),
  };
  compare(control, expected, controlLine, 'file control');
  return { header, batches, control };

  function readBatch(): Batch {
    const headerLine = at();
    const h = batchHeader(lines[i], headerLine);
    i++;
    const entries: Entry[] = [];
    let debit = 0;
    let credit = 0;
    const truncated = () => new NachaFormatError(lines.length, `the file ends inside batch ${h.batchNumber} without its batch control (type 8); it is truncated`);
    while (peekType() === '6') {
      const entry = entryDetail(lines[i], at());
      const indicator = lines[i][78];
      i++;
      while (peekType() === '7') {
        entry.addenda.push(addenda(lines[i], at()));
        i++;
      }
      if (i >= lines.length) throw truncated();
      if (indicator === '0' && entry.addenda.length > 0) throw new NachaFormatError(entry.line, 'addenda follow an entry whose addenda indicator is 0');
      if (indicator === '1' && entry.addenda.length === 0) throw new NachaFormatError(entry.line, 'the addenda indicator is 1 but no addenda record follows');
      const remittances = entry.addenda.filter((a) => a.type === '05');
      if ((h.secCode === 'PPD' || h.secCode === 'CCD') && remittances.length > 1) throw new NachaFormatError(remittances[1].line, `a ${h.secCode} entry carries at most one addenda record`);
      for (const a of remittances) {
        if (!('entryDetailSequence' in a)) continue;
        if (a.entryDetailSequence !== entry.traceNumber.slice(8)) throw new NachaFormatError(a.line, `entry detail sequence number ${a.entryDetailSequence} is not the last 7 digits of its entry's trace number ${entry.traceNumber}`);
      }
      if (h.secCode === 'COR' && !entry.addenda.some((a) => a.type === '98')) throw new NachaFormatError(entry.line, 'a COR entry without a type 98 addenda');
      if (DEBIT_CODES.has(entry.transactionCode)) debit += entry.amount;
      else if (CREDIT_CODES.has(entry.transactionCode)) credit += entry.amount;
      else throw new NachaFormatError(entry.line, `unknown transaction code ${entry.transactionCode}`);
      entries.push(entry);
    }
    if (i >= lines.length) throw truncated();
    if (peekType() !== '8') throw new NachaFormatError(at(), `expected an entry (type 6), addenda (type 7) or batch control (type 8), found ${describe(lines[i])}`);
    if (entries.length === 0) throw new NachaFormatError(headerLine, 'a batch without entries');
    const cl = at();
    const c = lines[i];
    i++;
    if (c.slice(1, 4) !== h.serviceClassCode) throw new NachaFormatError(cl, `batch control service class ${c.slice(1, 4)} differs from its header's ${h.serviceClassCode}`);
    if (c.slice(44, 54).trim() !== h.companyIdentification) throw new NachaFormatError(cl, 'batch control company identification differs from its header');
    if (c.slice(79, 87) !== h.originatingDfi) throw new NachaFormatError(cl, 'batch control originating DFI differs from its header');
    if (num(c, 88, 94, cl, 'batch number') !== h.batchNumber) throw new NachaFormatError(cl, 'batch control batch number differs from its header');
    const control = {
      entryAddendaCount: num(c, 5, 10, cl, 'entry/addenda count'),
      entryHash: num(c, 11, 20, cl, 'entry hash'),
      totalDebit: num(c, 21, 32, cl, 'total debit amount'),
      totalCredit: num(c, 33, 44, cl, 'total credit amount'),
    };
    compare(
      control,
      {
        entryAddendaCount: entries.reduce((n, e) => n + 1 + e.addenda.length, 0),
        entryHash: entryHash(entries.map((e) => e.routingNumber.slice(0, 8))),
        totalDebit: debit,
        totalCredit: credit,
      },
      cl,
      'batch control',
    );
    return { header: h, entries, control };
  }
}

function splitRecords(text: string): string[] {
  if (text.length === 0) throw new NachaFormatError(0, 'the file is empty');
  let lines = text.split(/\r?\n/);
  if (lines[lines.length - 1] === '') lines.pop();
  // Some banks send the records without line breaks: one 94-character record after another.
  if (lines.length === 1 && lines[0].length > RECORD_LENGTH && lines[0].length % RECORD_LENGTH === 0) {
    lines = lines[0].match(new RegExp(`.{${RECORD_LENGTH}}`, 'g')) ?? [];
  }
  if (!lines[0].startsWith('101')) throw new NachaFormatError(1, 'not a NACHA file: it does not begin with a file header record ("101")');
  lines.forEach((l, n) => {
    if (l.length !== RECORD_LENGTH) throw new NachaFormatError(n + 1, `record length ${l.length}, expected ${RECORD_LENGTH}`);
    if (!/^[\x20-\x7E]*$/.test(l)) throw new NachaFormatError(n + 1, 'contains characters outside printable ASCII');
  });
  return lines;
}

function fileHeader(l: string, line: number): FileHeader {
  if (l.slice(1, 3) !== '01') throw new NachaFormatError(line, `priority code ${l.slice(1, 3)}, expected 01`);
  if (l.slice(34, 40) !== '094101') throw new NachaFormatError(line, `record size, blocking factor and format code ${l.slice(34, 40)}, expected 094101`);
  return {
    immediateDestination: l.slice(3, 13).trim(),
    immediateOrigin: l.slice(13, 23).trim(),
    creationDate: date(l.slice(23, 29), line, 'file creation date'),
    creationTime: l.slice(29, 33),
    fileIdModifier: l[33],
    immediateDestinationName: l.slice(40, 63).trim(),
    immediateOriginName: l.slice(63, 86).trim(),
    referenceCode: l.slice(86, 94).trim(),
  };
}

function batchHeader(l: string, line: number): BatchHeader {
  const serviceClassCode = l.slice(1, 4);
  if (!['200', '220', '225'].includes(serviceClassCode)) throw new NachaFormatError(line, `service class code ${serviceClassCode} is not 200, 220 or 225`);
  const secCode = l.slice(50, 53);
  if (!/^[A-Z]{3}$/.test(secCode)) throw new NachaFormatError(line, `standard entry class code "${secCode}" is not three letters`);
  const originatingDfi = l.slice(79, 87);
  if (!/^\d{8}$/.test(originatingDfi)) throw new NachaFormatError(line, 'originating DFI identification is not 8 digits');
  const effective = l.slice(69, 75);
  return {
    serviceClassCode,
    companyName: l.slice(4, 20).trim(),
    companyDiscretionaryData: l.slice(20, 40).trim(),
    companyIdentification: l.slice(40, 50).trim(),
    secCode,
    companyEntryDescription: l.slice(53, 63).trim(),
    // Return and NOC files may leave the effective date blank.
    effectiveEntryDate: effective.trim() === '' ? '' : date(effective, line, 'effective entry date'),
    originatingDfi,
    batchNumber: num(l, 88, 94, line, 'batch number'),
  };
}

function entryDetail(l: string, line: number): Entry {
  const routingNumber = l.slice(3, 12);
  if (!/^\d{9}$/.test(routingNumber)) throw new NachaFormatError(line, 'receiving DFI identification and check digit are not 9 digits');
  if (!['0', '1'].includes(l[78])) throw new NachaFormatError(line, `addenda record indicator "${l[78]}" is not 0 or 1`);
  const traceNumber = l.slice(79, 94);
  if (!/^\d{15}$/.test(traceNumber)) throw new NachaFormatError(line, 'trace number is not 15 digits');
  return {
    line,
    transactionCode: l.slice(1, 3),
    routingNumber,
    accountNumber: l.slice(12, 29).trim(),
    amount: num(l, 30, 39, line, 'amount'),
    individualId: l.slice(39, 54).trim(),
    name: l.slice(54, 76).trim(),
    discretionaryData: l.slice(76, 78).trim(),
    traceNumber,
    addenda: [],
  };
}

function addenda(l: string, line: number): Addenda {
  const type = l.slice(1, 3);
  if (type === '99') {
    const returnCode = l.slice(3, 6);
    if (!/^R\d{2}$/.test(returnCode)) throw new NachaFormatError(line, `return reason code "${returnCode}" is not R followed by two digits`);
    return {
      line, type, returnCode, originalTraceNumber: trace(l.slice(6, 21), line, 'original entry trace number'), dateOfDeath: l.slice(21, 27).trim(),
      originalRdfi: l.slice(27, 35), information: l.slice(35, 79).trim(), traceNumber: trace(l.slice(79, 94), line, 'trace number'),
    };
  }
  if (type === '98') {
    const changeCode = l.slice(3, 6);
    if (!/^C\d{2}$/.test(changeCode)) throw new NachaFormatError(line, `change code "${changeCode}" is not C followed by two digits`);
    return {
      line, type, changeCode, originalTraceNumber: trace(l.slice(6, 21), line, 'original entry trace number'), originalRdfi: l.slice(27, 35),
      correctedData: l.slice(35, 64).trim(), traceNumber: trace(l.slice(79, 94), line, 'trace number'),
    };
  }
  if (type === '05') {
    return {
      line, type, paymentRelatedInformation: l.slice(3, 83).trimEnd(), addendaSequence: num(l, 84, 87, line, 'addenda sequence number'),
      entryDetailSequence: trace7(l.slice(87, 94), line),
    };
  }
  if (!/^\d{2}$/.test(type)) throw new NachaFormatError(line, `addenda type code "${type}" is not two digits`);
  return { line, type, raw: l };
}

function num(l: string, from: number, to: number, line: number, what: string): number {
  const text = l.slice(from - 1, to);
  if (!/^\d+$/.test(text)) throw new NachaFormatError(line, `${what} "${text}" (positions ${from}-${to}) is not numeric`);
  return Number(text);
}

function trace(text: string, line: number, what: string): string {
  if (!/^\d{15}$/.test(text)) throw new NachaFormatError(line, `${what} "${text}" is not 15 digits`);
  return text;
}

function trace7(text: string, line: number): string {
  if (!/^\d{7}$/.test(text)) throw new NachaFormatError(line, `entry detail sequence number "${text}" is not 7 digits`);
  return text;
}

function date(text: string, line: number, what: string): string {
  const m = /^(\d{2})(\d{2})(\d{2})$/.exec(text);
  const iso = m ? `20${m[1]}-${m[2]}-${m[3]}` : '';
  const parsed = new Date(`${iso}T00:00:00Z`);
  if (!m || Number.isNaN(parsed.getTime()) || parsed.toISOString().slice(0, 10) !== iso) throw new NachaFormatError(line, `${what} "${text}" is not a date YYMMDD`);
  return iso;
}

function compare<T extends Record<string, number>>(stated: T, computed: T, line: number, what: string): void {
  for (const key of Object.keys(computed) as (keyof T & string)[]) {
    if (stated[key] !== computed[key]) {
      throw new NachaFormatError(line, `${what} ${words(key)} is ${stated[key]} but the records give ${computed[key]}`);
    }
  }
}

function words(key: string): string {
  return key.replace(/([A-Z])/g, ' $1').toLowerCase();
}

function describe(l: string | undefined): string {
  return l === undefined ? 'the end of the file' : `record type "${l[0]}"`;
}
