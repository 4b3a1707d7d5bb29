import { XMLBuilder } from 'fast-xml-parser';
import { currencyDecimals, formatMinor } from './amounts';
import { Iso20022Error } from './errors';
import { bic, iban, reference, sepaText } from './identifiers';

export const PAIN_001_NAMESPACE = 'urn:iso:std:iso:20022:tech:xsd:pain.001.001.09';

/** One credit transfer of the batch. Ids identify our transaction and come back in pain.002 and camt.054. */
export interface CreditTransfer {
  /** PmtId/InstrId; our transaction's reference (≤ 35 SEPA characters). */
  instructionId: string;
  /** PmtId/EndToEndId; travels to the creditor and back in status and notification files. */
  endToEndId: string;
  /** Integer minor units of the batch currency, > 0. */
  amount: number;
  creditorName: string;
  creditorIban: string;
  creditorBic?: string;
  /** RmtInf/Ustrd, at most 140 characters after transliteration (refused if longer: it is what the creditor matches on). */
  remittanceInformation?: string;
}

/** One payment information block (PmtInf): a batch debiting one account, in one currency, on one execution date. */
export interface PaymentInformation {
  paymentInformationId: string;
  /** ISO date (YYYY-MM-DD) the debtor's bank executes the batch. */
  requestedExecutionDate: string;
  currency: string;
  debtor: { name: string; iban: string; bic: string };
  /** BtchBookg: true books the batch as one debit on the debtor's account (default). */
  batchBooking?: boolean;
  /** PmtTpInf/LclInstrm/Cd, e.g. INST for SEPA Instant Credit Transfers. */
  localInstrument?: string;
  transfers: readonly CreditTransfer[];
}

/** One pain.001.001.09 message: one batch (one PmtInf) debiting one account, in one currency. */
export interface CreditTransferBatch extends PaymentInformation {
  messageId: string;
  createdAt: Date;
  initiatingPartyName: string;
}

/** One pain.001.001.09 message of several payment information blocks (per currency, execution date, service). */
export interface CreditTransferMessage {
  messageId: string;
  createdAt: Date;
  initiatingPartyName: string;
  paymentInformations: readonly PaymentInformation[];
}

export interface WrittenPain001 {
  xml: string;
  numberOfTransactions: number;
  /** CtrlSum as written (decimal text) and in minor units (of the largest minor unit among the blocks' currencies). */
  controlSum: string;
  controlSumMinor: bigint;
  /** Each PmtInf's totals, in order. */
  paymentInformations: { paymentInformationId: string; currency: string; numberOfTransactions: number; controlSum: string; controlSumMinor: bigint }[];
}

const NAME_MAX = 70;

/**
 * Writes a CustomerCreditTransferInitiationV09 for the batch, or throws INVALID_INPUT naming the first bad field.
 * EUR batches are SEPA credit transfers (SvcLvl SEPA, ChrgBr SLEV); other currencies carry no service level and
 * share charges (SHAR), since SLEV is only meaningful under a service level.
 */
export function writePain001(batch: CreditTransferBatch): WrittenPain001 {
  const { messageId, createdAt, initiatingPartyName, ...block } = batch;
  return write({ messageId, createdAt, initiatingPartyName, paymentInformations: [block] }, () => '', 'batch');
}

/**
 * Writes one CustomerCreditTransferInitiationV09 of several PmtInf blocks (fields named `paymentInformations[i].…`
 * in errors). Ids (InstrId, EndToEndId, PmtInfId) must be unique across the message. The group header's CtrlSum is
 * the sum of every amount irrespective of currency, as the message definition says.
 */
export function writePain001Message(message: CreditTransferMessage): WrittenPain001 {
  if (message.paymentInformations.length === 0) throw new Iso20022Error('INVALID_INPUT', 'a message needs at least one payment information block');
  return write(message, (i) => `paymentInformations[${i}].`, 'message');
}

function write(message: CreditTransferMessage, prefixOf: (i: number) => string, scope: 'batch' | 'message'): WrittenPain001 {
  if (Number.isNaN(message.createdAt.getTime())) throw new Iso20022Error('INVALID_INPUT', 'createdAt is not a valid date');
  const seenInstr = new Set<string>();
  const seenE2e = new Set<string>();
  const seenPmtInf = new Set<string>();
  const blocks = message.paymentInformations.map((b, i) => block(b, prefixOf(i), scope, seenInstr, seenE2e, seenPmtInf));
  const decimals = Math.max(...blocks.map((b) => b.decimals));
  const sum = blocks.reduce((s, b) => s + b.sum * 10n ** BigInt(decimals - b.decimals), 0n);
  const count = blocks.reduce((n, b) => n + b.count, 0);
  const controlSum = formatMinor(sum, decimals);

  const document = {
    '?xml': { '@_version': '1.0', '@_encoding': 'UTF-8' },
    Document: {
      '@_xmlns': PAIN_001_NAMESPACE,
      CstmrCdtTrfInitn: {
        GrpHdr: {
          MsgId: reference(message.messageId, 'messageId'),
          CreDtTm: message.createdAt.toISOString().replace(/\.\d{3}Z$/, 'Z'),
          NbOfTxs: String(count),
          CtrlSum: controlSum,
          InitgPty: { Nm: sepaText(message.initiatingPartyName, 'initiatingPartyName', NAME_MAX, 'truncate') },
        },
        PmtInf: blocks.length === 1 ? blocks[0].xml : blocks.map((b) => b.xml),
      },
    },
  };
  const xml = new XMLBuilder({ ignoreAttributes: false, attributeNamePrefix: '@_', format: true, indentBy: '  ', suppressEmptyNode: true }).build(document) as string;
  return {
    xml,
    numberOfTransactions: count,
    controlSum,
    controlSumMinor: sum,
    paymentInformations: blocks.map((b) => ({ paymentInformationId: b.id, currency: b.currency, numberOfTransactions: b.count, controlSum: formatMinor(b.sum, b.decimals), controlSumMinor: b.sum })),
  };
}

