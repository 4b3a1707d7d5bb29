import { ApiClient, basicAuth } from './client';
import { runAdmin } from './platform-process';
import type { WebhookReceiver } from './receiver';
import { configurePlatform, CustomerWorld, internalAccount, OPENING_BALANCE, setUpCustomer, until } from './setup';
import { otpLogin, SessionKey } from './wallet-client';

/** The second platform's customer: an Embedded Wallet (USDB) logged into, whose quotes the workload executes signed. */
export interface WalletWorld {
  /** Index of the customer in World.customers. */
  customer: number;
  wallet: string;
  key: SessionKey;
}

export interface CreatedPlatform {
  platformId: string;
  sandbox: { clientId: string; clientSecret: string };
  production: { clientId: string; clientSecret: string };
}

/** `npm run admin -- platform:create` against the platform's database: a second tenant and its credentials. */
export async function createPlatform(env: NodeJS.ProcessEnv, name: string): Promise<CreatedPlatform> {
  const { code, stdout, output } = await runAdmin({ ...env, LOG_LEVEL: 'silent' }, ['platform:create', '--name', name]);
  if (code !== 0) throw new Error(`platform:create exit ${code}: ${output}`);
  return JSON.parse(stdout);
}

/**
 * The second platform (another tenant: the workload's money must never cross platforms) as a USDB platform, so its
 * customer gets an Embedded Wallet; that customer's USD account and external accounts, the wallet funded, and a
 * wallet session from an OTP login.
 */
export async function setUpSecondPlatform(origin: string, created: CreatedPlatform, receiver: WebhookReceiver, index: number): Promise<{ client: ApiClient; customer: CustomerWorld; wallet: WalletWorld }> {
  const client = new ApiClient(origin, basicAuth(created.sandbox.clientId, created.sandbox.clientSecret));
  // The gateway learns new credentials from identity's events: the first calls may be 401 for a moment.
  await until('the second platform credentials', async () => (await client.send('GET', '/config')).status === 200);
  await configurePlatform(client, receiver, 'other', ['USD', 'USDB']);
  const customer = await setUpCustomer(client, 'other', index, { eur: false, suffixes: ['789', '002', '005'] });
  const wallet = await internalAccount(client, customer.id, 'USDB', 'EMBEDDED_WALLET');
  await client.must('POST', `/sandbox/internal-accounts/${wallet}/fund`, { amount: OPENING_BALANCE });
  const credential = await until('the wallet credential', async () => (await client.must('GET', `/auth/credentials?accountId=${encodeURIComponent(wallet)}`)).data?.[0] as { id: string } | undefined);
  const key = await otpLogin(client, credential.id);
  return { client, customer, wallet: { customer: index, wallet, key } };
}
