/** Field-level rules of the NACHA format shared by the writer and the reader. */

export const RECORD_LENGTH = 94;
export const BLOCKING_FACTOR = 10;

/** A model value the writer refuses (the caller's input, before any file exists). */
export class NachaValidationError extends Error {
  constructor(
    readonly field: string,
    readonly problem: string,
  ) {
    super(`${field}: ${problem}`);
    this.name = 'NachaValidationError';
  }
}

/**
 * ABA routing number check digit: 3·(d1+d4+d7) + 7·(d2+d5+d8) + (d3+d6+d9) ≡ 0 (mod 10).
 * Computes the 9th digit from the first 8.
 */
export function routingCheckDigit(first8: string): number {
  const w = [3, 7, 1, 3, 7, 1, 3, 7];
  const sum = [...first8].reduce((s, d, i) => s + Number(d) * w[i], 0);
  return (10 - (sum % 10)) % 10;
}

export function isValidRoutingNumber(routing: string): boolean {
  return /^\d{9}$/.test(routing) && routingCheckDigit(routing.slice(0, 8)) === Number(routing[8]);
}

// NACHA allows upper-case letters, digits, space and the printable special characters (EBCDIC above 0x40). Lower case
// is upper-cased; accents are dropped (É → E); anything else is refused rather than silently replaced.
const ALLOWED_TEXT = /^[\x20-\x5F\x7B-\x7E]*$/;

export function alphanumeric(field: string, value: string, width: number, mode: 'trim' | 'refuse-longer' = 'trim'): string {
  const text = value
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toUpperCase()
    .replace(/\s+/g, ' ')
    .trim();
  if (!ALLOWED_TEXT.test(text)) throw new NachaValidationError(field, 'contains characters NACHA does not allow');
  if (text.length > width) {
    if (mode === 'refuse-longer') throw new NachaValidationError(field, `longer than ${width} characters`);
    return text.slice(0, width).trimEnd().padEnd(width, ' ');
  }
  return text.padEnd(width, ' ');
}

// Payment related information (addenda 05) keeps its case: NACHA allows lower case there (printable ASCII).
const FREE_TEXT = /^[\x20-\x7E]*$/;

/** Text kept as given (no upper-casing), spaces collapsed, cut to the width; characters NACHA does not allow are refused. */
export function freeText(field: string, value: string, width: number): string {
  const text = value.replace(/\s+/g, ' ').trim();
  if (text === '') throw new NachaValidationError(field, 'is empty (leave it out instead)');
  if (!FREE_TEXT.test(text)) throw new NachaValidationError(field, 'contains characters NACHA does not allow (printable ASCII only)');
  return text.slice(0, width).trimEnd().padEnd(width, ' ');
}

export function numeric(field: string, value: number, width: number): string {
  if (!Number.isSafeInteger(value) || value < 0) throw new NachaValidationError(field, 'must be a non-negative integer');
  const text = String(value);
  if (text.length > width) throw new NachaValidationError(field, `does not fit in ${width} digits`);
  return text.padStart(width, '0');
}

export function digits(field: string, value: string, width: number): string {
  if (!new RegExp(`^\\d{${width}}$`).test(value)) throw new NachaValidationError(field, `must be exactly ${width} digits`);
  return value;
}

/** YYYY-MM-DD → YYMMDD. */
export function yymmdd(field: string, isoDate: string): string {
  const m = /^\d{2}(\d{2})-(\d{2})-(\d{2})$/.exec(isoDate);
  const parsed = new Date(`${isoDate}T00:00:00Z`);
  if (!m || Number.isNaN(parsed.getTime()) || parsed.toISOString().slice(0, 10) !== isoDate) throw new NachaValidationError(field, 'must be a date YYYY-MM-DD');
  return `${m[1]}${m[2]}${m[3]}`;
}

/** The entry hash: the sum of the 8-digit RDFI identifications, keeping the 10 low-order digits. */
export function entryHash(rdfiIds: readonly string[]): number {
  return rdfiIds.reduce((s, id) => s + Number(id), 0) % 10_000_000_000;
}
