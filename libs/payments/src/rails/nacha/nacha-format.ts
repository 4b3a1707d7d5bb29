import { ApiError, NachaConnectorSettings, RailConnectorConfig } from '@payments/contracts';
import { latinText } from '@payments/iso20022';
import { alphanumeric, isValidRoutingNumber, NachaBatchInput, NachaEntryInput, NachaValidationError, nextBankingDay, SecCode, writeNachaFile } from '@payments/rails';
import type { RailOrder, RailPaymentKind } from '../rail-connector';
import type { RailPaymentRow } from '../rail-payments';
import type { FileRailKind, OutboundFileMeta, OutboundFormat, WrittenFile } from '../files/file-format';
import { nachaReturns } from './nacha-returns';

/**
 * NACHA for the file connector (files/file-rail-connector.ts): USD payments to ACH files, and the bank's return and
 * NOC files back to outcomes and notices. The record layouts live in libs/rails; this file decides what our payments
 * become in them (SEC code, batches, descriptions, dates, trace numbers) and when an unreturned entry counts as settled.
 */
export const nachaRailKind: FileRailKind = {
  outbound: (config) => nachaOutbound(config),
  inbound: () => [nachaReturns()],
};

/** Integer cents the 10-digit amount field holds: $99,999,999.99. */
const MAX_AMOUNT = 9_999_999_999;
/** Files stay reviewable by an operator (and far below NACHA's 8-digit counts and 7-digit trace sequences). */
const MAX_ENTRIES = 5_000;
const INDIVIDUAL_ID_WIDTH = 15;

/**
 * One batch per SEC code and purpose, each single-direction (service class 220 credits, 225 debits): unbalanced
 * single-direction batches are what every ODFI accepts from an originator (the bank offsets them), and a batch's
 * company entry description (what the receiver sees) then says what all its entries are. Fixed order: deterministic.
 */
const PURPOSES: { kind: RailPaymentKind; description: string }[] = [
  { kind: 'CREDIT', description: 'PAYOUT' },
  { kind: 'DEBIT', description: 'COLLECTION' },
  { kind: 'PRENOTE', description: 'PRENOTE' },
];
const SEC_CODES: SecCode[] = ['PPD', 'CCD'];

export function nachaOutbound(config: RailConnectorConfig): OutboundFormat {
  const settings = settingsOf(config);
  return {
    name: 'NACHA',
    extension: 'ach',
    maxEntries: MAX_ENTRIES,
    maxFilesPerDay: 36,
    validate: (order) => {
      addressOf(order);
    },
    railReference: (_order, sequence) => traceNumber(settings.originatingDfi, sequence),
    write: (payments, meta) => writeFile(settings, payments, meta),
  };
}

function settingsOf(config: RailConnectorConfig): NachaConnectorSettings {
  if (!config.nacha) throw new Error(`rails configuration: connector ${config.id}: a NACHA connector needs its nacha settings`);
  return config.nacha;
}

/** The ACH trace number: the ODFI's 8 digits and the payment's sequence, modulo 10^7 (7 digits). */
export function traceNumber(originatingDfi: string, sequence: number): string {
  return originatingDfi + String(sequence % 10_000_000).padStart(7, '0');
}

/** What the writer needs of an order, checked here so a payment NACHA cannot carry is refused before it is recorded. */
interface AchAddress {
  routingNumber: string;
  accountNumber: string;
  /** Read from the published `accountInfo.bankAccountType` (optional on USD_ACCOUNT; absent means CHECKING). */
  accountType: 'CHECKING' | 'SAVINGS';
  name: string;
  secCode: SecCode;
  individualId: string;
}

