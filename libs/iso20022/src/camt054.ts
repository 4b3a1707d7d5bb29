import { formatMinor, readAmount, toSafeNumber, currencyDecimals, parseDecimalToMinor } from './amounts';
import { Iso20022Error } from './errors';
import { El, ReadOptions, parseDocument } from './xml';

export const CAMT_054_NAMESPACE = 'urn:iso:std:iso:20022:tech:xsd:camt.054.001.08';

export interface PartyInfo {
  name?: string;
  iban?: string;
  /** Account identification other than an IBAN (Othr/Id). */
  otherAccountId?: string;
}

/**
 * One movement on the notified account: a transaction of an entry (NtryDtls/TxDtls), or the entry itself when the
 * bank gives no details. A DEBIT BOOK with our end-to-end id confirms a payout; a CREDIT carries the remittance
 * information that matches a funding instruction.
 */
export interface NotificationMovement {
  notificationId: string;
  accountIban?: string;
  accountOtherId?: string;
  entryReference?: string;
  direction: 'CREDIT' | 'DEBIT';
  /** Sts/Cd (or Prtry): BOOK, PDNG, INFO, FUTR. Only BOOK is a posting. */
  status: string;
  /** RvslInd: the entry reverses an earlier one (a returned payout appears as a reversal or a credit). */
  reversal: boolean;
  /** Integer minor units of `currency` (the transaction's own Amt, which may differ from the entry's currency). */
  amount: number;
  currency: string;
  /** The whole entry's amount, when the entry is a batch of several transactions. */
  entryAmount: number;
  bookingDate?: string;
  valueDate?: string;
  accountServicerReference?: string;
  endToEndId?: string;
  instructionId?: string;
  paymentInformationId?: string;
  messageId?: string;
  transactionId?: string;
  uetr?: string;
  remittanceInformation: string[];
  /** RmtInf/Strd/CdtrRefInf/Ref (an RF creditor reference). */
  creditorReference?: string;
  debtor: PartyInfo;
  creditor: PartyInfo;
  /** RtrInf/Rsn/Cd of a returned transaction. */
  returnReasonCode?: string;
}

export interface DebitCreditNotification {
  messageId: string;
  createdAt: string;
  movements: NotificationMovement[];
}

const REPEATED = new Set(['Ntfctn', 'Ntry', 'NtryDtls', 'TxDtls', 'Ustrd', 'Strd']);

function dateOf(parent: El, name: string): string | undefined {
  const e = parent.opt(name);
  return e ? e.optText('Dt') || e.optText('DtTm') || undefined : undefined;
}

function accountOf(acct: El | undefined): Pick<PartyInfo, 'iban' | 'otherAccountId'> {
  const id = acct?.opt('Id');
  return { iban: id?.optText('IBAN') || undefined, otherAccountId: id?.at('Othr/Id') };
}

/** Party40Choice of .08: a party (Pty) or an agent (Agt); the name sits on the party. */
function partyName(p: El | undefined): string | undefined {
  if (!p) return undefined;
  return p.at('Pty/Nm') ?? p.optText('Nm') ?? p.at('Agt/FinInstnId/Nm');
}

function indicator(value: string, where: string): 'CREDIT' | 'DEBIT' {
  if (value === 'CRDT') return 'CREDIT';
  if (value === 'DBIT') return 'DEBIT';
  throw new Iso20022Error('INVALID_VALUE', `${where}: CdtDbtInd "${value}" is neither CRDT nor DBIT`);
}

/** TxsSummry totals, when the bank gives them, must match the entries listed. */
function checkSummary(ntf: El, entries: { direction: 'CREDIT' | 'DEBIT'; minor: bigint; decimals: number }[]): void {
  const summary = ntf.opt('TxsSummry');
  if (!summary) return;
  const decimals = Math.max(0, ...entries.map((e) => e.decimals));
  const check = (el: El | undefined, list: typeof entries, label: string) => {
    if (!el) return;
    const n = el.optText('NbOfNtries');
    if (n !== undefined && n !== String(list.length)) {
      throw new Iso20022Error('TOTALS_MISMATCH', `${el.path}/NbOfNtries says ${n} but ${list.length} ${label} entries are listed`);
    }
    const sum = el.optText('Sum');
    if (sum !== undefined) {
      const expected = list.reduce((s, e) => s + e.minor * 10n ** BigInt(decimals - e.decimals), 0n);
      if (parseDecimalToMinor(sum, decimals, `${el.path}/Sum`) !== expected) {
        throw new Iso20022Error('TOTALS_MISMATCH', `${el.path}/Sum says ${sum} but the ${label} entries add up to ${formatMinor(expected, decimals)}`);
      }
    }
  };
  check(summary.opt('TtlNtries'), entries, 'notified');
  check(summary.opt('TtlCdtNtries'), entries.filter((e) => e.direction === 'CREDIT'), 'credit');
  check(summary.opt('TtlDbtNtries'), entries.filter((e) => e.direction === 'DEBIT'), 'debit');
}

/**
 * Reads a BankToCustomerDebitCreditNotification (camt.054.001.08) into movements with exact minor-unit amounts, or
 * refuses the file whole (totals that disagree with the entries, a batch whose transactions do not add up to it).
 */
