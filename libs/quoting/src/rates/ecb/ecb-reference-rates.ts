import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { isCalendarDate } from '@payments/contracts';
import { parseDecimal } from '@payments/money';

/**
 * One daily document of the European Central Bank's euro foreign exchange reference rates
 * (https://www.ecb.europa.eu/stats/eurofxref/eurofxref-daily.xml): units of each currency per one euro on a
 * reference date, as published (exact decimal strings).
 */
export interface EcbReferenceRates {
  /** The document's `Cube time`: the reference date (YYYY-MM-DD). */
  referenceDate: string;
  /** When the ECB published it: 16:00 Frankfurt time (CET/CEST) on the reference date, as ISO 8601 UTC. */
  publishedAt: string;
  /** Currency code → units per EUR, as written in the document ("1.0163"). EUR itself is not listed. */
  perEur: Record<string, string>;
}

/** The ECB's publication time: "around 16:00 CET" on each TARGET working day, in Frankfurt's local time. */
const PUBLICATION_HOUR_FRANKFURT = 16;

/** The largest document read: the daily one is under 2 KiB, the 90-day history about 150 KiB. */
export const ECB_DOCUMENT_MAX_BYTES = 512 * 1024;

/** Thrown for a document that is not the ECB's reference rates: the fetcher keeps what it had and reports this. */
export class EcbDocumentError extends Error {
  constructor(message: string) {
    super(`not an ECB reference rates document: ${message}`);
    this.name = 'EcbDocumentError';
  }
}

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  // gesmes:Envelope / gesmes:subject are matched by their local names; the namespaces are not declared twice in practice.
  removeNSPrefix: true,
  // Rates stay the strings the ECB wrote: exact decimals, never floats.
  parseAttributeValue: false,
  parseTagValue: false,
  // The document has no entities; none are expanded (no DOCTYPE tricks).
  processEntities: false,
  isArray: (name) => name === 'Cube',
});

type Node = Record<string, unknown>;

const asNodes = (value: unknown): Node[] => (Array.isArray(value) ? value.filter((v): v is Node => typeof v === 'object' && v !== null) : []);

/**
 * Parses the ECB's XML (the daily document, or the 90-day one: its newest day is taken). Refuses anything that is not
 * well-formed, not a gesmes Envelope of the ECB's reference rates, or that has a rate that is not a positive decimal.
 */
export function parseEcbReferenceRates(xml: string): EcbReferenceRates {
  const valid = XMLValidator.validate(xml);
  if (valid !== true) throw new EcbDocumentError(`malformed XML (${valid.err.msg} at line ${valid.err.line})`);
  const document = parser.parse(xml) as Node;
  const envelope = document.Envelope as Node | undefined;
  if (!envelope || typeof envelope !== 'object') throw new EcbDocumentError('no gesmes:Envelope');
  if (envelope.subject !== 'Reference rates') throw new EcbDocumentError(`subject is ${JSON.stringify(envelope.subject)}, not "Reference rates"`);
  const days = asNodes(envelope.Cube).flatMap((outer) => asNodes(outer.Cube)).filter((day) => typeof day.time === 'string');
  if (days.length === 0) throw new EcbDocumentError('no Cube with a time');
  const newest = days.reduce((a, b) => ((b.time as string) > (a.time as string) ? b : a));
  const referenceDate = newest.time as string;
  if (!isCalendarDate(referenceDate)) throw new EcbDocumentError(`time ${JSON.stringify(referenceDate)} is not a date`);
  const perEur: Record<string, string> = {};
  for (const cube of asNodes(newest.Cube)) {
    const { currency, rate } = cube;
    if (typeof currency !== 'string' || !/^[A-Z]{3}$/.test(currency)) throw new EcbDocumentError(`currency ${JSON.stringify(currency)} is not a currency code`);
    const parsed = typeof rate === 'string' ? parseDecimal(rate) : undefined;
    if (!parsed || parsed.num === 0n) throw new EcbDocumentError(`the rate of ${currency} (${JSON.stringify(rate)}) is not a positive decimal`);
    if (perEur[currency] !== undefined) throw new EcbDocumentError(`${currency} is listed twice`);
    perEur[currency] = rate as string;
  }
  if (Object.keys(perEur).length === 0) throw new EcbDocumentError(`no rates on ${referenceDate}`);
  return { referenceDate, publishedAt: frankfurtTime(referenceDate, PUBLICATION_HOUR_FRANKFURT), perEur };
}

/** `hour`:00 in Frankfurt (Europe/Berlin: UTC+1, UTC+2 in summer) on `date`, as ISO 8601 UTC. */
export function frankfurtTime(date: string, hour: number): string {
  const [y, m, d] = date.split('-').map(Number);
  const asUtc = Date.UTC(y, m - 1, d, hour);
  // The offset in force at that instant; daylight saving changes at 01:00 UTC, far from the afternoon.
  const name = new Intl.DateTimeFormat('en-US', { timeZone: 'Europe/Berlin', timeZoneName: 'longOffset' })
    .formatToParts(new Date(asUtc))
    .find((part) => part.type === 'timeZoneName')?.value;
  const match = /^GMT([+-])(\d{2}):(\d{2})$/.exec(name ?? '');
  const offsetMinutes = match ? (match[1] === '-' ? -1 : 1) * (Number(match[2]) * 60 + Number(match[3])) : 60;
  return new Date(asUtc - offsetMinutes * 60_000).toISOString();
}
