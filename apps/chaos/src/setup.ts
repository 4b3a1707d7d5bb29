import { ApiClient } from './client';
import { sleep } from './platform-process';
import type { ProductionWorld } from './production';
import { WebhookReceiver } from './receiver';

/**
 * Sandbox suffixes (last 3 digits of the account's identifier) and what the rails do with them (docs/payments.md):
 * payouts 002 fail, 003 complete late, 004 fail, 005 complete then return, 006 fail with a refund, 007 fail into
 * SUSPENSE; pulls 002/003 fail at once, 004 fails, 005 stays pending then fails; anything else succeeds ('789').
 */
export const PAYOUT_SUFFIXES = ['789', '002', '003', '004', '005', '006', '007'] as const;
export const PULL_SUFFIXES = ['789', '002', '003', '004', '005'] as const;
export const EUR_SUFFIXES = ['789', '002', '005'] as const;
export const CUSTOMERS = 3;
/** Opening balance of every customer's USD account: large, so only the rails decide outcomes. */
export const OPENING_BALANCE = 5_000_000_000;

export interface CustomerWorld {
  id: string;
  usd: string;
  eur: string;
  /** External accounts by sandbox suffix. */
  usdExternal: Record<string, string>;
  eurExternal: Record<string, string>;
}

export interface World {
  customers: CustomerWorld[];
  /** The production customer (production.ts), set up after the sandbox ones. */
  production: ProductionWorld;
}

const currency = (code: string) => ({ currencyCode: code, minAmount: 1, maxAmount: 100_000_000_000, requiredCounterpartyFields: [], enabledTransactionTypes: ['INCOMING', 'OUTGOING'] });
const address = { line1: '1 Main St', city: 'Springfield', postalCode: '12345', country: 'US' };
const NAMES = ['Ada Lovelace', 'Grace Hopper', 'Edsger Dijkstra', 'Barbara Liskov'];

/** The platform before the workload: webhook endpoint, customers, their accounts, funds and external accounts. */
export async function setUpWorld(client: ApiClient, receiver: WebhookReceiver): Promise<Omit<World, 'production'>> {
  await client.must('PATCH', '/config', { webhookEndpoint: receiver.url, supportedCurrencies: [currency('USD'), currency('EUR')] });
  // The TEST webhook proves the dispatcher knows the endpoint: events from now on are queued for it.
  await until('the TEST webhook', async () => receiver.received.some((w) => w.type === 'TEST'));

  const customers: CustomerWorld[] = [];
  for (let c = 0; c < CUSTOMERS; c++) {
    const customer = await client.must('POST', '/customers', { customerType: 'INDIVIDUAL', fullName: NAMES[c % NAMES.length], region: 'US' });
    const internal = (code: string) =>
      until(`${code} account of ${customer.id}`, async () => {
        const page = await client.must('GET', `/customers/internal-accounts?customerId=${encodeURIComponent(customer.id)}&currency=${code}`);
        return page.data?.[0]?.id as string | undefined;
      });
    const usd = await internal('USD');
    const eur = await internal('EUR');
    await client.must('POST', `/sandbox/internal-accounts/${usd}/fund`, { amount: OPENING_BALANCE });
    const beneficiary = { beneficiaryType: 'INDIVIDUAL', fullName: NAMES[c % NAMES.length], address };
    const usdExternal: Record<string, string> = {};
    for (const suffix of PAYOUT_SUFFIXES) {
      const accountInfo = { accountType: 'USD_ACCOUNT', accountNumber: `44${c}0123${suffix}`, routingNumber: '021000021', bankAccountType: 'CHECKING', bankName: 'Chaos Bank', beneficiary };
      usdExternal[suffix] = (await client.must('POST', '/customers/external-accounts', { customerId: customer.id, currency: 'USD', accountInfo })).id;
    }
    const eurExternal: Record<string, string> = {};
    for (const suffix of EUR_SUFFIXES) {
      const accountInfo = { accountType: 'EUR_ACCOUNT', iban: germanIban(`37040044`, `05320${c}0${suffix}`), beneficiary };
      eurExternal[suffix] = (await client.must('POST', '/customers/external-accounts', { customerId: customer.id, currency: 'EUR', accountInfo })).id;
    }
    customers.push({ id: customer.id, usd, eur, usdExternal, eurExternal });
  }
  // Only ACTIVE accounts receive; the sandbox verification timer activates them (2 s × SANDBOX_TIME_SCALE).
  for (const customer of customers) {
    for (const id of [...Object.values(customer.usdExternal), ...Object.values(customer.eurExternal)]) {
      await until(`external account ${id} ACTIVE`, async () => (await client.must('GET', `/customers/external-accounts/${id}`)).status === 'ACTIVE');
    }
  }
  return { customers };
}

/** DE + MOD 97-10 check digits + bank code (8) + account (10): the last three digits are the sandbox suffix. */
export function germanIban(bankCode: string, account: string): string {
  const bban = `${bankCode}${account}`;
  const numeric = `${bban}131400`; // "DE00" moved to the end, letters as numbers (D=13, E=14)
  let rest = 0;
  for (const digit of numeric) rest = (rest * 10 + Number(digit)) % 97;
  return `DE${String(98 - rest).padStart(2, '0')}${bban}`;
}

export async function until<T>(what: string, probe: () => Promise<T | undefined | false>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}
