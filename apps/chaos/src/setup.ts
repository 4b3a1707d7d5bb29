import { ApiClient } from './client';
import { sleep } from './platform-process';
import type { ProductionWorld } from './production';
import { WebhookReceiver } from './receiver';
import type { CardWorld } from './setup-cards';
import type { AgentWorld } from './setup-agents';
import type { StablecoinWorld } from './setup-stablecoins';
import type { WalletWorld } from './setup-wallets';

/**
 * Sandbox suffixes (last 3 digits of the account's identifier) and what the rails do with them (docs/payments.md):
 * payouts 002 fail, 003 complete late, 004 fail, 005 complete then return, 006 fail with a refund, 007 fail into
 * SUSPENSE; pulls 002/003 fail at once, 004 fails, 005 stays pending then fails; anything else succeeds ('789').
 */
export const PAYOUT_SUFFIXES = ['789', '002', '003', '004', '005', '006', '007'] as const;
export const PULL_SUFFIXES = ['789', '002', '003', '004', '005'] as const;
export const EUR_SUFFIXES = ['789', '002', '005'] as const;
/** Customers of the bootstrap sandbox platform ('sandbox'); one more belongs to the second platform ('other'). */
export const CUSTOMERS = 3;
/** Opening balance of every customer's USD and EUR account: large, so only the rails decide outcomes. */
export const OPENING_BALANCE = 5_000_000_000;
/** The sender of every sandbox UMA payment (any address outside the sandbox domain). */
export const UMA_SENDER = '$sender@other-vasp.example';

/** Which credentials an operation goes with: the bootstrap platform's sandbox or production, the second platform, an agent. */
export type ClientName = 'sandbox' | 'production' | 'other' | 'agent';

export interface CustomerWorld {
  id: string;
  /** The platform the customer belongs to. */
  client: 'sandbox' | 'other';
  usd: string;
  eur?: string;
  umaAddress: string;
  /** External accounts by sandbox suffix. */
  usdExternal: Record<string, string>;
  eurExternal: Record<string, string>;
}

export interface World {
  /** 0..CUSTOMERS-1 on the bootstrap platform, then the second platform's customer. */
  customers: CustomerWorld[];
  /** The production customer (production.ts). */
  production: ProductionWorld;
  cards: CardWorld;
  agent: AgentWorld;
  stablecoin: StablecoinWorld;
  wallet: WalletWorld;
}

export const currency = (code: string) => ({ currencyCode: code, minAmount: 1, maxAmount: 100_000_000_000, requiredCounterpartyFields: [], enabledTransactionTypes: ['INCOMING', 'OUTGOING'] });
export const ADDRESS = { line1: '1 Main St', city: 'Springfield', state: 'IL', postalCode: '62701', country: 'US' };
const NAMES = ['Ada Lovelace', 'Grace Hopper', 'Edsger Dijkstra', 'Barbara Liskov'];

/** A platform's webhook endpoint and currencies; resolves once the TEST webhook proves the dispatcher knows the endpoint. */
export async function configurePlatform(client: ApiClient, receiver: WebhookReceiver, name: string, currencies: string[]): Promise<void> {
  const url = receiver.url(name);
  await client.must('PATCH', '/config', { webhookEndpoint: url, supportedCurrencies: currencies.map(currency) });
  await until(`the TEST webhook of ${name}`, async () => receiver.received.some((w) => w.type === 'TEST' && url.endsWith(w.path)));
}

/** The platform before the workload: webhook endpoint, customers (KYC approved), their funded accounts and external accounts. */
export async function setUpCustomers(client: ApiClient, receiver: WebhookReceiver): Promise<CustomerWorld[]> {
  await configurePlatform(client, receiver, 'sandbox', ['USD', 'EUR']);
  return Promise.all(Array.from({ length: CUSTOMERS }, (_, c) => setUpCustomer(client, 'sandbox', c, { eur: true, suffixes: PAYOUT_SUFFIXES })));
}

/**
 * One customer: created with a full profile and verified (the sandbox approves a name without a magic suffix: cards
 * and agents need an APPROVED customer), its USD (and EUR) accounts funded, external accounts with the sandbox
 * suffixes, all ACTIVE.
 */
export async function setUpCustomer(client: ApiClient, platform: CustomerWorld['client'], c: number, options: { eur: boolean; suffixes: readonly string[] }): Promise<CustomerWorld> {
  const umaAddress = `$chaos.${platform}.${c}@chaos.example`;
  const fullName = NAMES[c % NAMES.length];
  const customer = await client.must('POST', '/customers', { customerType: 'INDIVIDUAL', platformCustomerId: `chaos-${platform}-${c}`, fullName, birthDate: '1990-12-10', nationality: 'US', address: ADDRESS, umaAddress, email: `chaos-${platform}-${c}@example.com` });
  await client.must('POST', '/verifications', { customerId: customer.id });
  const usd = await internalAccount(client, customer.id, 'USD');
  const eur = options.eur ? await internalAccount(client, customer.id, 'EUR') : undefined;
  await client.must('POST', `/sandbox/internal-accounts/${usd}/fund`, { amount: OPENING_BALANCE });
  if (eur) await client.must('POST', `/sandbox/internal-accounts/${eur}/fund`, { amount: OPENING_BALANCE });
  const beneficiary = { beneficiaryType: 'INDIVIDUAL', fullName, address: ADDRESS };
  const external = async (currencyCode: string, accountInfo: Record<string, unknown>) => (await client.must('POST', '/customers/external-accounts', { customerId: customer.id, currency: currencyCode, accountInfo })).id as string;
  const prefix = platform === 'sandbox' ? '44' : '55';
  const usdExternal: Record<string, string> = {};
  const eurExternal: Record<string, string> = {};
  await Promise.all([
    ...options.suffixes.map(async (suffix) => {
      usdExternal[suffix] = await external('USD', { accountType: 'USD_ACCOUNT', accountNumber: `${prefix}${c}0123${suffix}`, routingNumber: '021000021', bankAccountType: 'CHECKING', bankName: 'Chaos Bank', beneficiary });
    }),
    ...(options.eur ? EUR_SUFFIXES : []).map(async (suffix) => {
      eurExternal[suffix] = await external('EUR', { accountType: 'EUR_ACCOUNT', iban: germanIban(`37040044`, `05320${c}0${suffix}`), beneficiary });
    }),
  ]);
  // Only ACTIVE accounts receive; the sandbox verification timer activates them (2 s × SANDBOX_TIME_SCALE).
  await Promise.all([...Object.values(usdExternal), ...Object.values(eurExternal)].map((id) => until(`external account ${id} ACTIVE`, async () => (await client.must('GET', `/customers/external-accounts/${id}`)).status === 'ACTIVE')));
  await until(`KYC of ${customer.id}`, async () => (await client.must('GET', `/customers/${customer.id}`)).kycStatus === 'APPROVED');
  return { id: customer.id, client: platform, usd, eur, umaAddress, usdExternal, eurExternal };
}

/** The customer's internal account in `code` (opened by accounts from identity's CustomerCreated). */
export function internalAccount(client: ApiClient, customerId: string, code: string, type?: string): Promise<string> {
  return until(`${type ?? code} account of ${customerId}`, async () => {
    const page = await client.must('GET', `/customers/internal-accounts?customerId=${encodeURIComponent(customerId)}&${type ? `type=${type}` : `currency=${code}`}`);
    return page.data?.[0]?.id as string | undefined;
  });
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
