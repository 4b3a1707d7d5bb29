/**
 * The ISO 20022 bank-file format of the file connector (file-rail-connector.ts): payouts out as one
 * pain.001.001.09 per file, news back as pain.002 status reports and camt.054 debit/credit notifications. Pure and
 * deterministic: the XML itself is libs/iso20022's; this file maps our payments and outcomes onto it.
 *
 * Identifiers
 * - EndToEndId = InstrId = the rail reference = the transaction id's UUID without dashes (`Transaction:0190…` →
 *   32 lowercase hex characters, within the 35 allowed). Reversible (`paymentIdOfEndToEndId`); inbound ids of that
 *   shape are lower-cased, since a bank may echo them upper-case.
 * - MsgId = the file id's UUID without dashes (`RailFile:<uuid>`, reversible with `fileIdOfMessageId`), so a
 *   pain.002 about a whole message names the file; PmtInfId = its first 30 characters + `-<n>`.
 * - One PmtInf per currency and payment rail (SEPA_INSTANT carries LclInstrm INST), sorted by currency then rail;
 *   execution date = the file's UTC creation date. BtchBookg false: the bank books, and camt.054 notifies, each
 *   transfer with its own end-to-end id, which is how settlement is matched.
 *
 * Inbound mapping (ISO status or entry → InboundEntry)
 *
 * | message  | what                                               | entry                                              |
 * |----------|----------------------------------------------------|----------------------------------------------------|
 * | pain.002 | TxSts RJCT or CANC (own, or inherited from the     | OUTCOME REJECTED, railCode = StsRsnInf/Rsn/Cd (or  |
 * |          | PmtInf/group status when the bank left it out)     | the status when no reason), failureReason below    |
 * | pain.002 | TxSts ACSC, ACCC                                   | OUTCOME SETTLED                                    |
 * | pain.002 | TxSts RCVD ACTC ACCP ACSP ACWC ACWP ACFC PDNG BLCK | OTHER, raw.informational = true (nothing changes)  |
 * | pain.002 | GrpSts / PmtInfSts without any TxInfAndSts         | OTHER naming the file (raw.fileId) and PmtInfId;   |
 * |          |                                                    | raw.informational = false when RJCT/CANC: every    |
 * |          |                                                    | payment of that file (or block) failed, see below; |
 * |          |                                                    | true otherwise (an ACSC of a whole message too:    |
 * |          |                                                    | camt.054 confirms each transfer)                   |
 * | camt.054 | Ntry not BOOK (PDNG, INFO, FUTR)                   | OTHER, informational                               |
 * | camt.054 | booked with RtrInf, or a booked CRDT reversal      | OUTCOME RETURNED, PAYOUT_RETURNED, railCode =      |
 * |          | (RvslInd), with an end-to-end id                   | RtrInf/Rsn/Cd                                      |
 * | camt.054 | booked DBIT with an end-to-end id                  | OUTCOME SETTLED                                    |
 * | camt.054 | booked CRDT                                        | CREDIT (amount, currency, reference = RF creditor  |
 * |          |                                                    | reference, else Ustrd, else end-to-end id)         |
 * | camt.054 | booked DBIT without end-to-end id, DBIT reversal   | OTHER, not informational (fees, a debit not ours)  |
 *
 * Reason codes → failureReason: libs/iso20022's `failureReasonForStatusCode` (AC01/AC04 → ACCOUNT_INVALID, AC06 →
 * ACCOUNT_CANNOT_RECEIVE, RR0x → COMPLIANCE_REJECTED, AM04/FF01/DU01… (our side, never left) →
 * QUOTE_EXECUTION_FAILED…). Two published reasons it can give, LIMIT_EXCEEDED (AM02, AM14, AM23) and
 * COUNTERPARTY_POST_TX_FAILED (MS02, MS03, NARR, unknown codes), are not in the events' TransactionFailureReason, so
 * they are recorded as QUOTE_EXECUTION_FAILED (what the transaction view shows for any reason outside the enum); the
 * code itself is kept as railCode, the transaction's failureDetail.
 *
 * A rejection of a whole message or PmtInf names no end-to-end id; the format reports it as OTHER with raw.fileId /
 * raw.paymentInformationId / raw.failureReason / raw.railCode, and the connector decides (an exception for an
 * operator, or failing every payment of that file or block).
 */
