import { createHash } from 'node:crypto';
import { ApiError, canonicalJson, type Mode, type WalletSignatureHeaders } from '@payments/contracts';
import { fold } from '@payments/eventsourcing';
import { walletStamp } from '@payments/testing';
import { generateP256KeyPair, type P256KeyPair } from '@payments/wallet-crypto';
import { walletDecider } from '../wallets/wallet.decider';
import type { ChallengeSigner, CredentialRecord, PendingChallenge, SessionRecord, WalletEvent, WalletOperation } from '../wallets/wallet.events';
import type { ActiveWallet } from '../wallets/wallet.state';
import { activityPayload, bodySha256, checkSignedRetry, SANDBOX_SIGNATURE, type SignedRequest } from './signed-retry';

const T0 = Date.parse('2025-01-01T00:00:00.000Z');
const at = (seconds: number): string => new Date(T0 + seconds * 1000).toISOString();
const NOW = at(60);

const email: CredentialRecord = { id: 'AuthMethod:email', type: 'EMAIL_OTP', nickname: 'ada@example.com', contact: 'ada@example.com', createdAt: at(0) };
const passkey: CredentialRecord = {
  id: 'AuthMethod:pk', type: 'PASSKEY', nickname: 'laptop', passkey: { credentialId: 'cred-A', publicKey: 'pk', counter: 0, transports: [], registrationChallenge: 'rc-A' }, createdAt: at(0),
};

const k1 = generateP256KeyPair(); // Session:1, of the EMAIL_OTP credential
const k2 = generateP256KeyPair(); // Session:2, of the PASSKEY credential
const kShort = generateP256KeyPair(); // Session:short, expired by NOW
const kStranger = generateP256KeyPair(); // no session of this wallet
const tek = generateP256KeyPair(); // the key a KEY challenge names

const session = (id: string, credential: CredentialRecord, key: P256KeyPair, openedAt: number, ttlSeconds = 3600): SessionRecord => ({
  id, credentialId: credential.id, type: credential.type, publicKey: key.publicKeyCompressed, createdAt: at(openedAt), expiresAt: at(openedAt + ttlSeconds),
});
const s1 = session('Session:1', email, k1, 10);
const s2 = session('Session:2', passkey, k2, 11);
const sShort = session('Session:short', email, kShort, 12, 40); // expires at(52)

const body = { type: 'PASSKEY', nickname: 'laptop', challenge: 'rc-B', attestation: { clientDataJson: 'cdj', attestationObject: 'ao', transports: ['internal', 'hybrid'] } };
const create: SignedRequest = { operation: 'CREATE_CREDENTIAL', target: null, body };

function challenge(requestId: string, request: SignedRequest, signer: ChallengeSigner = { kind: 'SESSION' }): PendingChallenge {
  const sha = bodySha256(request.body);
  return {
    requestId, operation: request.operation, target: request.target, bodySha256: sha, signer, createdAt: at(20), expiresAt: at(320),
    payloadToSign: activityPayload({ activity: 'ACTIVITY_TYPE_CREATE_AUTHENTICATORS_V2', organizationId: 'org-1', parameters: { userId: 'InternalAccount:1' }, requestId, bodySha256: sha, now: at(20) }),
  };
}
const main = challenge('Request:main', create);

/** A wallet with three sessions and the given pending challenges, built by folding its events. */
function walletWith(challenges: PendingChallenge[], mode: Mode = 'PRODUCTION'): ActiveWallet {
  const events: WalletEvent[] = [
    { type: 'WalletProvisioned.v1', data: { accountId: 'InternalAccount:1', customerId: 'Customer:1', platformId: 'Platform:1', mode, organizationId: 'org-1', sealedMnemonic: 'sealed', at: at(0) } },
    { type: 'WalletCredentialAdded.v1', data: { credential: email, at: at(0) } },
    { type: 'WalletCredentialAdded.v1', data: { credential: passkey, at: at(0) } },
    ...[s1, s2, sShort].map((s): WalletEvent => ({ type: 'WalletSessionOpened.v1', data: { session: s, at: s.createdAt } })),
    ...challenges.map((c): WalletEvent => ({ type: 'WalletChallengeIssued.v1', data: { challenge: c, at: c.createdAt } })),
  ];
  const state = fold(walletDecider, events);
  if (state.status !== 'ACTIVE') throw new Error('the wallet is not provisioned');
  return state;
}