function addressOf(order: RailOrder): AchAddress {
  if (order.currency !== 'USD') invalid('currency', `NACHA moves USD only, not ${order.currency}`);
  const info = order.accountInfo ?? {};
  const routingNumber = info.routingNumber;
  if (typeof routingNumber !== 'string' || !isValidRoutingNumber(routingNumber)) invalid('accountInfo.routingNumber', 'must be a 9-digit ABA routing number with a valid check digit');
  const accountNumber = typeof info.accountNumber === 'string' ? info.accountNumber.trim().toUpperCase() : '';
  if (!/^[0-9A-Z-]{1,17}$/.test(accountNumber)) invalid('accountInfo.accountNumber', 'must be 1 to 17 digits, letters or hyphens');
  const type = info.bankAccountType ?? 'CHECKING';
  if (type !== 'CHECKING' && type !== 'SAVINGS') invalid('accountInfo.bankAccountType', 'must be CHECKING or SAVINGS');
  const name = order.beneficiary?.name ?? '';
  if (writable('beneficiary.name', name, 22).trim() === '') invalid('beneficiary.name', 'a NACHA entry needs the receiver’s name');
  const individualId = individualIdOf(order.reference);
  writable('reference', individualId, INDIVIDUAL_ID_WIDTH);
  if (!Number.isSafeInteger(order.amount) || order.amount < 0) invalid('amount', 'must be a non-negative integer number of cents');
  if (order.kind === 'PRENOTE' && order.amount !== 0) invalid('amount', 'a prenote carries a zero amount');
  if (order.kind !== 'PRENOTE' && order.amount === 0) invalid('amount', 'must be positive (only a prenote carries 0)');
  if (order.amount > MAX_AMOUNT) invalid('amount', `at most ${MAX_AMOUNT} cents ($99,999,999.99) fit in a NACHA entry`);
  return { routingNumber, accountNumber, accountType: type, name, secCode: order.beneficiary?.type === 'BUSINESS' ? 'CCD' : 'PPD', individualId };
}

/**
 * The entry's individual id (15 characters) from the payment's reference. Our references are 16 hex digits of the
 * transaction's uuidv7 (transfer.service.ts): the last 15 keep everything but the clock's top digit, the same for
 * centuries. Matching never uses it (the trace number does); it is what the receiver sees next to the amount.
 */
function individualIdOf(reference: string): string {
  const text = reference.trim().toUpperCase();
  return text.length > INDIVIDUAL_ID_WIDTH ? text.slice(-INDIVIDUAL_ID_WIDTH) : text;
}

/**
 * The payee's remittance information as the entry's 05 addenda (printable ASCII, the writer cuts it to 80); none for a
 * prenote or when nothing Latin is left of it. The individual id and trace number stay what returns are matched by.
 */
function paymentRelatedInformationOf(kind: RailPaymentKind, order: RailOrder): { paymentRelatedInformation?: string } {
  if (kind === 'PRENOTE' || !order.remittanceInformation) return {};
  const text = latinText(order.remittanceInformation);
  return text ? { paymentRelatedInformation: text } : {};
}

/** The text as NACHA writes it (upper case, no accents), or INVALID_INPUT naming the field. */
function writable(field: string, value: string, width: number): string {
  try {
    return alphanumeric(field, value, width);
  } catch (error) {
    if (error instanceof NachaValidationError) invalid(field, error.problem);
    throw error;
  }
}

function invalid(field: string, why: string): never {
  throw new ApiError('INVALID_INPUT', `${field}: ${why}`, { errors: [{ field, message: why }] });
}

/** 1 → A … 26 → Z, 27 → 0 … 36 → 9: the file id modifier distinguishing a day's files to the same bank. */
export function fileIdModifier(sequenceOfDay: number): string {
  const symbols = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
  if (!Number.isInteger(sequenceOfDay) || sequenceOfDay < 1 || sequenceOfDay > symbols.length) {
    throw new Error(`NACHA allows ${symbols.length} files a day to one bank (file id modifiers A-Z, 0-9); this would be file ${sequenceOfDay} of the day: wait for the next UTC day`);
  }
  return symbols[sequenceOfDay - 1];
}

/** The banking day `n` banking days after `isoDate` (itself when n = 0). */
function bankingDaysAfter(isoDate: string, n: number): string {
  let day = isoDate;
  for (let i = 0; i < n; i++) day = nextBankingDay(day);
  return day;
}