import { createHash } from 'node:crypto';
import { invalidInput, type OutgoingFailureReason, type RailConnectorConfig, type TransactionFailureReason } from '@payments/contracts';
import {
  bic,
  CAMT_054_NAMESPACE,
  iban,
  Iso20022Error,
  PAIN_002_NAMESPACES,
  readCamt054,
  readPain002,
  sepaFreeText,
  sepaText,
  writePain001Message,
  type CreditTransfer,
  type NotificationMovement,
  type PaymentInformation,
  type TransactionStatusUpdate,
} from '@payments/iso20022';
import type { RailOrder } from '../rail-connector';
import type { RailPaymentRow } from '../rail-payments';
import type { FileRailKind, InboundEntry, InboundFormat, OutboundFileMeta, OutboundFormat, ParsedInboundFile, WrittenFile } from '../files/file-format';

/** Rails on which a creditor BIC is optional (IBAN-only addressing, EPC rulebooks); every other rail needs one. */
const IBAN_ONLY_RAILS: ReadonlySet<string> = new Set(['SEPA', 'SEPA_INSTANT']);
/** PmtTpInf/LclInstrm/Cd by payment rail. */
const LOCAL_INSTRUMENTS: Readonly<Record<string, string>> = { SEPA_INSTANT: 'INST' };
const MAX_ENTRIES = 1000;
const REMITTANCE_MAX = 140;
const NAME_MAX = 70;

const TRANSACTION_ID = /^Transaction:([0-9a-f]{8})-([0-9a-f]{4})-([0-9a-f]{4})-([0-9a-f]{4})-([0-9a-f]{12})$/i;
const HEX32 = /^[0-9a-fA-F]{32}$/;

/** `Transaction:<uuid>` → its UUID's 32 hex digits (the end-to-end id), or undefined for any other id. */
export function endToEndIdOf(paymentId: string): string | undefined {
  const m = TRANSACTION_ID.exec(paymentId);
  return m ? m.slice(1).join('').toLowerCase() : undefined;
}

/** The inverse of `endToEndIdOf`. */
export function paymentIdOfEndToEndId(endToEndId: string): string | undefined {
  return HEX32.test(endToEndId) ? `Transaction:${dashed(endToEndId.toLowerCase())}` : undefined;
}

/** pain.001 MsgId of a file: `RailFile:<uuid>` → 32 hex digits; any other id → a SHA-256 prefix of it (stable, ≤ 35). */
export function messageIdOf(fileId: string): string {
  const m = /^RailFile:([0-9a-f-]{36})$/i.exec(fileId);
  if (m && HEX32.test(m[1].replace(/-/g, ''))) return m[1].replace(/-/g, '').toLowerCase();
  return createHash('sha256').update(fileId).digest('hex').slice(0, 32);
}

/** `RailFile:<uuid>` of a MsgId written by `messageIdOf` (a pain.002's OrgnlMsgId), when it has that shape. */
export function fileIdOfMessageId(messageId: string): string | undefined {
  return HEX32.test(messageId) ? `RailFile:${dashed(messageId.toLowerCase())}` : undefined;
}

