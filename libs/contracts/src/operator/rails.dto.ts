import { IsIn, IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { OptionalNotNull } from '../optional-not-null';
import { PageQuery } from '../pagination';
import type { RailCapabilities, RailConnectorKind, RailRoute } from '../production/rails-config';

/**
 * The operations side of the production rails (docs/rails.md): what the connectors hold, the files they wrote and
 * imported, the payments in them and the exceptions an operator resolves. Read from the payments service's
 * `rail_*` tables; amounts are in the currency's smallest unit.
 */
export const RAIL_FILE_DIRECTIONS = ['OUTBOUND', 'INBOUND'] as const;
export type RailFileDirection = (typeof RAIL_FILE_DIRECTIONS)[number];
export const RAIL_FILE_STATUSES = ['WRITING', 'WRITTEN', 'IMPORTED'] as const;
export type RailFileStatus = (typeof RAIL_FILE_STATUSES)[number];
export const RAIL_PAYMENT_STATUSES = ['SUBMITTED', 'FILED', 'SENT', 'SETTLED', 'REJECTED', 'RETURNED'] as const;
export type RailPaymentStatusValue = (typeof RAIL_PAYMENT_STATUSES)[number];
export const RAIL_EXCEPTION_STATUSES = ['OPEN', 'RESOLVED'] as const;
export type RailExceptionStatus = (typeof RAIL_EXCEPTION_STATUSES)[number];
/** What an operator must look at; each kind is explained in docs/rails.md#exceptions. */
export const RAIL_EXCEPTION_KINDS = ['UNMATCHED_ENTRY', 'NOTIFICATION_OF_CHANGE', 'RETURN_NOT_REVERSIBLE', 'CONTRADICTORY_OUTCOME', 'UNMATCHED_CREDIT', 'AMOUNT_MISMATCH', 'REFUSED_FILE', 'UNWRITABLE_FILE', 'BRIDGE_ERROR', 'NO_VERIFYING_RAIL'] as const;
export type RailExceptionKind = (typeof RAIL_EXCEPTION_KINDS)[number];

/** The connector id pattern of RAILS_CONFIG (rails-config.ts). */
const CONNECTOR_ID = /^[a-z0-9][a-z0-9-]{0,39}$/;
const CONNECTOR_ID_MESSAGE = 'connectorId must be a connector id of the rails configuration (lowercase letters, digits and -)';

/** One configured connector with what it holds (GET /operator/v1/rails/connectors). */
export interface RailConnectorView {
  id: string;
  kind: RailConnectorKind;
  routes: RailRoute[];
  capabilities: RailCapabilities;
  /** Payments SUBMITTED: waiting to be put in a file (file connectors) or sent (HTTP). */
  paymentsSubmitted: number;
  /** Payments FILED or SENT: handed over, waiting for the rail's news (or the settlement calendar). */
  paymentsAwaitingRail: number;
  /** Exceptions still OPEN. */
  exceptionsOpen: number;
  /**
   * When its last outbound file was written; absent before the first.
   * @format date-time
   */
  lastOutboundFileAt?: string;
}

export interface RailConnectorList {
  data: RailConnectorView[];
}

/** A file a connector wrote (OUTBOUND) or imported (INBOUND). */
export interface RailFileView {
  /** e.g. `RailFile:…` */
  id: string;
  connectorId: string;
  direction: RailFileDirection;
  /** NACHA, PAIN001 (outbound); NACHA_RETURNS, PAIN002, CAMT054 (inbound). */
  format: string;
  name: string;
  /** WRITING: claimed, its bytes not stored yet; WRITTEN: in the outbox; IMPORTED: read from the inbox or uploaded. */
  status: RailFileStatus;
  /** Of the bytes; absent while WRITING. */
  sha256?: string;
  sizeBytes?: number;
  entryCount: number;
  /** Sum of the entries' amounts, smallest unit. */
  totalAmount: number;
  /** The format's summary (control totals, effective date, the message's status…). */
  meta: Record<string, unknown>;
  /** INBOUND: who imported it (an operator id, `admin-cli`, `inbox`). */
  importedBy?: string;
  /** @format date-time */
  createdAt: string;
  /** @format date-time */
  writtenAt?: string;
}

/** A payment handed to a connector (a `rail_payments` row). */
export interface RailPaymentView {
  /** The transaction id, or `Prenote:<externalAccountId>` for an account validation. */
  paymentId: string;
  connectorId: string;
  platformId: string;
  kind: 'CREDIT' | 'DEBIT' | 'PRENOTE';
  paymentRail: string;
  /** The rail's reference: an ACH trace number, an ISO 20022 end-to-end id, our id at a bridge. */
  railReference: string;
  amount: number;
  currency: string;
  externalAccountId: string;
  status: RailPaymentStatusValue;
  /** The outbound file it is in (file connectors), once FILED. */
  fileId?: string;
  /** The bridge's own id (HTTP connector). */
  providerReference?: string;
  /**
   * When it is taken as settled without further news (ACH: its effective entry date).
   * @format date-time
   */
  settlesAt?: string;
  /** @format date-time */
  submittedAt: string;
  /** @format date-time */
  updatedAt: string;
}

/** A rail's news about a payment, recorded once (by payment and kind) and applied to its transaction once. */
export interface RailOutcomeView {
  paymentId: string;
  kind: 'SETTLED' | 'REJECTED' | 'RETURNED';
  /** REJECTED / RETURNED: the published failure reason. */
  failureReason?: string;
  /** The rail's own code (R01, AC04…). */
  railCode?: string;
  /** Where it came from: a file id, a callback's webhook-id, `calendar`, `poll`. */
  source: string;
  /** @format date-time */
  recordedAt: string;
  /**
   * When it was applied to the transaction (the ledger); absent while waiting.
   * @format date-time
   */
  appliedAt?: string;
}

/** Something an operator must look at, open until resolved. */
export interface RailExceptionView {
  /** e.g. `RailException:…` */
  id: string;
  connectorId: string;
  /** The imported file it came from. */
  fileId?: string;
  /** The payment it is about, when one matched. */
  paymentId?: string;
  kind: RailExceptionKind;
  message: string;
  /** The entry as read (trace number, end-to-end id, amount, codes…). */
  detail: Record<string, unknown>;
  status: RailExceptionStatus;
  /** UNMATCHED_CREDIT: what the operator decided, ASSIGNED (credited to an internal account) or TO_BE_RETURNED. */
  disposition?: 'ASSIGNED' | 'TO_BE_RETURNED';
  /** ASSIGNED: the INCOMING transaction that credited the account. */
  transactionId?: string;
  resolution?: string;
  /** The operator id that resolved it. */
  resolvedBy?: string;
  /** @format date-time */
  resolvedAt?: string;
  /** @format date-time */
  createdAt: string;
}

/** GET /operator/v1/rails/files/{fileId}: the file with what it holds. */
export interface RailFileDetail extends RailFileView {
  /** OUTBOUND: the payments in it, in file order. */
  payments?: RailPaymentView[];
  /** INBOUND: the outcomes it recorded (a repeat of news already recorded is not among them). */
  outcomes?: RailOutcomeView[];
  /** INBOUND: the exceptions it raised. */
  exceptions?: RailExceptionView[];
}

/** GET /operator/v1/rails/payments/{paymentId}: the payment with its outcomes and its file. */
export interface RailPaymentDetail extends RailPaymentView {
  outcomes: RailOutcomeView[];
  file?: RailFileView;
}

/** What an import did (POST /operator/v1/rails/imports, `npm run admin -- rails:import FILE`). */
export interface RailImportResult {
  fileId: string;
  connectorId: string;
  format: string;
  name: string;
  sha256: string;
  /** The same bytes were imported before: nothing changed, this is the first import's record. */
  duplicate: boolean;
  entries: number;
  /** Outcomes recorded for payments (settlements, rejections, returns), each applied once. */
  outcomes: number;
  /** Entries an operator must look at (GET /operator/v1/rails/exceptions). */
  exceptions: number;
}

/** GET /operator/v1/rails/files: newest first; every filter narrows. */
export class ListRailFilesQuery extends PageQuery {
  @OptionalNotNull() @IsString() @Matches(CONNECTOR_ID, { message: CONNECTOR_ID_MESSAGE }) connectorId?: string;
  @OptionalNotNull() @IsIn(RAIL_FILE_DIRECTIONS) direction?: RailFileDirection;
  @OptionalNotNull() @IsIn(RAIL_FILE_STATUSES) status?: RailFileStatus;
}

/** GET /operator/v1/rails/exceptions: oldest first; every filter narrows. */
export class ListRailExceptionsQuery extends PageQuery {
  @OptionalNotNull() @IsIn(RAIL_EXCEPTION_STATUSES) status?: RailExceptionStatus;
  @OptionalNotNull() @IsString() @Matches(CONNECTOR_ID, { message: CONNECTOR_ID_MESSAGE }) connectorId?: string;
  @OptionalNotNull() @IsIn(RAIL_EXCEPTION_KINDS) kind?: RailExceptionKind;
}

/** POST /operator/v1/rails/exceptions/{exceptionId}/resolve: what was done about it (kept with it and in the audit log). */
export class ResolveRailExceptionRequest {
  @IsString() @MinLength(1) @MaxLength(1000) @Matches(/\S/, { message: 'resolution must not be blank' }) resolution!: string;
}

/** POST /operator/v1/rails/exceptions/{exceptionId}/assign: the production internal account an unmatched credit is for. */
export class AssignRailCreditRequest {
  @IsString() @Matches(/^InternalAccount:[0-9a-f-]{36}$/, { message: 'internalAccountId must be an internal account id (InternalAccount:…)' }) internalAccountId!: string;
  @IsString() @MinLength(1) @MaxLength(1000) @Matches(/\S/, { message: 'reason must not be blank' }) reason!: string;
}

/** POST /operator/v1/rails/exceptions/{exceptionId}/return: why an unmatched credit goes back to its sender. */
export class ReturnRailCreditRequest {
  @IsString() @MinLength(1) @MaxLength(1000) @Matches(/\S/, { message: 'reason must not be blank' }) reason!: string;
}

/** POST /operator/v1/rails/imports: the text fields of the multipart body (the file is the part `file`). */
export class ImportRailFileFields {
  /** The connector that reads the file; without it, the one file connector that recognizes the format. */
  @OptionalNotNull() @IsString() @Matches(CONNECTOR_ID, { message: CONNECTOR_ID_MESSAGE }) connectorId?: string;
}

/** Largest return or status file accepted through the API (a NACHA return file is ~100 bytes a line). */
export const RAIL_IMPORT_SIZE_MAX_BYTES = 20 * 1024 * 1024;
