import { ApiError, CallerContext, CardFundingSourceRef, EMBEDDED_WALLET_CONFIG_DEFAULTS, WALLET_AUTH_EVENTS, WalletSignatureHeaders } from '@payments/contracts';
import type { EventBus } from '@payments/messaging';
import { ServiceHost, UnconfiguredContactCodeSender } from '@payments/runtime';
import { createTestDatabase, TestDatabase, turnkeyCrypto, walletStamp } from '@payments/testing';
import { generateP256KeyPair, parseStamp, verifyStamp } from '@payments/wallet-crypto';
import type { WalletDirectory } from '../directory/wallet-directory';
import { WalletServerKeys } from '../keys/server-keys';
import { SignedRequests } from '../signed-retry/signed-requests';
import { WALLET_AUTH_DEFAULTS } from '../wallet-auth';
import { walletAuthMigrations } from '../wallet-auth.migrations';
import { WalletContext } from '../wallets/wallet-context';
import { WalletStore } from '../wallets/wallet-store';
import { DelegatedKeyOperations } from './delegated-key-operations';

type Key = { publicKeyCompressed: string; privateKeyHex: string };
const clientKey = (): Key => {
  const pair = generateP256KeyPair();
  return { publicKeyCompressed: pair.publicKeyCompressed, privateKeyHex: Buffer.from(pair.privateKey).toString('hex') };
};
const caller = (platformId: string, mode: 'SANDBOX' | 'PRODUCTION' = 'SANDBOX'): CallerContext => ({ platformId, mode, clientId: 'test', permissions: ['VIEW', 'TRANSACT'] });
const now = () => new Date().toISOString();

/** The code of the ApiError or DomainError the call rejects with. */
async function codeOf(call: Promise<unknown>): Promise<string> {
  try {
    await call;
  } catch (error) {
    return (error as ApiError).code;
  }
  throw new Error('expected a refusal, the call succeeded');
}

/**
 * The delegated-key operations over real PostgreSQL (event store, inline projection, read model) with the published
 * stamper signing the legs; accounts, identity and cards are a fake directory (the HTTP suite is
 * libs/platform/src/delegated-keys.e2e.spec.ts).
 */
