/**
 * Where money for production internal accounts arrives: per currency, the deployment's account at its sponsor bank
 * (docs/rails.md#deposit-accounts). Either one FBO account that every internal account shares, told apart by a
 * per-account reference code the sender puts in the payment's reference, or a range of virtual account numbers the
 * bank routes to the FBO account, one number per internal account (allocated once: accounts'
 * `funding_references`). Part of the rails configuration (RAILS_CONFIG / RAILS_CONFIG_FILE, key `depositAccounts`).
 */
export interface DepositAccountConfig {
  /** USD (a US bank account: routing and account number) or EUR (an IBAN and BIC). */
  currency: 'USD' | 'EUR';
  bankName: string;
  /** The FBO account's holder as the bank knows it ("Payments Platform FBO customers"). */
  accountHolderName: string;
  /** USD: the bank's ABA routing number and the FBO account number (absent when every account gets a virtual number). */
  routingNumber?: string;
  accountNumber?: string;
  /** EUR: the FBO account's IBAN and the bank's BIC. */
  iban?: string;
  bic?: string;
  /** USD: virtual account numbers `from`..`to` (digits, same length), one allocated per internal account. */
  virtualAccounts?: { from: string; to: string };
}

export const DEPOSIT_CURRENCIES = ['USD', 'EUR'] as const;

type Fail = (where: string, message: string) => never;

const ROUTING = /^\d{9}$/;
const ACCOUNT_NUMBER = /^\d{4,17}$/;
const IBAN = /^[A-Z]{2}\d{2}[A-Z0-9]{10,30}$/;
const BIC = /^[A-Z]{6}[A-Z0-9]{2}([A-Z0-9]{3})?$/;

const KNOWN = ['currency', 'bankName', 'accountHolderName', 'routingNumber', 'accountNumber', 'iban', 'bic', 'virtualAccounts'];

export function parseDepositAccount(v: unknown, where: string, fail: Fail): DepositAccountConfig {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return fail(where, 'must be an object');
  const o = v as Record<string, unknown>;
  const unknown = Object.keys(o).filter((k) => !KNOWN.includes(k));
  if (unknown.length > 0) fail(where, `unknown field ${unknown.join(', ')} (fields: ${KNOWN.join(', ')})`);
  const text = (key: string): string => {
    const value = o[key];
    if (typeof value !== 'string' || value.trim() === '') return fail(where, `${key} must be a non-empty string`);
    if (value.length > 70) fail(where, `${key} must be at most 70 characters`);
    return value.trim();
  };
  const absent = (...keys: string[]) => {
    for (const k of keys) if (o[k] !== undefined) fail(where, `${k} is not used for ${String(o.currency)} (a ${o.currency === 'EUR' ? 'EUR account is an iban and bic' : 'USD account is a routingNumber and accountNumber'})`);
  };
  const currency = o.currency;
  if (currency !== 'USD' && currency !== 'EUR') return fail(where, `currency must be one of ${DEPOSIT_CURRENCIES.join(', ')} (deposit accounts of other currencies are not supported), not ${JSON.stringify(currency)}`);
  const base = { currency, bankName: text('bankName'), accountHolderName: text('accountHolderName') } as const;
  if (currency === 'EUR') {
    absent('routingNumber', 'accountNumber', 'virtualAccounts');
    const iban = text('iban').replace(/\s+/g, '').toUpperCase();
    // Check digits are verified where the deployment's account rules live (accounts, at start: depositAccountProblems).
    if (!IBAN.test(iban)) fail(where, `iban "${iban}" must match ${IBAN}`);
    const bic = text('bic');
    if (!BIC.test(bic)) fail(where, `bic "${bic}" must match ${BIC}`);
    return { ...base, iban, bic };
  }
  absent('iban', 'bic');
  const routingNumber = text('routingNumber');
  if (!ROUTING.test(routingNumber)) fail(where, `routingNumber "${routingNumber}" must be 9 digits`);
  const accountNumber = o.accountNumber === undefined ? undefined : text('accountNumber');
  if (accountNumber !== undefined && !ACCOUNT_NUMBER.test(accountNumber)) fail(where, `accountNumber "${accountNumber}" must be 4 to 17 digits`);
  const virtualAccounts = o.virtualAccounts === undefined ? undefined : range(o.virtualAccounts, `${where}.virtualAccounts`, fail);
  if (!accountNumber && !virtualAccounts) fail(where, 'give accountNumber (an FBO account with reference codes) or virtualAccounts (a range of virtual account numbers)');
  return { ...base, routingNumber, ...(accountNumber ? { accountNumber } : {}), ...(virtualAccounts ? { virtualAccounts } : {}) };
}

function range(v: unknown, where: string, fail: Fail): { from: string; to: string } {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return fail(where, 'must be { "from": "…", "to": "…" }');
  const { from, to, ...rest } = v as Record<string, unknown>;
  if (Object.keys(rest).length > 0) fail(where, `unknown field ${Object.keys(rest).join(', ')} (fields: from, to)`);
  for (const [key, value] of [['from', from], ['to', to]] as const) {
    if (typeof value !== 'string' || !ACCOUNT_NUMBER.test(value)) fail(where, `${key} must be a string of 4 to 17 digits`);
  }
  const [a, b] = [from as string, to as string];
  if (a.length !== b.length) fail(where, 'from and to must have the same number of digits');
  if (BigInt(a) > BigInt(b)) fail(where, 'from must not be greater than to');
  return { from: a, to: b };
}

/** One deposit account per currency. */
export function checkDepositAccounts(accounts: DepositAccountConfig[], fail: Fail): void {
  const seen = new Set<string>();
  accounts.forEach((a, i) => {
    if (seen.has(a.currency)) fail(`depositAccounts[${i}]`, `a second deposit account for ${a.currency}: one per currency`);
    seen.add(a.currency);
  });
}