export function readCamt054(xml: string | Buffer, options?: ReadOptions): DebitCreditNotification {
  const { document } = parseDocument(xml, [CAMT_054_NAMESPACE], REPEATED, options);
  const root = new El(document, 'Document').el('BkToCstmrDbtCdtNtfctn');
  const hdr = root.el('GrpHdr');
  const notifications = root.all('Ntfctn');
  if (notifications.length === 0) throw new Iso20022Error('MISSING_ELEMENT', `${root.path}/Ntfctn is missing`);

  const movements: NotificationMovement[] = [];
  for (const ntf of notifications) {
    const notificationId = ntf.text('Id');
    const acct = ntf.el('Acct');
    const { iban: accountIban, otherAccountId: accountOtherId } = accountOf(acct);
    if (!accountIban && !accountOtherId) throw new Iso20022Error('MISSING_ELEMENT', `${acct.path}/Id is missing`);
    const listed: { direction: 'CREDIT' | 'DEBIT'; minor: bigint; decimals: number }[] = [];

    for (const ntry of ntf.all('Ntry')) {
      const entryAmt = readAmount(ntry.el('Amt'));
      const direction = indicator(ntry.text('CdtDbtInd'), `${ntry.path}/CdtDbtInd`);
      const sts = ntry.el('Sts');
      const status = sts.optText('Cd') || sts.optText('Prtry') || (String(sts.node['#text'] ?? '') || undefined);
      if (!status) throw new Iso20022Error('MISSING_ELEMENT', `${sts.path}/Cd is missing`);
      const entryDecimals = currencyDecimals(entryAmt.currency, ntry.path);
      listed.push({ direction, minor: entryAmt.minor, decimals: entryDecimals });
      const base = {
        notificationId,
        accountIban,
        accountOtherId,
        entryReference: ntry.optText('NtryRef') || undefined,
        direction,
        status,
        reversal: ntry.optText('RvslInd') === 'true',
        entryAmount: toSafeNumber(entryAmt.minor, ntry.path),
        bookingDate: dateOf(ntry, 'BookgDt'),
        valueDate: dateOf(ntry, 'ValDt'),
        accountServicerReference: ntry.optText('AcctSvcrRef') || undefined,
      };

      const details = ntry.all('NtryDtls').flatMap((d) => {
        const txs = d.all('TxDtls');
        const batchCount = d.at('Btch/NbOfTxs');
        if (batchCount !== undefined && batchCount !== String(txs.length) && txs.length > 0) {
          throw new Iso20022Error('TOTALS_MISMATCH', `${d.path}/Btch/NbOfTxs says ${batchCount} but ${txs.length} TxDtls are listed`);
        }
        return txs;
      });
      if (details.length === 0) {
        movements.push({ ...base, amount: base.entryAmount, currency: entryAmt.currency, remittanceInformation: [], debtor: {}, creditor: {} });
        continue;
      }
      let detailSum = 0n;
      let everyAmountInEntryCurrency = true;
      for (const tx of details) {
        const txAmtEl = tx.opt('Amt');
        const txAmt = txAmtEl ? readAmount(txAmtEl) : details.length === 1 ? entryAmt : undefined;
        if (!txAmt) throw new Iso20022Error('MISSING_ELEMENT', `${tx.path}/Amt is missing (the entry has several transactions)`);
        if (txAmt.currency === entryAmt.currency) detailSum += txAmt.minor;
        else everyAmountInEntryCurrency = false;
        const txInd = tx.optText('CdtDbtInd');
        if (txInd && indicator(txInd, `${tx.path}/CdtDbtInd`) !== direction) {
          throw new Iso20022Error('INVALID_VALUE', `${tx.path}/CdtDbtInd disagrees with its entry's ${direction}`);
        }
        const refs = tx.opt('Refs');
        const parties = tx.opt('RltdPties');
        const rmt = tx.opt('RmtInf');
        movements.push({
          ...base,
          amount: toSafeNumber(txAmt.minor, tx.path),
          currency: txAmt.currency,
          accountServicerReference: refs?.optText('AcctSvcrRef') || base.accountServicerReference,
          endToEndId: nonEmptyRef(refs?.optText('EndToEndId')),
          instructionId: nonEmptyRef(refs?.optText('InstrId')),
          paymentInformationId: nonEmptyRef(refs?.optText('PmtInfId')),
          messageId: nonEmptyRef(refs?.optText('MsgId')),
          transactionId: nonEmptyRef(refs?.optText('TxId')),
          uetr: refs?.optText('UETR') || undefined,
          remittanceInformation: (rmt?.all('Ustrd') ?? []).map((u) => String(u.node['#text'] ?? '')).filter((s) => s !== ''),
          creditorReference: rmt?.all('Strd').map((s) => s.at('CdtrRefInf/Ref')).find((r) => r !== undefined),
          debtor: { name: partyName(parties?.opt('Dbtr')), ...accountOf(parties?.opt('DbtrAcct')) },
          creditor: { name: partyName(parties?.opt('Cdtr')), ...accountOf(parties?.opt('CdtrAcct')) },
          returnReasonCode: tx.opt('RtrInf')?.at('Rsn/Cd'),
        });
      }
      if (everyAmountInEntryCurrency && detailSum !== entryAmt.minor) {
        throw new Iso20022Error('TOTALS_MISMATCH', `${ntry.path}: its transactions add up to ${formatMinor(detailSum, entryDecimals)} ${entryAmt.currency}, not the entry's ${formatMinor(entryAmt.minor, entryDecimals)}`);
      }
    }
    checkSummary(ntf, listed);
  }
  return { messageId: hdr.text('MsgId'), createdAt: hdr.text('CreDtTm'), movements };
}

/** "NOTPROVIDED" is the placeholder SEPA uses for an absent end-to-end id. */
function nonEmptyRef(v: string | undefined): string | undefined {
  return v && v !== 'NOTPROVIDED' ? v : undefined;
}
