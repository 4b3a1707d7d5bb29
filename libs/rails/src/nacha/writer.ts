import { alphanumeric, BLOCKING_FACTOR, freeText, digits, entryHash, isValidRoutingNumber, NachaValidationError, numeric, RECORD_LENGTH, yymmdd } from './fields';
import type { NachaBatchInput, NachaEntryInput, NachaFileInput, WrittenEntry, WrittenNachaFile } from './model';

/** Transaction codes by account type, direction and live/prenote. */
const TRANSACTION_CODES = {
  CHECKING: { CREDIT: { live: '22', prenote: '23' }, DEBIT: { live: '27', prenote: '28' } },
  SAVINGS: { CREDIT: { live: '32', prenote: '33' }, DEBIT: { live: '37', prenote: '38' } },
} as const;

/** Writes a NACHA file from the model; refuses (NachaValidationError) anything the format or our rules forbid. */
export function writeNachaFile(input: NachaFileInput): WrittenNachaFile {
  if (input.batches.length === 0) throw new NachaValidationError('batches', 'a file needs at least one batch');
  const destination = routing('immediateDestination', input.immediateDestination);
  const origin = immediateOrigin(input.immediateOrigin);
  if (!/^[A-Z0-9]$/.test(input.fileIdModifier)) throw new NachaValidationError('fileIdModifier', 'must be one character A-Z or 0-9');
  const created = input.createdAt;
  if (Number.isNaN(created.getTime())) throw new NachaValidationError('createdAt', 'must be a valid date');
  const iso = created.toISOString();

  const lines: string[] = [];
  lines.push(
    record(
      '1', '01', ` ${destination}`, origin, yymmdd('createdAt', iso.slice(0, 10)), iso.slice(11, 13) + iso.slice(14, 16),
      input.fileIdModifier, '094', String(BLOCKING_FACTOR), '1',
      alphanumeric('immediateDestinationName', input.immediateDestinationName, 23),
      alphanumeric('immediateOriginName', input.immediateOriginName, 23),
      alphanumeric('referenceCode', input.referenceCode ?? '', 8),
    ),
  );

  const written: WrittenEntry[] = [];
  const traces = new Set<string>();
  let nextSequence = input.firstTraceSequence ?? 1;
  let fileEntryCount = 0;
  let fileHashIds: string[] = [];
  let fileDebit = 0;
  let fileCredit = 0;

  input.batches.forEach((batch, b) => {
    const at = `batches[${b}]`;
    const batchNumber = b + 1;
    if (batch.entries.length === 0) throw new NachaValidationError(`${at}.entries`, 'a batch needs at least one entry');
    const odfi = digits(`${at}.originatingDfi`, batch.originatingDfi, 8);
    const companyId = alphanumeric(`${at}.companyIdentification`, batch.companyIdentification, 10, 'refuse-longer');
    const credits = batch.entries.some((e) => e.direction === 'CREDIT');
    const debits = batch.entries.some((e) => e.direction === 'DEBIT');
    const serviceClass = credits && debits ? '200' : credits ? '220' : '225';
    if (batch.secCode !== 'PPD' && batch.secCode !== 'CCD') throw new NachaValidationError(`${at}.secCode`, 'must be PPD or CCD');
    lines.push(batchHeader(batch, at, serviceClass, companyId, odfi, batchNumber));

    const hashIds: string[] = [];
    let addendaCount = 0;
    let debit = 0;
    let credit = 0;
    batch.entries.forEach((entry, i) => {
      const where = `${at}.entries[${i}]`;
      const sequence = entry.traceSequence ?? nextSequence++;
      const trace = odfi + numeric(`${where}.traceSequence`, sequence, 7);
      if (traces.has(trace)) throw new NachaValidationError(`${where}.traceSequence`, `trace number ${trace} is used twice in the file`);
      traces.add(trace);
      const { line, code, rdfi } = entryDetail(entry, where, trace);
      lines.push(line);
      if (entry.paymentRelatedInformation !== undefined) {
        lines.push(remittanceAddenda(entry.paymentRelatedInformation, `${where}.paymentRelatedInformation`, trace));
        addendaCount++;
      }
      hashIds.push(rdfi);
      if (entry.direction === 'DEBIT') debit += entry.amount;
      else credit += entry.amount;
      written.push({ reference: entry.reference, batchNumber, traceNumber: trace, transactionCode: code });
    });

    const hash = entryHash(hashIds);
    lines.push(
      record(
        '8', serviceClass, numeric(`${at}.entryAddendaCount`, batch.entries.length + addendaCount, 6), numeric(`${at}.entryHash`, hash, 10),
        numeric(`${at}.totalDebit`, debit, 12), numeric(`${at}.totalCredit`, credit, 12), companyId, ' '.repeat(19), ' '.repeat(6),
        odfi, numeric(`${at}.batchNumber`, batchNumber, 7),
      ),
    );
    fileEntryCount += batch.entries.length + addendaCount;
    fileHashIds = fileHashIds.concat(hashIds);
    fileDebit += debit;
    fileCredit += credit;
  });

  const recordCount = lines.length + 1;
  const blockCount = Math.ceil(recordCount / BLOCKING_FACTOR);
  const hash = entryHash(fileHashIds);
  lines.push(
    record(
      '9', numeric('batchCount', input.batches.length, 6), numeric('blockCount', blockCount, 6), numeric('entryAddendaCount', fileEntryCount, 8),
      numeric('entryHash', hash, 10), numeric('totalDebit', fileDebit, 12), numeric('totalCredit', fileCredit, 12), ' '.repeat(39),
    ),
  );
  while (lines.length % BLOCKING_FACTOR !== 0) lines.push('9'.repeat(RECORD_LENGTH));

  return {
    text: lines.join('\n') + '\n',
    entries: written,
    totals: { batchCount: input.batches.length, blockCount, entryAddendaCount: fileEntryCount, entryHash: hash, totalDebit: fileDebit, totalCredit: fileCredit },
  };
}