describe('delegated keys (real PostgreSQL, published stamper)', () => {
  let database: TestDatabase;
  let host: ServiceHost;
  let keys: WalletServerKeys;
  let store: WalletStore;
  let ctx: WalletContext;
  let ops: DelegatedKeyOperations;
  /** accountId → its platform; funding sources by `cardId|accountId`. */
  const accounts = new Map<string, string>();
  const sources = new Map<string, CardFundingSourceRef>();

  const directory = {
    owner: async (who: CallerContext, accountId: string) => {
      if (accounts.get(accountId) !== who.platformId || who.mode !== 'SANDBOX') throw new ApiError('REFERENCE_NOT_FOUND', 'no Embedded Wallet internal account with this id');
      return { accountId, customerId: `Customer:${accountId}`, email: `${accountId}@example.com` };
    },
    walletConfig: async () => EMBEDDED_WALLET_CONFIG_DEFAULTS,
    fundingSource: async (who: CallerContext, cardId: string, accountId: string) => {
      const source = sources.get(`${cardId}|${accountId}`);
      if (!source || accounts.get(accountId) !== who.platformId || who.mode !== 'SANDBOX') throw new ApiError('CARD_NOT_FOUND', 'card not found');
      return source;
    },
    close: async () => undefined,
  } as unknown as WalletDirectory;

  beforeAll(async () => {
    database = await createTestDatabase();
    host = await ServiceHost.open({
      name: 'wallet_auth', databaseUrl: database.url, bus: {} as EventBus, topic: 'payments.wallet-auth.events.v1', migrations: [walletAuthMigrations], entities: [], sandboxTimeScale: 1, events: WALLET_AUTH_EVENTS,
    });
    keys = new WalletServerKeys(Buffer.alloc(32, 7));
    store = new WalletStore(host.dataSource, host.store, host.executor, directory, keys);
    ctx = new WalletContext(store, keys, new UnconfiguredContactCodeSender(), WALLET_AUTH_DEFAULTS);
    ops = new DelegatedKeyOperations(ctx, host.dataSource);
  });
  afterAll(async () => {
    await host?.dataSource.destroy();
    await database?.drop();
  });

  let serial = 0;
  /** A wallet of `platformId` with a live session (its key), funding a new card. */
  async function walletFundingCard(platformId = 'Platform:1'): Promise<{ accountId: string; cardId: string; fundingSourceId: string; session: Key; who: CallerContext }> {
    serial += 1;
    const accountId = `InternalAccount:${serial}-${platformId}`;
    const cardId = `Card:${serial}`;
    const fundingSourceId = `CardFundingSource:${serial}`;
    accounts.set(accountId, platformId);
    sources.set(`${cardId}|${accountId}`, { fundingSourceId, cardId, accountId, cardholderId: `Customer:${accountId}`, embeddedWallet: true });
    const who = caller(platformId);
    const wallet = await store.ofAccount(who, accountId, now());
    const session = clientKey();
    await ctx.openSession(who, wallet, { credentialId: wallet.credentials[0].id, type: 'EMAIL_OTP', clientPublicKey: session.publicKeyCompressed }, now());
    return { accountId, cardId, fundingSourceId, session, who };
  }

  const bodyOf = (w: { cardId: string; accountId: string }, nickname = 'card pulls') => ({ cardId: w.cardId, internalAccountId: w.accountId, nickname });
  const leg = (who: CallerContext, body: object, signature: WalletSignatureHeaders = {}) => ops.create(who, { ...(body as { cardId: string; internalAccountId: string; nickname: string }), signature }, now());
  const signedBy = async (key: Key, challenge: { payloadToSign: string; requestId: string }): Promise<WalletSignatureHeaders> => ({ walletSignature: await walletStamp(key, challenge.payloadToSign), requestId: challenge.requestId });

  /** The three legs, each retry signed by `key`. */
  async function createKey(w: Awaited<ReturnType<typeof walletFundingCard>>, body = bodyOf(w)) {
    const first = await leg(w.who, body);
    if (!first.challenge) throw new Error('leg 1 did not answer a challenge');
    const second = await leg(w.who, body, await signedBy(w.session, first.challenge));
    if (!second.challenge) throw new Error('leg 2 did not answer a challenge');
    const third = await leg(w.who, body, await signedBy(w.session, second.challenge));
    if (!third.result) throw new Error('leg 3 did not answer the key');
    return { first: first.challenge, second: second.challenge, key: third.result };
  }

  it('three legs: 202, 202 (a new challenge showing the new public key), then the key ACTIVE', async () => {
    const w = await walletFundingCard();
    const { first, second, key } = await createKey(w);
    expect(second.requestId).not.toBe(first.requestId);
    expect(key).toEqual({
      id: expect.stringMatching(/^DelegatedKey:[0-9a-f-]{36}$/), cardId: w.cardId, fundingSourceId: w.fundingSourceId, accountId: w.accountId,
      publicKey: expect.stringMatching(/^0[23][0-9a-f]{64}$/), nickname: 'card pulls', status: 'ACTIVE', createdAt: expect.any(String), updatedAt: expect.any(String),
    });
    expect(JSON.parse(second.payloadToSign)).toMatchObject({ type: 'ACTIVITY_TYPE_CREATE_API_KEYS_V2', parameters: { apiKeys: [{ publicKey: key.publicKey }], delegatedKeyId: key.id, fundingSourceId: w.fundingSourceId } });
    expect(await ops.get(w.who, key.id)).toEqual(key);
    expect(await ops.list(w.who, { accountId: w.accountId })).toEqual({ data: [key] });
    expect(await ops.list(w.who, { fundingSourceId: w.fundingSourceId })).toEqual({ data: [key] });
    expect(await ops.list(w.who, { accountId: w.accountId, fundingSourceId: w.fundingSourceId })).toEqual({ data: [key] });
    expect(await ops.list(w.who, { accountId: w.accountId, fundingSourceId: 'CardFundingSource:other' })).toEqual({ data: [] });
    expect(await codeOf(ops.list(w.who, {}))).toBe('INVALID_INPUT');
    // Only one ACTIVE key per funding source: the next creation is refused at leg 1.
    expect(await codeOf(leg(w.who, bodyOf(w, 'another')))).toBe('DELEGATED_KEY_EXISTS');
  });

  it('signs for cards with the ACTIVE key (a stamp the published verifier accepts) until it is revoked', async () => {
    const w = await walletFundingCard();
    const { key } = await createKey(w);
    const payload = JSON.stringify({ cardTransactionId: 'CardTransaction:1', amount: 1234, accountId: w.accountId });
    const signed = await ops.sign(w.who, { accountId: w.accountId, fundingSourceId: w.fundingSourceId, payload });
    expect(signed.delegatedKeyId).toBe(key.id);
    const parsed = parseStamp(signed.stamp);
    if (!parsed.ok) throw new Error(parsed.reason);
    expect(parsed.stamp.publicKey).toBe(key.publicKey);
    expect(verifyStamp(parsed.stamp, payload)).toBe(true);
    const json = JSON.parse(Buffer.from(signed.stamp, 'base64url').toString('utf8'));
    await expect(turnkeyCrypto.verifyStampSignature(json.publicKey, json.signature, payload)).resolves.toBe(true);
    // Another tenant, another funding source: nothing signs.
    expect(await codeOf(ops.sign(caller('Platform:other'), { accountId: w.accountId, fundingSourceId: w.fundingSourceId, payload }))).toBe('DELEGATED_KEY_NOT_FOUND');
    expect(await codeOf(ops.sign(w.who, { accountId: w.accountId, fundingSourceId: 'CardFundingSource:other', payload }))).toBe('DELEGATED_KEY_NOT_FOUND');

    expect(await ops.revoke(w.who, key.id, now())).toBeNull();
    expect(await codeOf(ops.sign(w.who, { accountId: w.accountId, fundingSourceId: w.fundingSourceId, payload }))).toBe('DELEGATED_KEY_NOT_FOUND');
    expect(await ops.get(w.who, key.id)).toMatchObject({ id: key.id, status: 'REVOKED' });
    expect(await codeOf(ops.revoke(w.who, key.id, now()))).toBe('DELEGATED_KEY_NOT_ACTIVE');
    // The funding source is free again.
    const next = await createKey(w, bodyOf(w, 'second key'));
    expect(next.key.publicKey).not.toBe(key.publicKey);
    expect((await ops.list(w.who, { fundingSourceId: w.fundingSourceId })).data.map((k) => [k.id, k.status])).toEqual([[key.id, 'REVOKED'], [next.key.id, 'ACTIVE']]);
  });

  it('a flow abandoned after leg 2 leaves a PENDING key that cannot sign or be revoked, and does not block a new one', async () => {
    const w = await walletFundingCard();
    const body = bodyOf(w, 'abandoned');
    const first = await leg(w.who, body);
    await leg(w.who, body, await signedBy(w.session, first.challenge!));
    const [pending] = (await ops.list(w.who, { accountId: w.accountId })).data;
    expect(pending).toMatchObject({ status: 'PENDING', nickname: 'abandoned', publicKey: expect.stringMatching(/^0[23][0-9a-f]{64}$/) });
    expect(await codeOf(ops.sign(w.who, { accountId: w.accountId, fundingSourceId: w.fundingSourceId, payload: 'x' }))).toBe('DELEGATED_KEY_NOT_FOUND');
    expect(await codeOf(ops.revoke(w.who, pending.id, now()))).toBe('DELEGATED_KEY_NOT_ACTIVE');
    const { key } = await createKey(w);
    expect((await ops.list(w.who, { accountId: w.accountId })).data.map((k) => [k.id, k.status])).toEqual([[pending.id, 'PENDING'], [key.id, 'ACTIVE']]);
  });

  it('re-checks one ACTIVE key at leg 3: of two flows past leg 2, the second to finish is 409', async () => {
    const w = await walletFundingCard();
    const body = bodyOf(w);
    const a1 = await leg(w.who, body);
    const b1 = await leg(w.who, body);
    const a2 = await leg(w.who, body, await signedBy(w.session, a1.challenge!));
    const b2 = await leg(w.who, body, await signedBy(w.session, b1.challenge!));
    expect((await leg(w.who, body, await signedBy(w.session, a2.challenge!))).result?.status).toBe('ACTIVE');
    expect(await codeOf(leg(w.who, body, await signedBy(w.session, b2.challenge!)))).toBe('DELEGATED_KEY_EXISTS');
    expect((await ops.list(w.who, { fundingSourceId: w.fundingSourceId })).data.map((k) => k.status)).toEqual(['ACTIVE', 'PENDING']);
  });

  it('refuses each bad retry with the signed-retry codes, without using the challenge up', async () => {
    const w = await walletFundingCard();
    const other = await walletFundingCard(); // a session of another wallet
    const body = bodyOf(w);
    const first = (await leg(w.who, body)).challenge!;
    const good = await signedBy(w.session, first);
    expect(await codeOf(leg(w.who, body, { requestId: first.requestId }))).toBe('WALLET_SIGNATURE_MISSING');
    expect(await codeOf(leg(w.who, body, { walletSignature: good.walletSignature }))).toBe('REQUEST_ID_MISSING');
    expect(await codeOf(leg(w.who, body, { walletSignature: 'not-a-stamp!', requestId: first.requestId }))).toBe('WALLET_SIGNATURE_MALFORMED');
    expect(await codeOf(leg(w.who, body, { ...good, requestId: 'Request:00000000-0000-0000-0000-000000000000' }))).toBe('UNAUTHORIZED');
    expect(await codeOf(leg(w.who, { ...body, nickname: 'changed' }, good))).toBe('WALLET_SIGNATURE_BODY_MISMATCH');
    expect(await codeOf(leg(w.who, body, await signedBy(other.session, first)))).toBe('WALLET_SIGNATURE_INVALID');
    const second = (await leg(w.who, body, good)).challenge!;
    expect(await codeOf(leg(w.who, body, good))).toBe('UNAUTHORIZED'); // leg 2 answers once
    expect(await codeOf(leg(w.who, { ...body, nickname: 'changed' }, await signedBy(w.session, second)))).toBe('WALLET_SIGNATURE_BODY_MISMATCH');
    expect(await codeOf(leg(w.who, body, await signedBy(other.session, second)))).toBe('WALLET_SIGNATURE_INVALID');
    const third = await leg(w.who, body, await signedBy(w.session, second));
    expect(third.result?.status).toBe('ACTIVE');
  });

  it("answers 404 for another tenant's card, account or key, and lists nothing of it", async () => {
    const w = await walletFundingCard();
    const { key } = await createKey(w);
    const stranger = caller('Platform:stranger');
    expect(await codeOf(leg(stranger, bodyOf(w)))).toBe('CARD_NOT_FOUND');
    expect(await codeOf(ops.get(stranger, key.id))).toBe('DELEGATED_KEY_NOT_FOUND');
    expect(await codeOf(ops.get(caller('Platform:1', 'PRODUCTION'), key.id))).toBe('DELEGATED_KEY_NOT_FOUND');
    expect(await codeOf(ops.revoke(stranger, key.id, now()))).toBe('DELEGATED_KEY_NOT_FOUND');
    expect(await ops.list(stranger, { accountId: w.accountId })).toEqual({ data: [] });
    expect(await ops.list(stranger, { fundingSourceId: w.fundingSourceId })).toEqual({ data: [] });
    expect(await codeOf(ops.get(w.who, 'DelegatedKey:00000000-0000-0000-0000-000000000000'))).toBe('DELEGATED_KEY_NOT_FOUND');
    expect((await ops.get(w.who, key.id)).status).toBe('ACTIVE');
  });

  it('keeps the private key sealed: never in the read model nor in clear in the events', async () => {
    const w = await walletFundingCard();
    const { key } = await createKey(w);
    const wallet = await store.existing(w.who, w.accountId);
    const sealed = wallet!.delegatedKeys.find((k) => k.id === key.id)!.sealedPrivateKey!;
    const privateKeyHex = store.openDelegatedKey(w.accountId, key.id, sealed);
    expect(privateKeyHex).toMatch(/^[0-9a-f]{64}$/);
    const events = await host.dataSource.query(`SELECT data::text AS data FROM events WHERE stream_id = $1`, [`EmbeddedWallet:${w.accountId}`]);
    expect(events.some((e: { data: string }) => e.data.includes(sealed))).toBe(true);
    expect(events.some((e: { data: string }) => e.data.includes(privateKeyHex))).toBe(false);
    const rows = await host.dataSource.query(`SELECT row_to_json(d)::text AS row FROM delegated_keys d WHERE id = $1`, [key.id]);
    expect(rows[0].row).not.toContain(sealed);
    expect(rows[0].row).not.toContain(privateKeyHex);
    // Sealed to its wallet and key: another context does not open it.
    expect(() => store.openDelegatedKey(w.accountId, 'DelegatedKey:other', sealed)).toThrow();
  });

  it('authorizes UPDATE_CARD signed requests of cards like UPDATE_INTERNAL_ACCOUNT', async () => {
    const w = await walletFundingCard();
    const requests = new SignedRequests(ctx);
    const body = { accountId: w.accountId, operation: 'UPDATE_CARD' as const, target: w.cardId, request: { state: 'FROZEN' }, activity: 'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2', parameters: { payload: 'ab' } };
    const first = await requests.authorize(w.who, { ...body, signature: {} }, now());
    const signed = await requests.authorize(w.who, { ...body, signature: await signedBy(w.session, first.challenge!) }, now());
    expect(signed.result?.sessionId).toMatch(/^Session:/);
    expect(await codeOf(requests.authorize(w.who, { ...body, signature: await signedBy(w.session, first.challenge!) }, now()))).toBe('UNAUTHORIZED');
  });
});