const dashed = (h: string) => `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
/** Our end-to-end ids are lower-case hex; a bank may quote them back upper-case. Others are kept as given. */
const ourReference = (ref: string) => (HEX32.test(ref) ? ref.toLowerCase() : ref);

/** Every published reason the ISO reason codes map to → the reason the transaction's events can record. */
const RECORDED_REASON: Readonly<Record<OutgoingFailureReason, TransactionFailureReason>> = {
  QUOTE_EXPIRED: 'QUOTE_EXECUTION_FAILED',
  QUOTE_RATE_UNAVAILABLE: 'QUOTE_EXECUTION_FAILED',
  QUOTE_EXECUTION_FAILED: 'QUOTE_EXECUTION_FAILED',
  FUNDING_AMOUNT_MISMATCH: 'QUOTE_EXECUTION_FAILED',
  SCA_NOT_COMPLETED: 'QUOTE_EXECUTION_FAILED',
  PAYOUT_RETURNED: 'PAYOUT_RETURNED',
  LIMIT_EXCEEDED: 'LIMIT_EXCEEDED',
  ACCOUNT_CANNOT_RECEIVE: 'ACCOUNT_CANNOT_RECEIVE',
  ACCOUNT_INVALID: 'ACCOUNT_INVALID',
  COMPLIANCE_REJECTED: 'COMPLIANCE_REJECTED',
  LIGHTNING_PAYMENT_FAILED: 'QUOTE_EXECUTION_FAILED',
  COUNTERPARTY_POST_TX_FAILED: 'COUNTERPARTY_POST_TX_FAILED',
};

/** The reason to record for an ISO status reason code (see the table above). */
export function recordedFailureReason(reason: OutgoingFailureReason): TransactionFailureReason {
  return RECORDED_REASON[reason];
}

// ─── Outbound: pain.001.001.09 ────────────────────────────────────────────────────────────────────────────────────

/** Runs a library validator, turning its refusal into INVALID_INPUT naming our field (`<field>: <why>`). */
function checked<T>(field: string, f: () => T): T {
  try {
    return f();
  } catch (error) {
    if (!(error instanceof Iso20022Error)) throw error;
    throw refused(field, error.message.startsWith(field) ? error.message.slice(field.length).replace(/^:?\s*/, '') : error.message);
  }
}

const refused = (field: string, why: string) => invalidInput(field, `${field}: ${why}`);

function stringField(info: Record<string, unknown>, key: string): string | undefined {
  const v = info[key];
  return typeof v === 'string' && v.trim() !== '' ? v : undefined;
}

/** The creditor's BIC: published EUR_ACCOUNT names it `swiftCode`; `bic` is accepted too. */
function creditorBicField(info: Record<string, unknown>): { field: string; value: string } | undefined {
  for (const key of ['swiftCode', 'bic']) {
    const value = stringField(info, key);
    if (value) return { field: `accountInfo.${key}`, value };
  }
  return undefined;
}

/** The transfer of one order, every field checked and named in our terms (the same checks at validation and writing). */
function transferOf(order: RailOrder, endToEndId: string): CreditTransfer {
  const ibanValue = stringField(order.accountInfo, 'iban');
  if (!ibanValue) throw refused('accountInfo.iban', 'an IBAN is required');
  const creditorIban = checked('accountInfo.iban', () => iban(ibanValue, 'accountInfo.iban'));
  const bicField = creditorBicField(order.accountInfo);
  if (!bicField && !IBAN_ONLY_RAILS.has(order.paymentRail)) throw refused('accountInfo.swiftCode', `a BIC is required on ${order.paymentRail}`);
  const creditorBic = bicField ? checked(bicField.field, () => bic(bicField.value, bicField.field)) : undefined;
  const name = order.beneficiary?.name;
  if (!name || name.trim() === '') throw refused('beneficiary.name', 'the creditor name is required');
  const creditorName = checked('beneficiary.name', () => sepaText(name, 'beneficiary.name', NAME_MAX, 'truncate'));
  // What the creditor sees: the payer's remittance information (transliterated, cut to 140), else the transaction's
  // short reference. Matching never reads it: status reports and notifications echo the EndToEndId.
  const remittanceInformation = (order.remittanceInformation ? sepaFreeText(order.remittanceInformation, REMITTANCE_MAX) : undefined) ?? (order.reference?.trim() ? checked('reference', () => sepaText(order.reference, 'reference', REMITTANCE_MAX, 'refuse')) : undefined);
  if (!Number.isSafeInteger(order.amount) || order.amount <= 0) throw refused('amount', `${order.amount} must be a positive integer of minor units`);
  return { instructionId: endToEndId, endToEndId, amount: order.amount, creditorName, creditorIban, ...(creditorBic ? { creditorBic } : {}), ...(remittanceInformation ? { remittanceInformation } : {}) };
}

function settingsOf(config: RailConnectorConfig) {
  const s = config.iso20022;
  if (!s) throw new Error(`rails configuration: ${config.id}: an ISO20022 connector needs its iso20022 settings`);
  const at = `rails configuration: ${config.id}.iso20022`;
  const ok = <T>(f: () => T): T => {
    try {
      return f();
    } catch (error) {
      throw error instanceof Iso20022Error ? new Error(`${at}.${error.message}`) : error;
    }
  };
  return {
    initiatingPartyName: ok(() => sepaText(s.initiatingPartyName, 'initiatingPartyName', NAME_MAX, 'refuse')),
    debtor: {
      name: ok(() => sepaText(s.debtorName, 'debtorName', NAME_MAX, 'refuse')),
      iban: ok(() => iban(s.debtorIban, 'debtorIban')),
      bic: ok(() => bic(s.debtorAgentBic, 'debtorAgentBic')),
    },
  };
}

function outbound(config: RailConnectorConfig): OutboundFormat {
  const settings = settingsOf(config);

  const blocksOf = (transfers: { order: RailOrder; transfer: CreditTransfer }[], messageId: string, executionDate: string): { block: PaymentInformation; paymentRail: string }[] => {
    const groups = new Map<string, { currency: string; paymentRail: string; transfers: CreditTransfer[] }>();
    for (const { order, transfer } of transfers) {
      const key = `${order.currency} ${order.paymentRail}`;
      const group = groups.get(key) ?? { currency: order.currency, paymentRail: order.paymentRail, transfers: [] };
      group.transfers.push(transfer);
      groups.set(key, group);
    }
    return [...groups.keys()].sort().map((key, i) => {
      const g = groups.get(key)!;
      const localInstrument = LOCAL_INSTRUMENTS[g.paymentRail];
      return {
        paymentRail: g.paymentRail,
        block: {
          paymentInformationId: `${messageId.slice(0, 30)}-${i + 1}`,
          requestedExecutionDate: executionDate,
          currency: g.currency,
          debtor: settings.debtor,
          batchBooking: false,
          ...(localInstrument ? { localInstrument } : {}),
          transfers: g.transfers,
        },
      };
    });
  };

  /** Writes the message, or refuses with the library's reason (only a currency the writer does not know gets here). */
  const message = (transfers: { order: RailOrder; transfer: CreditTransfer }[], meta: OutboundFileMeta) => {
    const createdAt = new Date(meta.createdAt);
    if (Number.isNaN(createdAt.getTime())) throw new Error(`file ${meta.fileId}: createdAt "${meta.createdAt}" is not an instant`);
    const messageId = messageIdOf(meta.fileId);
    const executionDate = createdAt.toISOString().slice(0, 10);
    const blocks = blocksOf(transfers, messageId, executionDate);
    const written = writePain001Message({ messageId, createdAt, initiatingPartyName: settings.initiatingPartyName, paymentInformations: blocks.map((b) => b.block) });
    return { messageId, executionDate, blocks, written };
  };

  const validate = (order: RailOrder): void => {
    if (order.kind !== 'CREDIT') throw refused('kind', `an ISO 20022 connector sends credit transfers (pain.001) only, not ${order.kind}`);
    const routes = config.routes.filter((r) => r.currency === order.currency && r.directions.includes('PAYOUT'));
    if (routes.length === 0) throw refused('currency', `${order.currency} is not routed to connector ${config.id}`);
    if (!routes.some((r) => r.paymentRail === order.paymentRail)) throw refused('paymentRail', `${order.currency} ${order.paymentRail} is not routed to connector ${config.id}`);
    const endToEndId = endToEndIdOf(order.paymentId);
    if (!endToEndId) throw refused('paymentId', `"${order.paymentId}" is not a transaction id (Transaction:<uuid>)`);
    const transfer = transferOf(order, endToEndId);
    // The writer itself, on this one transfer: whatever it would refuse in the file is refused now, before recording.
    try {
      message([{ order, transfer }], { createdAt: '2000-01-01T00:00:00Z', sequenceOfDay: 1, fileId: 'RailFile:00000000-0000-0000-0000-000000000000' });
    } catch (error) {
      if (!(error instanceof Iso20022Error)) throw error;
      if (error.code === 'UNKNOWN_CURRENCY') throw refused('currency', `${order.currency} is not a currency a pain.001 can carry`);
      throw refused('order', error.message);
    }
  };

  return {
    name: 'PAIN001',
    extension: 'xml',
    maxEntries: MAX_ENTRIES,
    validate,
    railReference(order: RailOrder): string {
      const endToEndId = endToEndIdOf(order.paymentId);
      if (!endToEndId) throw refused('paymentId', `"${order.paymentId}" is not a transaction id (Transaction:<uuid>)`);
      return endToEndId;
    },
    write(payments: RailPaymentRow[], meta: OutboundFileMeta): WrittenFile {
      if (payments.length === 0) throw new Error(`file ${meta.fileId}: no payments to write`);
      let total = 0;
      const transfers = payments.map((row) => {
        // The row's columns are what was recorded; the order carries the account details.
        const order: RailOrder = { ...row.rail_order, currency: row.currency, paymentRail: row.payment_rail, amount: Number(row.amount), kind: row.kind };
        try {
          validate(order);
          if (row.rail_reference !== endToEndIdOf(order.paymentId)) throw refused('railReference', `"${row.rail_reference}" is not this payment's end-to-end id`);
        } catch (error) {
          throw new Error(`payment ${row.payment_id} cannot be written into a pain.001: ${(error as Error).message}`, { cause: error });
        }
        total += order.amount;
        return { order, transfer: transferOf(order, row.rail_reference) };
      });
      const { messageId, executionDate, blocks, written } = message(transfers, meta);
      return {
        content: Buffer.from(written.xml, 'utf8'),
        entryCount: written.numberOfTransactions,
        totalAmount: total,
        summary: {
          messageId,
          numberOfTransactions: written.numberOfTransactions,
          controlSum: written.controlSum,
          requestedExecutionDate: executionDate,
          paymentInformations: written.paymentInformations.map((p, i) => ({
            paymentInformationId: p.paymentInformationId,
            currency: p.currency,
            paymentRail: blocks[i].paymentRail,
            numberOfTransactions: p.numberOfTransactions,
            controlSum: p.controlSum,
          })),
        },
      };
    },
  };
}