const stamp = (key: P256KeyPair, payload: string): Promise<string> =>
  walletStamp({ publicKeyCompressed: key.publicKeyCompressed, privateKeyHex: Buffer.from(key.privateKey).toString('hex') }, payload);

/** The code of the ApiError the call throws. */
function rejection(call: () => unknown): string {
  try {
    call();
  } catch (error) {
    if (error instanceof ApiError) return error.code;
    throw error;
  }
  throw new Error('expected an ApiError, the call succeeded');
}

describe('checkSignedRetry', () => {
  const wallet = walletWith([main]);
  const check = (headers: WalletSignatureHeaders, request: SignedRequest = create, now = NOW, on: ActiveWallet = wallet) => checkSignedRetry(on, headers, request, now);

  it('is the FIRST_LEG without either header', () => {
    expect(check({})).toBe('FIRST_LEG');
  });

  it('needs both headers once either is sent', async () => {
    const signature = await stamp(k1, main.payloadToSign);
    expect(rejection(() => check({ requestId: main.requestId }))).toBe('WALLET_SIGNATURE_MISSING');
    expect(rejection(() => check({ walletSignature: signature }))).toBe('REQUEST_ID_MISSING');
  });

  it('refuses a signature that is not an API-key stamp', async () => {
    const valid = await stamp(k1, main.payloadToSign);
    const json = JSON.parse(Buffer.from(valid, 'base64url').toString('utf8')) as Record<string, string>;
    const wrongScheme = Buffer.from(JSON.stringify({ ...json, scheme: 'SIGNATURE_SCHEME_TK_API_SECP256K1' })).toString('base64url');
    for (const walletSignature of ['garbage!', 'not-a-stamp', '', Buffer.from('{"a":1}').toString('base64url'), wrongScheme]) {
      expect(rejection(() => check({ walletSignature, requestId: main.requestId }))).toBe('WALLET_SIGNATURE_MALFORMED');
    }
  });

  it('refuses an unknown, expired, other-operation or other-target Request-Id', async () => {
    const revoke = challenge('Request:revoke', { operation: 'REVOKE_SESSION', target: s2.id, body: {} });
    const on = walletWith([main, revoke]);
    const signature = await stamp(k1, main.payloadToSign);
    expect(rejection(() => check({ walletSignature: signature, requestId: 'Request:unknown' }, create, NOW, on))).toBe('UNAUTHORIZED');
    expect(rejection(() => check({ walletSignature: signature, requestId: main.requestId }, create, at(320), on))).toBe('UNAUTHORIZED');
    expect(rejection(() => check({ walletSignature: signature, requestId: main.requestId }, { ...create, operation: 'EXPORT' }, NOW, on))).toBe('UNAUTHORIZED');
    expect(rejection(() => check({ walletSignature: signature, requestId: main.requestId }, { ...create, target: 'AuthMethod:other' }, NOW, on))).toBe('UNAUTHORIZED');
    const revokeSignature = await stamp(k1, revoke.payloadToSign);
    const revokeRequest = { operation: 'REVOKE_SESSION' as WalletOperation, target: s2.id, body: {} };
    expect(check({ walletSignature: revokeSignature, requestId: revoke.requestId }, revokeRequest, NOW, on)).not.toBe('FIRST_LEG');
    expect(rejection(() => check({ walletSignature: revokeSignature, requestId: revoke.requestId }, { ...revokeRequest, target: s1.id }, NOW, on))).toBe('UNAUTHORIZED');
    // Still valid the instant before it expires.
    expect(check({ walletSignature: signature, requestId: main.requestId }, create, at(319), on)).not.toBe('FIRST_LEG');
  });

  it('refuses any change of the body, while the order of its keys does not matter', async () => {
    const headers = { walletSignature: await stamp(k1, main.payloadToSign), requestId: main.requestId };
    const changed = [
      { ...body, nickname: 'phone' },
      { ...body, extra: true },
      { type: body.type, nickname: body.nickname, challenge: body.challenge },
      { ...body, attestation: { ...body.attestation, transports: ['hybrid', 'internal'] } },
      { ...body, attestation: { ...body.attestation, clientDataJson: 'other' } },
      {},
      null,
    ];
    for (const other of changed) expect(rejection(() => check(headers, { ...create, body: other }))).toBe('WALLET_SIGNATURE_BODY_MISMATCH');
    const reordered = { attestation: { transports: ['internal', 'hybrid'], attestationObject: 'ao', clientDataJson: 'cdj' }, challenge: 'rc-B', nickname: 'laptop', type: 'PASSKEY' };
    expect(check(headers, { ...create, body: reordered })).toMatchObject({ answer: { requestId: main.requestId } });
  });

  it('returns the answer with the signing session, for a stamp by a live session over payloadToSign', async () => {
    expect(check({ walletSignature: await stamp(k1, main.payloadToSign), requestId: main.requestId })).toEqual({
      answer: { requestId: main.requestId, operation: 'CREATE_CREDENTIAL', target: null, signerSessionId: s1.id },
      challenge: main,
      signerPublicKey: k1.publicKeyCompressed,
    });
    expect(check({ walletSignature: await stamp(k2, main.payloadToSign), requestId: main.requestId })).toMatchObject({ answer: { signerSessionId: s2.id }, signerPublicKey: k2.publicKeyCompressed });
  });

  it('refuses a stamp by a key that is no live session of the wallet', async () => {
    const stranger = await stamp(kStranger, main.payloadToSign);
    expect(rejection(() => check({ walletSignature: stranger, requestId: main.requestId }))).toBe('WALLET_SIGNATURE_INVALID');
    const expired = await stamp(kShort, main.payloadToSign);
    expect(wallet.sessions.map((s) => s.id)).toContain(sShort.id); // still in the state: the clock alone prunes nothing
    expect(rejection(() => check({ walletSignature: expired, requestId: main.requestId }))).toBe('WALLET_SIGNATURE_INVALID');
    expect(check({ walletSignature: expired, requestId: main.requestId }, create, at(51))).toMatchObject({ answer: { signerSessionId: sShort.id } });
  });

  it('refuses a session of the excluded credential (notOfCredentialId)', async () => {
    const revoke = challenge('Request:revoke-email', create, { kind: 'SESSION', notOfCredentialId: email.id });
    const on = walletWith([revoke]);
    const byEmailSession = await stamp(k1, revoke.payloadToSign);
    expect(rejection(() => check({ walletSignature: byEmailSession, requestId: revoke.requestId }, create, NOW, on))).toBe('WALLET_SIGNATURE_INVALID');
    const byPasskeySession = await stamp(k2, revoke.payloadToSign);
    expect(check({ walletSignature: byPasskeySession, requestId: revoke.requestId }, create, NOW, on)).toMatchObject({ answer: { signerSessionId: s2.id } });
  });

  it('refuses any session but the required one (sessionId)', async () => {
    const refresh = challenge('Request:refresh', create, { kind: 'SESSION', sessionId: s2.id });
    const on = walletWith([refresh]);
    const byOtherSession = await stamp(k1, refresh.payloadToSign);
    expect(rejection(() => check({ walletSignature: byOtherSession, requestId: refresh.requestId }, create, NOW, on))).toBe('WALLET_SIGNATURE_INVALID');
    expect(check({ walletSignature: await stamp(k2, refresh.payloadToSign), requestId: refresh.requestId }, create, NOW, on)).toMatchObject({ answer: { signerSessionId: s2.id } });
  });

  it('for a KEY challenge, accepts only that key (no session)', async () => {
    const login = challenge('Request:login', create, { kind: 'KEY', publicKey: tek.publicKeyUncompressed });
    const on = walletWith([login]);
    const bySession = await stamp(k1, login.payloadToSign);
    expect(rejection(() => check({ walletSignature: bySession, requestId: login.requestId }, create, NOW, on))).toBe('WALLET_SIGNATURE_INVALID');
    expect(check({ walletSignature: await stamp(tek, login.payloadToSign), requestId: login.requestId }, create, NOW, on)).toEqual({
      answer: { requestId: login.requestId, operation: 'CREATE_CREDENTIAL', target: null },
      challenge: login,
      signerPublicKey: tek.publicKeyUncompressed,
    });
  });

  it('a PASSKEY challenge is not answered by a stamp', async () => {
    const verify = challenge('Request:verify', create, { kind: 'PASSKEY', credentialId: passkey.id });
    const on = walletWith([verify]);
    for (const key of [k1, k2]) {
      const walletSignature = await stamp(key, verify.payloadToSign);
      expect(rejection(() => check({ walletSignature, requestId: verify.requestId }, create, NOW, on))).toBe('WALLET_SIGNATURE_INVALID');
    }
  });

  it('refuses a valid stamp by a live session over another payload', async () => {
    const other = challenge('Request:other', create);
    for (const payload of [other.payloadToSign, `${main.payloadToSign} `, '']) {
      const walletSignature = await stamp(k1, payload);
      expect(rejection(() => check({ walletSignature, requestId: main.requestId }))).toBe('WALLET_SIGNATURE_INVALID');
    }
  });

  describe(`the sandbox literal '${SANDBOX_SIGNATURE}'`, () => {
    it('is accepted in SANDBOX, the challenge still checked', () => {
      expect(SANDBOX_SIGNATURE).toBe('sandbox-valid-signature');
      const sandbox = walletWith([main], 'SANDBOX');
      expect(check({ walletSignature: SANDBOX_SIGNATURE, requestId: main.requestId }, create, NOW, sandbox)).toMatchObject({
        answer: { requestId: main.requestId, operation: 'CREATE_CREDENTIAL', target: null },
        challenge: main,
      });
      expect(rejection(() => check({ walletSignature: SANDBOX_SIGNATURE, requestId: 'Request:unknown' }, create, NOW, sandbox))).toBe('UNAUTHORIZED');
      expect(rejection(() => check({ walletSignature: SANDBOX_SIGNATURE, requestId: main.requestId }, { ...create, body: {} }, NOW, sandbox))).toBe('WALLET_SIGNATURE_BODY_MISMATCH');
    });

    it('is MALFORMED in PRODUCTION', () => {
      expect(wallet.mode).toBe('PRODUCTION');
      expect(rejection(() => check({ walletSignature: SANDBOX_SIGNATURE, requestId: main.requestId }))).toBe('WALLET_SIGNATURE_MALFORMED');
    });
  });
});

