import type { OutgoingFailureReason } from '@payments/contracts';
import { readAmount, toSafeNumber } from './amounts';
import { Iso20022Error } from './errors';
import { failureReasonForStatusCode } from './status-reasons';
import { El, ReadOptions, parseDocument } from './xml';

export const PAIN_002_NAMESPACES = ['urn:iso:std:iso:20022:tech:xsd:pain.002.001.10', 'urn:iso:std:iso:20022:tech:xsd:pain.002.001.03'] as const;

/** What a status means for the payment: only REJECTED and SETTLED are final. */
export type StatusOutcome = 'ACCEPTED' | 'PENDING' | 'SETTLED' | 'REJECTED' | 'CANCELLED';

const OUTCOMES: Readonly<Record<string, StatusOutcome>> = {
  RCVD: 'ACCEPTED', // Received
  ACTC: 'ACCEPTED', // AcceptedTechnicalValidation
  ACCP: 'ACCEPTED', // AcceptedCustomerProfile
  ACSP: 'ACCEPTED', // AcceptedSettlementInProcess
  ACWC: 'ACCEPTED', // AcceptedWithChange
  ACWP: 'ACCEPTED', // AcceptedWithoutPosting
  ACFC: 'ACCEPTED', // AcceptedFundsChecked
  PATC: 'ACCEPTED', // PartiallyAcceptedTechnicalCorrect
  PART: 'ACCEPTED', // PartiallyAccepted (group/batch level: see the transactions)
  PDNG: 'PENDING', // Pending
  BLCK: 'PENDING', // Blocked (funds held by the bank)
  ACSC: 'SETTLED', // AcceptedSettlementCompleted (debtor's account debited)
  ACCC: 'SETTLED', // AcceptedCreditSettlementCompleted
  RJCT: 'REJECTED', // Rejected
  CANC: 'CANCELLED', // Cancelled
};

export interface StatusReason {
  /** StsRsnInf/Rsn/Cd (AC01, AM04, MS03…), or Rsn/Prtry for a bank's own code. */
  code?: string;
  /** The published failure reason for this code (what `failureReason` shows; keep `code` as `failureDetail`). */
  failureReason: OutgoingFailureReason;
  additionalInformation: string[];
}

export interface TransactionStatusUpdate {
  originalEndToEndId?: string;
  originalInstructionId?: string;
  originalPaymentInformationId?: string;
  /** TxSts, or inherited from the payment information or group status when the bank left it out. */
  status: string;
  outcome: StatusOutcome;
  reasons: StatusReason[];
  /** The first reason's published failure reason when REJECTED or CANCELLED. */
  failureReason?: OutgoingFailureReason;
  /** The first reason's code, kept for `failureDetail`. */
  failureCode?: string;
  /** OrgnlTxRef/Amt/InstdAmt when the bank echoes it. */
  amount?: { currency: string; amount: number };
}

export interface PaymentInformationStatus {
  originalPaymentInformationId: string;
  status?: string;
  outcome?: StatusOutcome;
  reasons: StatusReason[];
}

export interface PaymentStatusReport {
  version: '001.10' | '001.03';
  messageId: string;
  createdAt: string;
  originalMessageId: string;
  originalMessageNameId: string;
  groupStatus?: string;
  groupOutcome?: StatusOutcome;
  groupReasons: StatusReason[];
  /** True when the group is rejected and no transaction is itemised: every payment of the original message failed. */
  wholeMessageRejected: boolean;
  paymentInformations: PaymentInformationStatus[];
  transactions: TransactionStatusUpdate[];
}

const REPEATED = new Set(['OrgnlPmtInfAndSts', 'TxInfAndSts', 'StsRsnInf', 'AddtlInf', 'NbOfTxsPerSts']);

function outcomeOf(status: string, where: string): StatusOutcome {
  const o = OUTCOMES[status];
  if (!o) throw new Iso20022Error('INVALID_VALUE', `${where}: unknown status "${status}"`);
  return o;
}

function reasonsOf(parent: El): StatusReason[] {
  return parent.all('StsRsnInf').map((r) => {
    const rsn = r.opt('Rsn');
    const code = rsn?.optText('Cd') || rsn?.optText('Prtry') || undefined;
    if (code !== undefined && !/^[A-Za-z0-9]{1,35}$/.test(code)) throw new Iso20022Error('INVALID_VALUE', `${r.path}/Rsn: "${code}" is not a reason code`);
    return { code, failureReason: failureReasonForStatusCode(rsn?.optText('Cd')), additionalInformation: r.all('AddtlInf').map((a) => String(a.node['#text'] ?? '')) };
  });
}