// ─── Inbound: pain.002 and camt.054 ───────────────────────────────────────────────────────────────────────────────

/** The namespace of the root `Document` element, read from the file's first 64 KiB without parsing it. */
export function rootNamespace(content: Buffer): string | undefined {
  const head = content.subarray(0, 64 * 1024).toString('utf8');
  const root = /<(?:([A-Za-z_][\w.-]*):)?Document[\s>/]/.exec(head);
  if (!root) return undefined;
  const end = head.indexOf('>', root.index);
  const tag = head.slice(root.index, end === -1 ? undefined : end);
  const attr = root[1] ? `xmlns:${root[1]}` : 'xmlns';
  const m = new RegExp(`\\s${attr.replace('.', '\\.')}\\s*=\\s*(["'])([^"']*)\\1`).exec(tag);
  return m?.[2];
}

function statusEntry(t: TransactionStatusUpdate, raw: Record<string, unknown>): InboundEntry {
  const railReference = ourReference((t.originalEndToEndId ?? t.originalInstructionId)!);
  if (t.outcome === 'REJECTED' || t.outcome === 'CANCELLED') {
    return { type: 'OUTCOME', railReference, kind: 'REJECTED', failureReason: recordedFailureReason(t.failureReason ?? 'COUNTERPARTY_POST_TX_FAILED'), railCode: t.failureCode ?? t.status, raw };
  }
  if (t.outcome === 'SETTLED') return { type: 'OUTCOME', railReference, kind: 'SETTLED', raw };
  return { type: 'OTHER', message: `pain.002: ${railReference} is ${t.status} (${t.outcome.toLowerCase()}); nothing changes`, raw: { ...raw, informational: true } };
}

