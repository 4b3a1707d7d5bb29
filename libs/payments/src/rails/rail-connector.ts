import type { EntityManager } from 'typeorm';
import type { TimerRow } from '@payments/eventsourcing';
import type { Mode, RailCapabilities, RailConnectorConfig, RailImportResult, TransactionFailureReason } from '@payments/contracts';
import type { RailFileRow } from './rail-file-row';

/** What a connector is asked to move: a credit (payout), a debit (pull) or a zero-amount prenote. */
export type RailPaymentKind = 'CREDIT' | 'DEBIT' | 'PRENOTE';

/**
 * One payment handed to a rail, with everything the rail needs to address it: the external account's published
 * `accountInfo` (routing and account numbers, IBAN and BIC…) and its beneficiary. Built by the saga at submission.
 */
export interface RailOrder {
  /** The transaction id, or `Prenote:<externalAccountId>` for an account validation. */
  paymentId: string;
  platformId: string;
  mode: Mode;
  kind: RailPaymentKind;
  paymentRail: string;
  currency: string;
  /** Smallest unit; 0 for a prenote. */
  amount: number;
  externalAccountId: string;
  accountInfo: Record<string, unknown>;
  beneficiary: { name: string; type: 'INDIVIDUAL' | 'BUSINESS' } | null;
  /** Short reference shown to the counterparty (the transaction's reconciliation reference). */
  reference: string;
  /**
   * What the payee should see with the money (the transfer-out's `remittanceInformation`, ≤ 80 characters): a NACHA
   * 05 addenda, pain.001's RmtInf/Ustrd. Absent on orders recorded before it was carried, and on prenotes.
   */
  remittanceInformation?: string;
}

/** A connector's news about a payment, in our terms. */
export interface RailOutcome {
  paymentId: string;
  kind: 'SETTLED' | 'REJECTED' | 'RETURNED';
  /** REJECTED / RETURNED: the published reason (e.g. PAYOUT_RETURNED, ACCOUNT_INVALID, COLLECTION_FAILED). */
  failureReason?: TransactionFailureReason;
  /** The rail's own code (R01, AC04, a bridge's reasonCode), kept as the transaction's failureDetail. */
  railCode?: string;
  /** Where it came from: a file id, a callback's webhook-id, `calendar`, `poll`. */
  source: string;
}

/**
 * The rail-connector port (docs/rails.md): every production rail (NACHA files, ISO 20022 files, the generic HTTP
 * connector) implements it; the sandbox's simulation is the sandbox connector behind the same choice
 * (`Rails.railFor`). `accept` runs in the caller's database transaction, so a payment is recorded for its rail
 * together with the transaction's own record of the submission: both or neither.
 */
export interface RailConnector {
  readonly config: RailConnectorConfig;
  readonly capabilities: RailCapabilities;
  /**
   * Refuses an order this rail cannot carry (an account without a routing number on ACH, a name NACHA cannot write…)
   * with an ApiError before anything is recorded: the transaction then fails with ACCOUNT_INVALID.
   */
  validate(order: RailOrder): void;
  /** The rail's reference for the payment: an ACH trace number, an ISO 20022 end-to-end id, our id at a bridge. */
  railReference(order: RailOrder, sequence: number): string;
  /**
   * Called in the transaction that recorded the payment as SUBMITTED (its `rail_payments` row): a file connector
   * has nothing to do (its batcher picks SUBMITTED rows), the HTTP connector schedules the send.
   */
  accepted(tx: EntityManager, order: RailOrder): Promise<void>;
  /** File connectors: whether an incoming file is one of theirs (a NACHA return file, a pain.002, a camt.054). */
  recognizes?(content: Buffer): boolean;
  /**
   * File connectors: imports a return or status file once (by its SHA-256): a malformed or foreign file is refused
   * whole (ApiError INVALID_INPUT) and records nothing; the same bytes again answer the first import (`duplicate`).
   */
  importFile?(input: { name: string; content: Buffer; importedBy: string }): Promise<RailImportResult>;
  /** Connectors whose far side calls back (the HTTP connector): a signed status update, verified here. */
  callback?(headers: Record<string, string | undefined>, rawBody: string): Promise<void>;
  /** A durable timer the connector scheduled (`RAIL_CONNECTOR_TIMER` with `payload.connectorId` = its id). */
  onTimer?(timer: TimerRow): Promise<void>;
  /**
   * File connectors: the bytes of one of its files (a `rail_files` row, OUTBOUND from the outbox, INBOUND as imported),
   * for GET /operator/v1/rails/files/{fileId}/content; undefined when they are not there (still WRITING, removed).
   * A connector without it answers 404 FILE_CONTENT_UNAVAILABLE there.
   */
  readFile?(file: RailFileRow): Promise<Buffer | undefined>;
  /** Background work (batching files, watching the inbox, sending, polling); stopped before the database closes. */
  start(): void;
  stop(): Promise<void>;
}

/** What an import did: declared with the operator API's responses (libs/contracts/src/operator/rails.dto.ts). */
export type { RailImportResult } from '@payments/contracts';
