import { eventually, walletStamp } from '@payments/testing';
import { individualBody, verificationReaches } from './test-kyc';
import type { HttpResult } from '@payments/testing';
import type { TestPlatform } from './test-platform';
import { ClientKey, otpLogin } from './test-wallet';

/**
 * A KYC-approved customer, its Embedded Wallet (the platform must support USDB: enableWallets), a live session of it,
 * and a virtual card funded by that wallet.
 */
export async function walletFundedCard(t: TestPlatform, auth = t.tenant.sandbox): Promise<{ customerId: string; accountId: string; cardId: string; key: ClientKey }> {
  const created = await t.call('POST', '/customers', { auth, body: individualBody('Ada Lovelace', { email: `card-${Math.random().toString(36).slice(2)}@example.com` }) });
  expect(created.status).toBe(201);
  const customerId = created.body.id as string;
  const verification = await t.call('POST', '/verifications', { auth, body: { customerId } });
  expect(verification.status).toBe(200);
  await verificationReaches(t, verification.body.id, 'APPROVED', auth);
  const accountId = await eventually(
    async () => (await t.call('GET', `/customers/internal-accounts?customerId=${encodeURIComponent(customerId)}&type=EMBEDDED_WALLET`, { auth })).body.data?.[0]?.id as string | undefined,
    { what: `Embedded Wallet of ${customerId}` },
  );
  const [credential] = (await t.call('GET', `/auth/credentials?accountId=${encodeURIComponent(accountId)}`, { auth })).body.data;
  const { key } = await otpLogin(t, credential.id, { auth });
  const card = await t.call('POST', '/cards', { auth, body: { cardholderId: customerId, form: 'VIRTUAL', fundingSources: [accountId], platformCardId: `wallet-card-${Math.random().toString(36).slice(2, 8)}x` } });
  if (card.status !== 201) throw new Error(`POST /cards: ${card.status} ${JSON.stringify(card.body)}`);
  return { customerId, accountId, cardId: card.body.id as string, key };
}

/** All three legs of POST /auth/delegated-keys with `body`, each retry stamped by `key`. */
export async function delegatedKeyLegs(t: TestPlatform, body: object, key: ClientKey, auth = t.tenant.sandbox): Promise<{ first: HttpResult<any>; second: HttpResult<any>; final: HttpResult<any> }> {
  const first = await t.call('POST', '/auth/delegated-keys', { auth, body });
  if (first.status !== 202) return { first, second: first, final: first };
  const second = await t.call('POST', '/auth/delegated-keys', { auth, body, headers: { 'Service-Wallet-Signature': await walletStamp(key, first.body.payloadToSign), 'Request-Id': first.body.requestId } });
  if (second.status !== 202) return { first, second, final: second };
  const final = await t.call('POST', '/auth/delegated-keys', { auth, body, headers: { 'Service-Wallet-Signature': await walletStamp(key, second.body.payloadToSign), 'Request-Id': second.body.requestId } });
  return { first, second, final };
}