function parsePain002(content: Buffer): ParsedInboundFile {
  const report = readPain002(content);
  const fileId = fileIdOfMessageId(report.originalMessageId);
  const header = { statusReportId: report.messageId, originalMessageId: report.originalMessageId, ...(fileId ? { fileId } : {}) };
  const entries: InboundEntry[] = report.transactions.map((t) =>
    statusEntry(t, {
      ...header,
      originalPaymentInformationId: t.originalPaymentInformationId,
      originalEndToEndId: t.originalEndToEndId,
      originalInstructionId: t.originalInstructionId,
      status: t.status,
      reasons: t.reasons.map((r) => ({ code: r.code, additionalInformation: r.additionalInformation })),
      ...(t.amount ? { amount: t.amount.amount, currency: t.amount.currency } : {}),
    }),
  );

  // Statuses of a whole block or message that itemise no transaction: no end-to-end id to report against.
  const itemised = new Set(report.transactions.map((t) => t.originalPaymentInformationId));
  const wholeStatus = (level: 'GROUP' | 'PAYMENT_INFORMATION', what: string, status: string, outcome: string, reasons: { code?: string; failureReason: OutgoingFailureReason }[], extra: Record<string, unknown>): InboundEntry => {
    const failed = outcome === 'REJECTED' || outcome === 'CANCELLED';
    const code = reasons[0]?.code;
    const failureReason = failed ? recordedFailureReason(reasons[0]?.failureReason ?? 'COUNTERPARTY_POST_TX_FAILED') : undefined;
    const message = failed
      ? `pain.002: the bank ${outcome === 'REJECTED' ? 'rejected' : 'cancelled'} ${what} (${status}${code ? ` ${code}` : ''}) without itemising its transactions: every payment in it failed`
      : `pain.002: ${what} is ${status} (${outcome.toLowerCase()}); nothing changes`;
    return { type: 'OTHER', message, raw: { ...header, ...extra, level, status, informational: !failed, ...(failed ? { failureReason, railCode: code ?? status } : {}), reasons: reasons.map((r) => r.code) } };
  };
  const blocks = report.paymentInformations.filter((p) => !itemised.has(p.originalPaymentInformationId) && p.status && p.outcome);
  for (const p of blocks) {
    entries.push(wholeStatus('PAYMENT_INFORMATION', `payment information ${p.originalPaymentInformationId} of message ${report.originalMessageId}`, p.status!, p.outcome!, p.reasons, { paymentInformationId: p.originalPaymentInformationId }));
  }
  if (report.groupStatus && report.groupOutcome && report.transactions.length === 0 && blocks.length === 0) {
    entries.push(wholeStatus('GROUP', `message ${report.originalMessageId}${fileId ? ` (file ${fileId})` : ''}`, report.groupStatus, report.groupOutcome, report.groupReasons, {}));
  }
  return {
    format: 'PAIN002',
    entries,
    summary: { ...header, version: report.version, groupStatus: report.groupStatus ?? null, wholeMessageRejected: report.wholeMessageRejected, transactions: report.transactions.length },
  };
}