function block(batch: PaymentInformation, at: string, scope: 'batch' | 'message', seenInstr: Set<string>, seenE2e: Set<string>, seenPmtInf: Set<string>) {
  const decimals = currencyDecimals(batch.currency, `${at}currency`);
  if (batch.transfers.length === 0) throw new Iso20022Error('INVALID_INPUT', `${at ? `${at}transfers: ` : ''}a batch needs at least one transfer`);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(batch.requestedExecutionDate) || Number.isNaN(Date.parse(`${batch.requestedExecutionDate}T00:00:00Z`))) {
    throw new Iso20022Error('INVALID_INPUT', `${at}requestedExecutionDate "${batch.requestedExecutionDate}" is not a date (YYYY-MM-DD)`);
  }
  const id = reference(batch.paymentInformationId, `${at}paymentInformationId`);
  if (seenPmtInf.has(id)) throw new Iso20022Error('INVALID_INPUT', `${at}paymentInformationId "${id}" is repeated in the message`);
  seenPmtInf.add(id);
  if (batch.localInstrument !== undefined && !/^[A-Za-z0-9]{1,35}$/.test(batch.localInstrument)) {
    throw new Iso20022Error('INVALID_INPUT', `${at}localInstrument "${batch.localInstrument}" is not a code`);
  }
  const sepa = batch.currency === 'EUR';

  let sum = 0n;
  const txs = batch.transfers.map((t, i) => {
    const tat = `${at}transfers[${i}]`;
    if (!Number.isSafeInteger(t.amount) || t.amount <= 0) throw new Iso20022Error('INVALID_INPUT', `${tat}.amount ${t.amount} must be a positive integer of minor units`);
    const instr = reference(t.instructionId, `${tat}.instructionId`);
    const e2e = reference(t.endToEndId, `${tat}.endToEndId`);
    if (seenInstr.has(instr)) throw new Iso20022Error('INVALID_INPUT', `${tat}.instructionId "${instr}" is repeated in the ${scope}`);
    if (seenE2e.has(e2e)) throw new Iso20022Error('INVALID_INPUT', `${tat}.endToEndId "${e2e}" is repeated in the ${scope}`);
    seenInstr.add(instr);
    seenE2e.add(e2e);
    sum += BigInt(t.amount);
    return {
      PmtId: { InstrId: instr, EndToEndId: e2e },
      Amt: { InstdAmt: { '@_Ccy': batch.currency, '#text': formatMinor(BigInt(t.amount), decimals) } },
      ...(t.creditorBic ? { CdtrAgt: { FinInstnId: { BICFI: bic(t.creditorBic, `${tat}.creditorBic`) } } } : {}),
      Cdtr: { Nm: sepaText(t.creditorName, `${tat}.creditorName`, NAME_MAX, 'truncate') },
      CdtrAcct: { Id: { IBAN: iban(t.creditorIban, `${tat}.creditorIban`) } },
      ...(t.remittanceInformation ? { RmtInf: { Ustrd: sepaText(t.remittanceInformation, `${tat}.remittanceInformation`, 140, 'refuse') } } : {}),
    };
  });
  const count = String(txs.length);
  const paymentType = {
    ...(sepa ? { SvcLvl: { Cd: 'SEPA' } } : {}),
    ...(batch.localInstrument ? { LclInstrm: { Cd: batch.localInstrument } } : {}),
  };
  const xml = {
    PmtInfId: id,
    PmtMtd: 'TRF',
    BtchBookg: String(batch.batchBooking ?? true),
    NbOfTxs: count,
    CtrlSum: formatMinor(sum, decimals),
    ...(Object.keys(paymentType).length > 0 ? { PmtTpInf: paymentType } : {}),
    ReqdExctnDt: { Dt: batch.requestedExecutionDate },
    Dbtr: { Nm: sepaText(batch.debtor.name, `${at}debtor.name`, NAME_MAX, 'truncate') },
    DbtrAcct: { Id: { IBAN: iban(batch.debtor.iban, `${at}debtor.iban`) } },
    DbtrAgt: { FinInstnId: { BICFI: bic(batch.debtor.bic, `${at}debtor.bic`) } },
    ChrgBr: sepa ? 'SLEV' : 'SHAR',
    CdtTrfTxInf: txs,
  };
  return { id, currency: batch.currency, decimals, sum, count: txs.length, xml };
}