describe('activityPayload', () => {
  const input = { activity: 'ACTIVITY_TYPE_EXPORT_WALLET', organizationId: 'org-1', parameters: { walletId: 'w-1', targetPublicKey: '04ab' }, requestId: 'Request:1', bodySha256: 'ab'.repeat(32), now: at(0) };

  it('is deterministic JSON binding the requestId and the body digest', () => {
    const payload = activityPayload(input);
    expect(activityPayload({ ...input })).toBe(payload);
    expect(payload).toBe(
      `{"type":"ACTIVITY_TYPE_EXPORT_WALLET","timestampMs":"${T0}","organizationId":"org-1","parameters":{"walletId":"w-1","targetPublicKey":"04ab"},"request":{"requestId":"Request:1","bodySha256":"${'ab'.repeat(32)}"}}`,
    );
    expect(JSON.parse(payload)).toMatchObject({ request: { requestId: 'Request:1', bodySha256: input.bodySha256 } });
    expect(activityPayload({ ...input, requestId: 'Request:2' })).not.toBe(payload);
    expect(activityPayload({ ...input, bodySha256: 'cd'.repeat(32) })).not.toBe(payload);
  });
});

describe('bodySha256', () => {
  it('is the SHA-256 hex of the canonical JSON, independent of key order', () => {
    const a = { b: 1, a: { d: [1, { y: 2, x: 1 }], c: 'x' } };
    const b = { a: { c: 'x', d: [1, { x: 1, y: 2 }] }, b: 1 };
    expect(bodySha256(a)).toMatch(/^[0-9a-f]{64}$/);
    expect(bodySha256(a)).toBe(bodySha256(b));
    expect(bodySha256(a)).toBe(createHash('sha256').update(canonicalJson(b)).digest('hex'));
    expect(bodySha256({ ...a, b: 2 })).not.toBe(bodySha256(a));
    expect(bodySha256({ a: { c: 'x', d: [{ x: 1, y: 2 }, 1] }, b: 1 })).not.toBe(bodySha256(a)); // array order matters
  });
});