function movementEntry(m: NotificationMovement): InboundEntry {
  const ref = m.endToEndId ?? m.instructionId;
  const raw: Record<string, unknown> = {
    notificationId: m.notificationId,
    entryReference: m.entryReference ?? null,
    accountServicerReference: m.accountServicerReference ?? null,
    direction: m.direction,
    status: m.status,
    reversal: m.reversal,
    amount: m.amount,
    currency: m.currency,
    bookingDate: m.bookingDate ?? null,
    valueDate: m.valueDate ?? null,
    endToEndId: m.endToEndId ?? null,
    instructionId: m.instructionId ?? null,
    returnReasonCode: m.returnReasonCode ?? null,
  };
  const what = `${m.direction.toLowerCase()} of ${m.amount} ${m.currency}${ref ? ` (${ref})` : ''}`;
  if (m.status !== 'BOOK') return { type: 'OTHER', message: `camt.054: ${m.status} ${what} is not booked; nothing changes`, raw: { ...raw, informational: true } };
  if (m.returnReasonCode || (m.direction === 'CREDIT' && m.reversal)) {
    if (!ref) return { type: 'OTHER', message: `camt.054: a returned ${what} without an end-to-end id`, raw: { ...raw, informational: false } };
    return { type: 'OUTCOME', railReference: ourReference(ref), kind: 'RETURNED', failureReason: 'PAYOUT_RETURNED', ...(m.returnReasonCode ? { railCode: m.returnReasonCode } : {}), raw };
  }
  if (m.direction === 'DEBIT') {
    if (m.reversal || !m.endToEndId) return { type: 'OTHER', message: `camt.054: a booked ${m.reversal ? 'reversal ' : ''}${what} that is no payout of ours`, raw: { ...raw, informational: false } };
    return { type: 'OUTCOME', railReference: ourReference(m.endToEndId), kind: 'SETTLED', raw };
  }
  const reference = m.creditorReference ?? (m.remittanceInformation.length > 0 ? m.remittanceInformation.join(' ') : undefined) ?? m.endToEndId ?? null;
  // The entry's id at the bank, narrowed to the transaction when the entry is a batch (they share the entry's ids).
  const entryId = m.accountServicerReference ?? (m.entryReference ? `${m.notificationId}/${m.entryReference}` : undefined);
  const transactionIds = [m.uetr, m.transactionId, m.endToEndId, m.instructionId].filter((x): x is string => !!x);
  return {
    type: 'CREDIT',
    amount: m.amount,
    currency: m.currency,
    reference,
    bankReference: entryId ? [entryId, transactionIds[0] ?? '', String(m.amount), m.currency].join('|') : null,
    texts: [m.creditorReference, ...m.remittanceInformation, m.endToEndId].filter((x): x is string => !!x),
    accountNumbers: [m.creditor.iban, m.creditor.otherAccountId, m.accountOtherId].filter((x): x is string => !!x),
    ...(m.debtor.name ? { debtorName: m.debtor.name } : {}),
    ...(m.bookingDate ?? m.valueDate ? { bookedAt: (m.bookingDate ?? m.valueDate)! } : {}),
    raw: { ...raw, debtorIban: m.debtor.iban ?? null, remittanceInformation: m.remittanceInformation, creditorReference: m.creditorReference ?? null, creditorAccount: m.creditor.iban ?? m.creditor.otherAccountId ?? null },
  };
}

function parseCamt054(content: Buffer): ParsedInboundFile {
  const notification = readCamt054(content);
  const entries = notification.movements.map(movementEntry);
  return { format: 'CAMT054', entries, summary: { messageId: notification.messageId, createdAt: notification.createdAt, movements: notification.movements.length } };
}

const pain002: InboundFormat = {
  recognizes: (content) => (PAIN_002_NAMESPACES as readonly string[]).includes(rootNamespace(content) ?? ''),
  parse: parsePain002,
};

const camt054: InboundFormat = {
  recognizes: (content) => rootNamespace(content) === CAMT_054_NAMESPACE,
  parse: parseCamt054,
};

/** The ISO 20022 connector kind: pain.001 out; pain.002 and camt.054 in. */
export const iso20022RailKind: FileRailKind = {
  outbound,
  inbound: () => [pain002, camt054],
};