function batchHeader(batch: NachaBatchInput, at: string, serviceClass: string, companyId: string, odfi: string, batchNumber: number): string {
  return record(
    '5', serviceClass, alphanumeric(`${at}.companyName`, batch.companyName, 16),
    alphanumeric(`${at}.companyDiscretionaryData`, batch.companyDiscretionaryData ?? '', 20), companyId, batch.secCode,
    alphanumeric(`${at}.companyEntryDescription`, batch.companyEntryDescription, 10),
    alphanumeric(`${at}.companyDescriptiveDate`, batch.companyDescriptiveDate ?? '', 6),
    yymmdd(`${at}.effectiveEntryDate`, batch.effectiveEntryDate), '   ', '1', odfi, numeric(`${at}.batchNumber`, batchNumber, 7),
  );
}

function entryDetail(entry: NachaEntryInput, where: string, trace: string): { line: string; code: string; rdfi: string } {
  const codes = TRANSACTION_CODES[entry.accountType]?.[entry.direction];
  if (!codes) throw new NachaValidationError(`${where}`, 'accountType must be CHECKING or SAVINGS and direction CREDIT or DEBIT');
  const code = entry.prenote ? codes.prenote : codes.live;
  if (!Number.isSafeInteger(entry.amount)) throw new NachaValidationError(`${where}.amount`, 'must be an integer number of cents');
  if (entry.prenote && entry.amount !== 0) throw new NachaValidationError(`${where}.amount`, 'a prenote carries a zero amount');
  if (!entry.prenote && entry.amount <= 0) throw new NachaValidationError(`${where}.amount`, 'must be a positive number of cents');
  const rdfiRouting = routing(`${where}.routingNumber`, entry.routingNumber);
  const account = entry.accountNumber.trim().toUpperCase();
  if (!/^[0-9A-Z-]{1,17}$/.test(account)) throw new NachaValidationError(`${where}.accountNumber`, 'must be 1 to 17 digits, letters or hyphens');
  const line = record(
    '6', code, rdfiRouting.slice(0, 8), rdfiRouting[8], account.padEnd(17, ' '), numeric(`${where}.amount`, entry.amount, 10),
    alphanumeric(`${where}.individualId`, entry.individualId, 15, 'refuse-longer'), alphanumeric(`${where}.name`, entry.name, 22), '  ', entry.paymentRelatedInformation !== undefined ? '1' : '0', trace,
  );
  return { line, code, rdfi: rdfiRouting.slice(0, 8) };
}

/**
 * The PPD/CCD addenda (type 05): 80 characters of payment related information the receiver's bank shows with the
 * entry, addenda sequence 0001 (PPD and CCD allow one), and the entry detail sequence number: the last 7 digits of
 * the entry's trace number, which ties it to its entry.
 */
function remittanceAddenda(information: string, field: string, trace: string): string {
  return record('7', '05', freeText(field, information, 80), '0001', trace.slice(8));
}

function routing(field: string, value: string): string {
  if (!isValidRoutingNumber(value)) throw new NachaValidationError(field, 'must be a 9-digit ABA routing number with a valid check digit');
  return value;
}

function immediateOrigin(value: string): string {
  if (/^\d{9}$/.test(value)) return ` ${routing('immediateOrigin', value)}`;
  if (/^[0-9A-Z]{10}$/.test(value)) return value;
  throw new NachaValidationError('immediateOrigin', 'must be a 9-digit routing number or a 10-character identification');
}

function record(...fields: string[]): string {
  const line = fields.join('');
  // A wrong width here is a bug in this writer, never the caller's input.
  if (line.length !== RECORD_LENGTH) throw new Error(`NACHA record type ${fields[0]} built with ${line.length} characters`);
  return line;
}