function writeFile(settings: NachaConnectorSettings, payments: RailPaymentRow[], meta: OutboundFileMeta): WrittenFile {
  const createdAt = new Date(meta.createdAt);
  if (Number.isNaN(createdAt.getTime())) throw new Error(`NACHA file: createdAt "${meta.createdAt}" is not an instant`);
  const modifier = fileIdModifier(meta.sequenceOfDay);
  // Entries settle the next banking day after the file is made (same-day ACH is not used: its windows are the bank's).
  const effectiveEntryDate = nextBankingDay(createdAt.toISOString().slice(0, 10));
  const at = (day: string) => `${day}T${String(settings.settlementHourUtc).padStart(2, '0')}:00:00.000Z`;
  const settleDays: Record<RailPaymentKind, number> = { CREDIT: 0, DEBIT: settings.debitHoldBankingDays, PRENOTE: settings.prenoteWaitBankingDays };

  const rows = [...payments].sort((a, b) => Number(a.sequence) - Number(b.sequence));
  const groups = new Map<string, NachaEntryInput[]>();
  const settlesAt: Record<string, string> = {};
  for (const row of rows) {
    const order = row.rail_order;
    let address: AchAddress;
    try {
      address = addressOf({ ...order, kind: row.kind, amount: Number(row.amount) });
    } catch (error) {
      throw new Error(`NACHA file: payment ${row.payment_id}: ${(error as Error).message}`);
    }
    const sequence = Number(row.sequence);
    // The connector recorded this reference at submission; the file must carry exactly it or returns would not match.
    if (row.rail_reference !== traceNumber(settings.originatingDfi, sequence)) {
      throw new Error(`NACHA file: payment ${row.payment_id}: its trace number ${row.rail_reference} is not ODFI ${settings.originatingDfi} + sequence ${sequence} (was originatingDfi changed?)`);
    }
    const key = `${address.secCode}/${row.kind}`;
    groups.set(key, [
      ...(groups.get(key) ?? []),
      {
        reference: row.payment_id,
        direction: row.kind === 'DEBIT' ? 'DEBIT' : 'CREDIT', // prenotes are credit prenotes (23/33)
        prenote: row.kind === 'PRENOTE',
        accountType: address.accountType,
        routingNumber: address.routingNumber,
        accountNumber: address.accountNumber,
        amount: Number(row.amount),
        individualId: address.individualId,
        name: address.name,
        traceSequence: sequence % 10_000_000,
        ...paymentRelatedInformationOf(row.kind, order),
      },
    ]);
    settlesAt[row.payment_id] = at(bankingDaysAfter(effectiveEntryDate, settleDays[row.kind]));
  }

  const batches: NachaBatchInput[] = PURPOSES.flatMap(({ kind, description }) =>
    SEC_CODES.flatMap((secCode) => {
      const entries = groups.get(`${secCode}/${kind}`);
      return entries
        ? [{ secCode, companyName: settings.companyName, companyIdentification: settings.companyIdentification, companyEntryDescription: description, effectiveEntryDate, originatingDfi: settings.originatingDfi, entries }]
        : [];
    }),
  );
  const written = writeNachaFile({
    immediateDestination: settings.immediateDestination,
    immediateDestinationName: settings.immediateDestinationName,
    immediateOrigin: settings.immediateOrigin,
    immediateOriginName: settings.immediateOriginName,
    createdAt,
    fileIdModifier: modifier,
    batches,
  });
  const { totals } = written;
  return {
    content: Buffer.from(written.text, 'ascii'),
    entryCount: rows.length,
    totalAmount: rows.reduce((s, r) => s + Number(r.amount), 0),
    summary: {
      effectiveEntryDate, fileIdModifier: modifier, batchCount: totals.batchCount, entryAddendaCount: totals.entryAddendaCount, entryHash: totals.entryHash,
      totalDebit: totals.totalDebit, totalCredit: totals.totalCredit, blockCount: totals.blockCount,
    },
    settlesAt,
  };
}