/**
 * Reads a CustomerPaymentStatusReport (pain.002.001.10, or the older .001.03 whose paths are the same) into status
 * updates keyed by our end-to-end and instruction ids, or refuses the file whole.
 */
export function readPain002(xml: string | Buffer, options?: ReadOptions): PaymentStatusReport {
  const { namespace, document } = parseDocument(xml, PAIN_002_NAMESPACES, REPEATED, options);
  const root = new El(document, 'Document').el('CstmrPmtStsRpt');
  const hdr = root.el('GrpHdr');
  const grp = root.el('OrgnlGrpInfAndSts');
  const groupStatus = grp.optText('GrpSts') || undefined;
  const groupOutcome = groupStatus ? outcomeOf(groupStatus, `${grp.path}/GrpSts`) : undefined;
  const groupReasons = reasonsOf(grp);

  const paymentInformations: PaymentInformationStatus[] = [];
  const transactions: TransactionStatusUpdate[] = [];
  for (const pmt of root.all('OrgnlPmtInfAndSts')) {
    const pmtStatus = pmt.optText('PmtInfSts') || undefined;
    const info: PaymentInformationStatus = {
      originalPaymentInformationId: pmt.text('OrgnlPmtInfId'),
      status: pmtStatus,
      outcome: pmtStatus ? outcomeOf(pmtStatus, `${pmt.path}/PmtInfSts`) : undefined,
      reasons: reasonsOf(pmt),
    };
    paymentInformations.push(info);
    for (const tx of pmt.all('TxInfAndSts')) {
      const endToEnd = tx.optText('OrgnlEndToEndId') || undefined;
      const instruction = tx.optText('OrgnlInstrId') || undefined;
      if (!endToEnd && !instruction) throw new Iso20022Error('MISSING_ELEMENT', `${tx.path}/OrgnlEndToEndId is missing (and no OrgnlInstrId)`);
      // PART at batch level says nothing about one transaction; only a definite status is inherited.
      const inherited = [pmtStatus, groupStatus].find((s) => s && s !== 'PART' && s !== 'PATC');
      const status = tx.optText('TxSts') || inherited;
      if (!status) throw new Iso20022Error('MISSING_ELEMENT', `${tx.path}/TxSts is missing`);
      const outcome = outcomeOf(status, `${tx.path}/TxSts`);
      const ownReasons = reasonsOf(tx);
      const reasons = ownReasons.length > 0 ? ownReasons : info.reasons.length > 0 ? info.reasons : groupReasons;
      const failed = outcome === 'REJECTED' || outcome === 'CANCELLED';
      const amt = tx.opt('OrgnlTxRef')?.opt('Amt')?.opt('InstdAmt');
      const amount = amt ? readAmount(amt) : undefined;
      transactions.push({
        originalEndToEndId: endToEnd,
        originalInstructionId: instruction,
        originalPaymentInformationId: info.originalPaymentInformationId,
        status,
        outcome,
        reasons,
        ...(failed ? { failureReason: reasons[0]?.failureReason ?? 'COUNTERPARTY_POST_TX_FAILED', failureCode: reasons[0]?.code } : {}),
        ...(amount ? { amount: { currency: amount.currency, amount: toSafeNumber(amount.minor, amt!.path) } } : {}),
      });
    }
  }
  if (!groupStatus && paymentInformations.length === 0) {
    throw new Iso20022Error('MISSING_ELEMENT', `${grp.path}/GrpSts is missing and no OrgnlPmtInfAndSts is given`);
  }
  return {
    version: namespace.endsWith('.10') ? '001.10' : '001.03',
    messageId: hdr.text('MsgId'),
    createdAt: hdr.text('CreDtTm'),
    originalMessageId: grp.text('OrgnlMsgId'),
    originalMessageNameId: grp.text('OrgnlMsgNmId'),
    groupStatus,
    groupOutcome,
    groupReasons,
    wholeMessageRejected: groupOutcome === 'REJECTED' && transactions.length === 0,
    paymentInformations,
    transactions,
  };
}
