/** The typed model the NACHA writer takes (ours; the file format is derived from it). */

export type SecCode = 'PPD' | 'CCD';
export type AccountType = 'CHECKING' | 'SAVINGS';
export type EntryDirection = 'CREDIT' | 'DEBIT';

export interface NachaEntryInput {
  /** The caller's id for this payment (not written; returned with the trace number assigned). */
  reference: string;
  direction: EntryDirection;
  accountType: AccountType;
  /** A zero-amount prenotification verifying the account (transaction codes 23/28/33/38). */
  prenote?: boolean;
  /** 9-digit ABA routing number of the receiving bank, check digit included. */
  routingNumber: string;
  accountNumber: string;
  /** Integer cents; positive, 0 only for a prenote. */
  amount: number;
  /** Individual (PPD) or receiver (CCD) identification, up to 15 characters. */
  individualId: string;
  /** Individual (PPD) or receiving company (CCD) name; upper-cased and cut to 22 characters. */
  name: string;
  /**
   * What the receiver's bank shows with the payment (an invoice number…): written as the entry's one addenda record
   * (type 05, PPD/CCD), printable ASCII, cut to 80 characters. Absent: no addenda.
   */
  paymentRelatedInformation?: string;
  /** The 7-digit sequence of the trace number; when absent the file numbers entries from `firstTraceSequence`. */
  traceSequence?: number;
}

export interface NachaBatchInput {
  /** PPD for individuals, CCD for businesses. */
  secCode: SecCode;
  companyName: string;
  companyDiscretionaryData?: string;
  /** 10 characters, usually '1' + the company's EIN. */
  companyIdentification: string;
  /** Shown on the receiver's statement, e.g. PAYOUT, up to 10 characters. */
  companyEntryDescription: string;
  companyDescriptiveDate?: string;
  /** YYYY-MM-DD, a banking day (see nextBankingDay). */
  effectiveEntryDate: string;
  /** The ODFI's 8-digit routing identification (routing number without its check digit). */
  originatingDfi: string;
  entries: NachaEntryInput[];
}

export interface NachaFileInput {
  /** 9-digit routing number of the bank the file is sent to. */
  immediateDestination: string;
  immediateDestinationName: string;
  /** 9-digit routing number or 10-character company identification of the sender. */
  immediateOrigin: string;
  immediateOriginName: string;
  /** File creation moment, written as UTC YYMMDD and HHMM. */
  createdAt: Date;
  /** A–Z or 0–9, distinguishes files created the same day. */
  fileIdModifier: string;
  referenceCode?: string;
  /** Sequence of the first trace number for entries without their own (default 1). */
  firstTraceSequence?: number;
  batches: NachaBatchInput[];
}

export interface WrittenEntry {
  reference: string;
  batchNumber: number;
  traceNumber: string;
  transactionCode: string;
}

export interface WrittenNachaFile {
  /** The file, 94-character records joined by \n, ending with \n, padded to a multiple of 10 records. */
  text: string;
  entries: WrittenEntry[];
  totals: { batchCount: number; blockCount: number; entryAddendaCount: number; entryHash: number; totalDebit: number; totalCredit: number };
}
