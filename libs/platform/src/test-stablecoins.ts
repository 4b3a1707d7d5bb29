import { randomBytes } from 'node:crypto';
import { bech32m } from '@scure/base';
import { eventually } from '@payments/testing';
import type { TestPlatform, PlatformApi } from './test-platform';

let serial = 0;
/** A fresh Idempotency-Key header (the stablecoin POSTs require one). */
export const idem = (): Record<string, string> => ({ 'Idempotency-Key': `sc-${Date.now().toString(36)}-${serial++}` });

/** A well-formed Spark token identifier: bech32m over 32 bytes, regtest (`btknrt`) unless `hrp` says otherwise. */
export const tokenIdentifier = (hrp = 'btknrt') => bech32m.encode(hrp, bech32m.toWords(randomBytes(32)), 200);

/** Token units of `cents` for a 6-decimal stablecoin, ending in `suffix` when given (the sandbox provider's magic). */
export const units = (cents: number) => `${cents}0000`;

/** Links sandbox credentials (`secret` decides the sandbox provider's answer) and returns the link. */
export async function link(t: PlatformApi, auth: string, secret = `secret-${serial++}-ok`, clientId = `client-${Date.now().toString(36)}-${serial++}`): Promise<Record<string, any>> {
  const res = await t.call('POST', '/stablecoin-provider-accounts', { auth, headers: idem(), body: { provider: 'BRALE', apiClientId: clientId, apiClientSecret: secret } });
  if (res.status !== 201) throw new Error(`link: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** Registers a token on `linkId` and returns the stablecoin. */
export async function register(t: PlatformApi, auth: string, linkId: string, valueType = `ACME${serial++}`): Promise<Record<string, any>> {
  const res = await t.call('POST', '/stablecoins', { auth, headers: idem(), body: { providerTokenIdentifier: valueType, networkTokenIdentifier: tokenIdentifier(), network: 'SPARK', stablecoinProviderAccountId: linkId } });
  if (res.status !== 201) throw new Error(`register: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** An ACTIVE platform Spark wallet external account (mint destination). */
export async function sparkWallet(t: PlatformApi, auth: string): Promise<string> {
  const res = await t.call('POST', '/platform/external-accounts', { auth, body: { currency: 'BTC', accountInfo: { accountType: 'SPARK_WALLET', address: 'spark1pgssyuuuhnrrdjswal5c3s3rafw9w3y5dd4cjy3duxlf7hjzkp0rqx6dj6mrhu' } } });
  if (res.status !== 201) throw new Error(`spark wallet: ${res.status} ${JSON.stringify(res.body)}`);
  await eventually(async () => (await t.call('GET', `/platform/external-accounts/${res.body.id}`, { auth })).body.status === 'ACTIVE', { what: `${res.body.id} ACTIVE` });
  return res.body.id;
}

/** Polls the operation until `done` holds for it. */
export function untilOperation(t: TestPlatform, id: string, done: (op: Record<string, any>) => boolean, auth?: string, timeoutMs = 15_000): Promise<Record<string, any>> {
  return eventually(async () => {
    const res = await t.call('GET', `/stablecoin-operations/${id}`, auth ? { auth } : {});
    return res.status === 200 && done(res.body) ? res.body : undefined;
  }, { what: `stablecoin operation ${id}`, timeoutMs });
}
