import { Readable } from 'node:stream';
import { CsvError, Options, parse } from 'csv-parse';
import { parse as parseSync } from 'csv-parse/sync';
import { ApiError, CUSTOMER_CSV_COLUMNS, CUSTOMER_CSV_HEADER_REQUIRED, CustomerCsvColumn, CustomerImportRowError, FieldError } from '@payments/contracts';

/** Bounds on what one file may hold; past them the job fails instead of holding a huge parse in memory. */
export const CUSTOMER_CSV_ROWS_MAX = 100_000;
const RECORD_SIZE_MAX_CHARS = 256 * 1024;
const CHUNK_BYTES = 64 * 1024;

/**
 * csv-parse as RFC 4180 reads: quoted fields may hold commas, quotes ("") and line breaks; a UTF-8 BOM is dropped;
 * blank lines are skipped (and not counted as rows). Rows with too few or too many fields are kept, so that each
 * becomes a row error rather than failing the whole file.
 */
const PARSE_OPTIONS: Options = { bom: true, relax_column_count: true, skip_empty_lines: true, max_record_size: RECORD_SIZE_MAX_CHARS };

const KNOWN = new Set<string>(CUSTOMER_CSV_COLUMNS);

/** A file that cannot be processed at all; `row` is the data row where parsing stopped. */
export class CsvFileError extends Error {
  constructor(readonly error: CustomerImportRowError) {
    super(error.message);
  }
}

export interface ParsedCustomerCsv {
  header: CustomerCsvColumn[];
  /** Data rows in file order (row n is rows[n - 1]), raw cells. */
  rows: string[][];
}

/**
 * Reads only the first record, for the synchronous answer to an upload: a wrong header is a 400 before any job
 * exists. csv-parse stops at `to: 1`, so a large file costs nothing more here.
 */
export function readHeader(content: string): CustomerCsvColumn[] {
  let records: string[][];
  try {
    records = parseSync(content, { ...PARSE_OPTIONS, to: 1 });
  } catch (error) {
    throw invalidFile(`the header line is not valid CSV: ${(error as Error).message}`);
  }
  if (records.length === 0) throw invalidFile('the file is empty: the first line must be the header');
  const problems = headerProblems(records[0]);
  if (problems.length > 0) throw new ApiError('INVALID_INPUT', `the CSV header is not valid: ${problems.map((p) => p.message).join('; ')}`, { errors: problems });
  return records[0].map((name) => name.trim() as CustomerCsvColumn);
}

/** Unknown, repeated and missing columns, each named. The comparison is exact (case included) after trimming. */
export function headerProblems(header: string[]): FieldError[] {
  const names = header.map((name) => name.trim());
  const problems: FieldError[] = [];
  const seen = new Set<string>();
  for (const name of names) {
    if (!KNOWN.has(name)) problems.push({ field: 'file', message: `unknown column "${name.slice(0, 64)}"` });
    else if (seen.has(name)) problems.push({ field: 'file', message: `column "${name}" appears twice` });
    seen.add(name);
  }
  for (const required of CUSTOMER_CSV_HEADER_REQUIRED) if (!seen.has(required)) problems.push({ field: 'file', message: `missing column "${required}"` });
  return problems;
}

/**
 * The whole file, parsed from the stored text in chunks so a large file does not hold the event loop for the
 * length of one synchronous parse. Malformed CSV (an unclosed quote, say) or too many rows: CsvFileError.
 */
export async function parseCustomerCsv(content: string): Promise<ParsedCustomerCsv> {
  const records: string[][] = [];
  const parser = Readable.from(chunks(Buffer.from(content, 'utf8'))).pipe(parse(PARSE_OPTIONS));
  try {
    for await (const record of parser as AsyncIterable<string[]>) {
      if (record.every((cell) => cell.trim() === '')) continue; // a line of bare separators, as spreadsheets export
      records.push(record);
      if (records.length > CUSTOMER_CSV_ROWS_MAX + 1) throw new CsvFileError({ row: CUSTOMER_CSV_ROWS_MAX + 1, code: 'INVALID_INPUT', message: `a file may hold at most ${CUSTOMER_CSV_ROWS_MAX} rows` });
    }
  } catch (error) {
    if (error instanceof CsvError) {
      const { records: parsed = 0, lines = 0 } = error as CsvError & { records?: number; lines?: number };
      throw new CsvFileError({ row: Math.max(1, parsed), code: 'INVALID_INPUT', message: `malformed CSV near line ${lines}: ${error.message}` });
    }
    throw error;
  }
  const [header, ...rows] = records;
  const problems = header ? headerProblems(header) : [{ field: 'file', message: 'the file is empty' }];
  if (problems.length > 0) throw new CsvFileError({ row: 1, code: 'INVALID_INPUT', message: problems.map((p) => p.message).join('; ') });
  return { header: header.map((name) => name.trim() as CustomerCsvColumn), rows };
}

function* chunks(bytes: Buffer): Generator<Buffer> {
  for (let at = 0; at < bytes.length; at += CHUNK_BYTES) yield bytes.subarray(at, at + CHUNK_BYTES);
}

function invalidFile(message: string): ApiError {
  return new ApiError('INVALID_INPUT', message, { errors: [{ field: 'file', message }] });
}
