import { randomBytes } from 'node:crypto';
import { bech32m } from '@scure/base';
import type { ApiClient } from './client';
import { until } from './setup';

/** A sandbox stablecoin of the bootstrap platform: mints go to its Spark wallet, burns pay out to a customer's bank account. */
export interface StablecoinWorld {
  stablecoinId: string;
  /** The platform's ACTIVE SPARK_WALLET external account (mint destination). */
  sparkWallet: string;
}

/** Token units of a 6-decimal stablecoin for `cents` of its base currency (the ledger moves the cents). */
export const tokenUnits = (cents: number) => `${cents}0000`;

/**
 * Links sandbox provider credentials, registers a token the (simulated) provider has, and adds the platform's Spark
 * wallet (docs/stablecoins.md, "What a platform does"). The secret's ending decides the sandbox provider: none of
 * the magic ones (002-004), so the link stays ACTIVE.
 */
export async function setUpStablecoin(client: ApiClient, seed: number): Promise<StablecoinWorld> {
  const link = await client.must('POST', '/stablecoin-provider-accounts', { provider: 'BRALE', apiClientId: `chaos-${seed}-client`, apiClientSecret: `chaos-${seed}-secret-ok` }, `chaos-${seed}-link`);
  // A Spark token identifier on a test network: bech32m over 32 bytes (regtest `btknrt`).
  const networkTokenIdentifier = bech32m.encode('btknrt', bech32m.toWords(randomBytes(32)), 200);
  const coin = await client.must('POST', '/stablecoins', { providerTokenIdentifier: 'CHAOSUSD', networkTokenIdentifier, network: 'SPARK', stablecoinProviderAccountId: link.id }, `chaos-${seed}-stablecoin`);
  const wallet = await client.must('POST', '/platform/external-accounts', { currency: 'BTC', accountInfo: { accountType: 'SPARK_WALLET', address: 'spark1pgssyuuuhnrrdjswal5c3s3rafw9w3y5dd4cjy3duxlf7hjzkp0rqx6dj6mrhu' } }, `chaos-${seed}-spark-wallet`);
  await until(`${wallet.id} ACTIVE`, async () => (await client.must('GET', `/platform/external-accounts/${wallet.id}`)).status === 'ACTIVE');
  return { stablecoinId: coin.id, sparkWallet: wallet.id };
}
