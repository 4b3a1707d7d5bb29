import { createHash } from 'node:crypto';
import { bech32 } from '@scure/base';
import { depositAccountFor, type Mode } from '@payments/contracts';
import { findCurrency } from '@payments/money';
import { eip55 } from '@payments/addresses';
import { ibanMod97 } from '../external-accounts/rules/checksums/iban';
import { paymentRailsOf } from '../external-accounts/rules/published-form';
import type { FundingReference } from './funding-references';

export interface PaymentInstructions {
  accountOrWalletInfo: Record<string, unknown> & { accountType: string };
  instructionsNotes?: string;
  isPlatformAccount: boolean;
}

const FBO = 'Payments Platform FBO';
const SANDBOX_BIC = 'SANDUS33XXX';

/** Deterministic digits from the account id: the same account always shows the same instructions. */
function digits(accountId: string, salt: string, length: number): string {
  const hash = createHash('sha256').update(`${salt}/${accountId}`).digest();
  let out = '';
  for (let i = 0; out.length < length; i++) out += String(hash[i % hash.length] % 10);
  return out.slice(0, length);
}

export function referenceCode(accountId: string): string {
  return `PP${createHash('sha256').update(`ref/${accountId}`).digest('hex').slice(0, 10).toUpperCase()}`;
}

/**
 * How money reaches an internal account: bank details with a reference code, or a wallet address. In the sandbox
 * these are synthetic but well-formed (valid IBAN and CLABE check digits, EIP-55 and bech32 addresses) so clients
 * can exercise their validation; sending to them moves nothing (use /sandbox/.../fund). In production they are the
 * deposit account the operator configured for the currency (rails configuration `depositAccounts`) with the
 * account's allocated reference (`funding`, FundingReferences: random and checked unique, not derived like the
 * sandbox's referenceCode): an account in a currency without a deposit account lists none.
 */
export function fundingInstructions(accountId: string, currency: string, mode: Mode, isPlatformAccount: boolean, funding?: FundingReference): PaymentInstructions[] {
  if (mode !== 'SANDBOX') return funding ? productionInstructions(currency, isPlatformAccount, funding) : [];
  const reference = referenceCode(accountId);
  // paymentRails (required by the published Payment*AccountInfo): the rails the external accounts of the type answer.
  const wrap = (info: PaymentInstructions['accountOrWalletInfo'], notes: string): PaymentInstructions[] => {
    const paymentRails = paymentRailsOf(info);
    return [{ accountOrWalletInfo: paymentRails ? { ...info, paymentRails } : info, instructionsNotes: notes, isPlatformAccount }];
  };
  const bankNotes = `Sandbox: include ${reference} in the payment reference.`;
  switch (currency) {
    case 'USD':
      return wrap({ accountType: 'USD_ACCOUNT', accountNumber: digits(accountId, 'usd', 12), routingNumber: '021000021', bankName: 'Sandbox Bank', accountHolderName: FBO, reference }, bankNotes);
    case 'EUR':
      return wrap({ accountType: 'EUR_ACCOUNT', iban: germanIban(accountId), swiftCode: 'SANDDEFFXXX', bankName: 'Sandbox Bank', accountHolderName: FBO, reference }, bankNotes);
    case 'MXN':
      return wrap({ accountType: 'MXN_ACCOUNT', clabeNumber: clabe(accountId), bankName: 'Sandbox Bank', reference }, bankNotes);
    case 'USDC':
    case 'USDT':
      return wrap({ accountType: 'BASE_WALLET', assetType: currency, address: `0x${eip55(createHash('sha256').update(`evm/${accountId}`).digest('hex').slice(0, 40))}` }, `Sandbox: send ${currency} on Base Sepolia.`);
    case 'BTC':
      return wrap({ accountType: 'BITCOIN_L1', assetType: 'BTC', address: bech32.encode('tb', [0, ...bech32.toWords(createHash('sha256').update(`btc/${accountId}`).digest().subarray(0, 20))]) }, 'Sandbox: testnet address.');
    case 'USDB':
      // USDB accounts are Embedded Wallets (Global Accounts), funded by a quote into them ("create a quote with the
      // Global Account as the destination", global-accounts/concepts.mdx) or /sandbox/.../fund; the published
      // walkthrough lists the account with `"fundingPaymentInstructions": []` (global-accounts/walkthrough.mdx).
      return [];
    default:
      if (findCurrency(currency)?.kind !== 'FIAT') return [];
      // The published PaymentSwiftAccountInfo also requires country (the BIC's) and accountHolderName.
      return wrap({ accountType: 'SWIFT_ACCOUNT', swiftCode: SANDBOX_BIC, country: SANDBOX_BIC.slice(4, 6), accountNumber: digits(accountId, currency, 14), bankName: 'Sandbox Bank', accountHolderName: FBO, currency, reference }, bankNotes);
  }
}

function germanIban(accountId: string): string {
  const bban = `37040044${digits(accountId, 'eur', 10)}`;
  const check = 98 - ibanMod97(`DE00${bban}`);
  return `DE${String(check).padStart(2, '0')}${bban}`;
}

/** CLABE: 17 digits and a weighted mod-10 check digit (weights 3, 7, 1). */
function clabe(accountId: string): string {
  const body = `002180${digits(accountId, 'mxn', 11)}`;
  const sum = [...body].reduce((s, d, i) => s + ((Number(d) * [3, 7, 1][i % 3]) % 10), 0);
  return `${body}${(10 - (sum % 10)) % 10}`;
}

/** The configured deposit account in the published shape, with the account's reference (and virtual number). */
function productionInstructions(currency: string, isPlatformAccount: boolean, funding: FundingReference): PaymentInstructions[] {
  const deposit = depositAccountFor(currency);
  if (!deposit) return [];
  const { reference } = funding;
  const base = { bankName: deposit.bankName, accountHolderName: deposit.accountHolderName, reference };
  let info: PaymentInstructions['accountOrWalletInfo'];
  let notes: string;
  if (deposit.currency === 'EUR') {
    info = { accountType: 'EUR_ACCOUNT', iban: deposit.iban!, swiftCode: deposit.bic!, ...base };
    notes = `Include ${reference} in the payment reference (remittance information): a payment without it is not credited automatically.`;
  } else {
    const accountNumber = funding.virtualAccountNumber ?? deposit.accountNumber;
    if (!accountNumber) return []; // a range used up and no FBO number to fall back to
    info = { accountType: 'USD_ACCOUNT', accountNumber, routingNumber: deposit.routingNumber!, ...base };
    notes = funding.virtualAccountNumber
      ? `Account ${accountNumber} is this account's own: payments to it are credited here (the reference ${reference} also works).`
      : `Include ${reference} in the payment reference (addenda / memo): a payment without it is not credited automatically.`;
  }
  const paymentRails = paymentRailsOf(info);
  return [{ accountOrWalletInfo: paymentRails ? { ...info, paymentRails } : info, instructionsNotes: notes, isPlatformAccount }];
}
