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

/** One pain.001.001.09 message: one batch (one PmtInf) debiting one account, in one currency. */
export interface CreditTransferBatch {
  messageId: string;
  paymentInformationId: string;
  createdAt: Date;
  /** ISO date (YYYY-MM-DD) the debtor's bank executes the batch. */
  requestedExecutionDate: string;
  currency: string;
  initiatingPartyName: string;
  debtor: { name: string; iban: string; bic: string };
  /** BtchBookg: true books the batch as one debit on the debtor's account (default). */
  batchBooking?: boolean;
  transfers: readonly CreditTransfer[];
}

export interface WrittenPain001 {
  xml: string;
  numberOfTransactions: number;
  /** CtrlSum as written (decimal text) and in minor units. */
  controlSum: string;
  controlSumMinor: bigint;
}

const NAME_MAX = 70;

/**
 * Writes a CustomerCreditTransferInitiationV09 for the batch, or throws INVALID_INPUT naming the first bad field.
 * EUR batches are SEPA credit transfers (SvcLvl SEPA, ChrgBr SLEV); other currencies carry no service level and
 * share charges (SHAR), since SLEV is only meaningful under a service level.
 */
export function writePain001(batch: CreditTransferBatch): WrittenPain001 {
  const decimals = currencyDecimals(batch.currency, 'currency');
  if (batch.transfers.length === 0) throw new Iso20022Error('INVALID_INPUT', 'a batch needs at least one transfer');
  if (!/^\d{4}-\d{2}-\d{2}$/.test(batch.requestedExecutionDate) || Number.isNaN(Date.parse(`${batch.requestedExecutionDate}T00:00:00Z`))) {
    throw new Iso20022Error('INVALID_INPUT', `requestedExecutionDate "${batch.requestedExecutionDate}" is not a date (YYYY-MM-DD)`);
  }
  if (Number.isNaN(batch.createdAt.getTime())) throw new Iso20022Error('INVALID_INPUT', 'createdAt is not a valid date');
  const sepa = batch.currency === 'EUR';

  const seenInstr = new Set<string>();
  const seenE2e = new Set<string>();
  let sum = 0n;
  const txs = batch.transfers.map((t, i) => {
    const at = `transfers[${i}]`;
    if (!Number.isSafeInteger(t.amount) || t.amount <= 0) throw new Iso20022Error('INVALID_INPUT', `${at}.amount ${t.amount} must be a positive integer of minor units`);
    const instr = reference(t.instructionId, `${at}.instructionId`);
    const e2e = reference(t.endToEndId, `${at}.endToEndId`);
    if (seenInstr.has(instr)) throw new Iso20022Error('INVALID_INPUT', `${at}.instructionId "${instr}" is repeated in the batch`);
    if (seenE2e.has(e2e)) throw new Iso20022Error('INVALID_INPUT', `${at}.endToEndId "${e2e}" is repeated in the batch`);
    seenInstr.add(instr);
    seenE2e.add(e2e);
    sum += BigInt(t.amount);
    return {
      PmtId: { InstrId: instr, EndToEndId: e2e },
      Amt: { InstdAmt: { '@_Ccy': batch.currency, '#text': formatMinor(BigInt(t.amount), decimals) } },
      ...(t.creditorBic ? { CdtrAgt: { FinInstnId: { BICFI: bic(t.creditorBic, `${at}.creditorBic`) } } } : {}),
      Cdtr: { Nm: sepaText(t.creditorName, `${at}.creditorName`, NAME_MAX, 'truncate') },
      CdtrAcct: { Id: { IBAN: iban(t.creditorIban, `${at}.creditorIban`) } },
      ...(t.remittanceInformation ? { RmtInf: { Ustrd: sepaText(t.remittanceInformation, `${at}.remittanceInformation`, 140, 'refuse') } } : {}),
    };
  });
  const controlSum = formatMinor(sum, decimals);
  const count = String(txs.length);

  const document = {
    '?xml': { '@_version': '1.0', '@_encoding': 'UTF-8' },
    Document: {
      '@_xmlns': PAIN_001_NAMESPACE,
      CstmrCdtTrfInitn: {
        GrpHdr: {
          MsgId: reference(batch.messageId, 'messageId'),
          CreDtTm: batch.createdAt.toISOString().replace(/\.\d{3}Z$/, 'Z'),
          NbOfTxs: count,
          CtrlSum: controlSum,
          InitgPty: { Nm: sepaText(batch.initiatingPartyName, 'initiatingPartyName', NAME_MAX, 'truncate') },
        },
        PmtInf: {
          PmtInfId: reference(batch.paymentInformationId, 'paymentInformationId'),
          PmtMtd: 'TRF',
          BtchBookg: String(batch.batchBooking ?? true),
          NbOfTxs: count,
          CtrlSum: controlSum,
          ...(sepa ? { PmtTpInf: { SvcLvl: { Cd: 'SEPA' } } } : {}),
          ReqdExctnDt: { Dt: batch.requestedExecutionDate },
          Dbtr: { Nm: sepaText(batch.debtor.name, 'debtor.name', NAME_MAX, 'truncate') },
          DbtrAcct: { Id: { IBAN: iban(batch.debtor.iban, 'debtor.iban') } },
          DbtrAgt: { FinInstnId: { BICFI: bic(batch.debtor.bic, 'debtor.bic') } },
          ChrgBr: sepa ? 'SLEV' : 'SHAR',
          CdtTrfTxInf: txs,
        },
      },
    },
  };
  const xml = new XMLBuilder({ ignoreAttributes: false, attributeNamePrefix: '@_', format: true, indentBy: '  ', suppressEmptyNode: true }).build(document) as string;
  return { xml, numberOfTransactions: txs.length, controlSum, controlSumMinor: sum };
}
