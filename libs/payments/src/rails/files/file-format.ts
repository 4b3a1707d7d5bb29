import type { RailConnectorConfig, TransactionFailureReason } from '@payments/contracts';
import type { RailOrder } from '../rail-connector';
import type { RailPaymentRow } from '../rail-payments';

/**
 * What the file connector (file-rail-connector.ts) asks of a bank-file format. The connector owns the bookkeeping
 * (which payments go in which file, writing once, the manifest, importing once, matching, exceptions); a format
 * only turns payments into bytes and bytes into entries, deterministically and strictly.
 */

/** Fixed when a file is claimed and stored with it, so the same file is rewritten byte for byte after a crash. */
export interface OutboundFileMeta {
  /** ISO instant the file was claimed (NACHA's creation date and time, pain.001's CreDtTm). */
  createdAt: string;
  /** 1-based number of this connector's outbound files that UTC day (NACHA's file id modifier A–Z, 0–9). */
  sequenceOfDay: number;
  /** Our file id (`RailFile:<uuid>`): pain.001's message id is derived from it. */
  fileId: string;
}

export interface WrittenFile {
  content: Buffer;
  entryCount: number;
  /** Sum of the amounts, smallest unit. */
  totalAmount: number;
  /** Anything worth keeping with the file in the manifest and the operator API (control totals, effective date…). */
  summary: Record<string, unknown>;
  /** When each payment is taken as settled without further news (ACH: its effective entry date); absent: wait for a report. */
  settlesAt?: Record<string, string>;
}

export interface OutboundFormat {
  /** e.g. NACHA, PAIN001 */
  readonly name: string;
  /** File name extension without the dot: ach, xml. */
  readonly extension: string;
  /** At most this many payments per file (a NACHA batch is unbounded in practice; keep files reviewable). */
  readonly maxEntries: number;
  /** At most this many files a UTC day (NACHA's file id modifier: A–Z, 0–9); later payments wait for the next day. */
  readonly maxFilesPerDay?: number;
  /** Refuses an order the format cannot carry (ApiError INVALID_INPUT naming the field), before it is recorded. */
  validate(order: RailOrder): void;
  /** The rail reference of a payment: an ACH trace number (ODFI + sequence), an end-to-end id. */
  railReference(order: RailOrder, sequence: number): string;
  /** The file of these payments (in `sequence` order). Pure and deterministic: same input, same bytes. */
  write(payments: RailPaymentRow[], meta: OutboundFileMeta): WrittenFile;
}

/** One entry of an imported file, in our terms. */
export type InboundEntry =
  /** News about a payment we sent, found by its rail reference (trace number, end-to-end id). */
  | { type: 'OUTCOME'; railReference: string; kind: 'SETTLED' | 'REJECTED' | 'RETURNED'; failureReason?: TransactionFailureReason; railCode?: string; raw: Record<string, unknown> }
  /** A notification of change (NACHA COR): the payment went through, but the account details must be updated. */
  | { type: 'NOTICE'; railReference: string; code: string; message: string; raw: Record<string, unknown> }
  /** Money that arrived (camt.054 credit): matched to an internal account's funding instructions by reference, or an exception. */
  | {
      type: 'CREDIT';
      amount: number;
      currency: string;
      reference: string | null;
      /**
       * The bank's own id of the entry (camt.054 AcctSvcrRef or NtryRef with the transaction's ids; an ACH trace
       * number), the same in every file that reports it: the credit is keyed on it, so it is credited once. Null when
       * the bank gave none (then only the file's SHA-256 keeps it from being credited twice).
       */
      bankReference: string | null;
      /** Every free text the sender filled in (remittance information, creditor reference, ids): searched for a reference code. */
      texts: string[];
      /** The account numbers the credit was addressed to (creditor account, the ACH entry's DFI account): a virtual account number. */
      accountNumbers: string[];
      debtorName?: string;
      bookedAt?: string;
      raw: Record<string, unknown>;
    }
  /** Something to report that is no payment of ours (a status of a whole message, an unknown entry). */
  | { type: 'OTHER'; message: string; raw: Record<string, unknown> };

export interface ParsedInboundFile {
  /** NACHA_RETURNS, PAIN002, CAMT054 */
  format: string;
  entries: InboundEntry[];
  summary: Record<string, unknown>;
}

export interface InboundFormat {
  /** Whether the bytes look like this format at all (the first record, the root element's namespace). */
  recognizes(content: Buffer): boolean;
  /** Strict: a malformed file throws (an Error whose message names the line or element) and nothing is imported. */
  parse(content: Buffer): ParsedInboundFile;
}

/** A bank-file connector kind: its outbound format and the inbound formats its bank sends back. */
export interface FileRailKind {
  outbound(config: RailConnectorConfig): OutboundFormat;
  inbound(config: RailConnectorConfig): InboundFormat[];
}
