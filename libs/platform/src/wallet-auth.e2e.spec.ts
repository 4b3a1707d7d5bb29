import { randomBytes } from 'node:crypto';
import { validateMnemonic } from '@scure/bip39';
import { wordlist } from '@scure/bip39/wordlists/english';
import { eventually, SoftwareAuthenticator, turnkeyCrypto, walletStamp } from '@payments/testing';
import { oidcNonceFor, webauthnChallengeOf } from '@payments/wallet-crypto';
import { startTestPlatform, TestPlatform } from './test-platform';
import { clientKey, ClientKey, enableWallets, encryptOtp, otpLogin, signed, walletCustomer } from './test-wallet';

const hexBytes = (hex: string) => Uint8Array.from(Buffer.from(hex, 'hex'));

/** Opens `encryptedWalletCredentials` as a client does: the sandbox bundle (no enclave signature) with hpkeDecrypt. */
function openExport(bundle: string, key: ClientKey): string {
  const envelope = JSON.parse(bundle);
  const data = JSON.parse(Buffer.from(envelope.data, 'hex').toString('utf8'));
  const plain = turnkeyCrypto.hpkeDecrypt({ ciphertextBuf: hexBytes(data.ciphertext), encappedKeyBuf: hexBytes(data.encappedPublic), receiverPriv: key.privateKeyHex });
  return Buffer.from(plain).toString('utf8');
}

/** A sandbox OIDC token (signature not checked there) of a Google identity, its nonce committing to `clientPublicKey`. */
function oidcToken(claims: Record<string, unknown>): string {
  const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
  const now = Math.floor(Date.now() / 1000);
  return `${b64({ alg: 'RS256', typ: 'JWT' })}.${b64({ iss: 'https://accounts.google.com', aud: 'app.example', sub: 'google-123', email: 'holder@gmail.example', iat: now, exp: now + 600, ...claims })}.c2ln`;
}

/**
 * Embedded Wallet Auth through HTTP with the clients a platform would use: @turnkey/crypto seals the OTP and opens
 * the export, @turnkey/api-key-stamper signs the retries, the project's software authenticator answers passkey
 * challenges. Every signed-retry failure has its own 401 code.
 */
describe('Embedded Wallet Auth', () => {
  let t: TestPlatform;
  beforeAll(async () => {
    t = await startTestPlatform();
    await enableWallets(t, t.tenant.sandbox);
  });
  afterAll(() => t?.stop());

  const credentialsOf = async (accountId: string, auth?: string) => {
    const listed = await t.call('GET', `/auth/credentials?accountId=${encodeURIComponent(accountId)}`, auth ? { auth } : {});
    if (listed.status !== 200) throw new Error(`GET /auth/credentials: ${listed.status} ${JSON.stringify(listed.body)}`);
    return listed.body.data as any[];
  };

  it('logs in with the email OTP, then exports the mnemonic sealed to a fresh key, signed by the session', async () => {
    const { accountId, email } = await walletCustomer(t, t.tenant.sandbox);
    const [credential, ...others] = await credentialsOf(accountId);
    expect(others).toEqual([]);
    expect(credential).toMatchObject({ id: expect.stringMatching(/^AuthMethod:/), accountId, type: 'EMAIL_OTP', nickname: email });

    const { session, key } = await otpLogin(t, credential.id);
    expect(session).toMatchObject({ id: expect.stringMatching(/^Session:/), accountId, type: 'EMAIL_OTP', nickname: email });
    expect(session.encryptedSessionSigningKey).toBeUndefined(); // the TEK is the session key: the client holds it
    const lifetime = Date.parse(session.expiresAt) - Date.now();
    expect(lifetime).toBeGreaterThan(14 * 60_000);
    expect(lifetime).toBeLessThanOrEqual(15 * 60_000);
    expect((await t.call('GET', `/auth/sessions?accountId=${encodeURIComponent(accountId)}`)).body.data.map((s: any) => s.id)).toEqual([session.id]);

    const exportKey = clientKey();
    const body = { clientPublicKey: exportKey.publicKeyUncompressed };
    const { first, final } = await signed(t, 'POST', `/internal-accounts/${accountId}/export`, body, key);
    expect(first.status).toBe(202);
    expect(first.body).toEqual({ payloadToSign: expect.any(String), requestId: expect.stringMatching(/^Request:/), expiresAt: expect.any(String) });
    expect(final.status).toBe(200);
    expect(final.body.id).toBe(accountId);
    const mnemonic = openExport(final.body.encryptedWalletCredentials, exportKey);
    expect(mnemonic.split(' ')).toHaveLength(24);
    expect(validateMnemonic(mnemonic, wordlist)).toBe(true);

    // The same wallet exports the same mnemonic; a key is used once; a challenge answers once.
    const again = clientKey();
    const second = await signed(t, 'POST', `/internal-accounts/${accountId}/export`, { clientPublicKey: again.publicKeyUncompressed }, key);
    expect(openExport(second.final.body.encryptedWalletCredentials, again)).toBe(mnemonic);
    expect((await t.call('POST', `/internal-accounts/${accountId}/export`, { body })).body).toMatchObject({ status: 400, code: 'INVALID_INPUT' });
    const replay = await t.call('POST', `/internal-accounts/${accountId}/export`, {
      body: { clientPublicKey: again.publicKeyUncompressed },
      headers: { 'Service-Wallet-Signature': await walletStamp(key, second.first.body.payloadToSign), 'Request-Id': second.first.body.requestId },
    });
    expect(replay.status).toBe(400); // the key was spent before the Request-Id is even looked at
  });

  it('answers each way a signed retry can fail with its own 401 code', async () => {
    const { accountId } = await walletCustomer(t, t.tenant.sandbox);
    const [credential] = await credentialsOf(accountId);
    const { key } = await otpLogin(t, credential.id);
    const path = `/internal-accounts/${accountId}/export`;
    const body = { clientPublicKey: clientKey().publicKeyUncompressed };
    const first = await t.call('POST', path, { body });
    expect(first.status).toBe(202);
    const { payloadToSign, requestId } = first.body;
    const stamp = await walletStamp(key, payloadToSign);
    const retry = (headers: Record<string, string>, retryBody: unknown = body) => t.call('POST', path, { body: retryBody, headers });

    const codes = [
      (await retry({ 'Request-Id': requestId })).body.code,
      (await retry({ 'Service-Wallet-Signature': stamp })).body.code,
      (await retry({ 'Service-Wallet-Signature': 'not-a-stamp!', 'Request-Id': requestId })).body.code,
      (await retry({ 'Service-Wallet-Signature': stamp, 'Request-Id': 'Request:00000000-0000-0000-0000-000000000000' })).body.code,
      (await retry({ 'Service-Wallet-Signature': stamp, 'Request-Id': requestId }, { clientPublicKey: clientKey().publicKeyUncompressed })).body.code,
      (await retry({ 'Service-Wallet-Signature': await walletStamp(clientKey(), payloadToSign), 'Request-Id': requestId })).body.code,
      (await retry({ 'Service-Wallet-Signature': await walletStamp(key, `${payloadToSign} `), 'Request-Id': requestId })).body.code,
    ];
    expect(codes).toEqual(['WALLET_SIGNATURE_MISSING', 'REQUEST_ID_MISSING', 'WALLET_SIGNATURE_MALFORMED', 'UNAUTHORIZED', 'WALLET_SIGNATURE_BODY_MISMATCH', 'WALLET_SIGNATURE_INVALID', 'WALLET_SIGNATURE_INVALID']);
    // None of the failures used the challenge up; the right retry still works, once.
    expect((await retry({ 'Service-Wallet-Signature': stamp, 'Request-Id': requestId })).status).toBe(200);
    const replayed = await retry({ 'Service-Wallet-Signature': stamp, 'Request-Id': requestId });
    expect(replayed.status).toBe(400); // that key was spent by the export that succeeded
    // A challenge of one operation does not answer another.
    const sessions = (await t.call('GET', `/auth/sessions?accountId=${encodeURIComponent(accountId)}`)).body.data;
    const revokeFirst = await t.call('DELETE', `/auth/sessions/${sessions[0].id}`);
    expect(revokeFirst.status).toBe(202);
    const crossed = await t.call('POST', path, { body: { clientPublicKey: clientKey().publicKeyUncompressed }, headers: { 'Service-Wallet-Signature': await walletStamp(key, revokeFirst.body.payloadToSign), 'Request-Id': revokeFirst.body.requestId } });
    expect(crossed.body.code).toBe('UNAUTHORIZED');
  });

  it('refuses a wrong OTP, a stamp by another key than the TEK, and rate-limits repeated failures', async () => {
    const { accountId } = await walletCustomer(t, t.tenant.sandbox);
    const [credential] = await credentialsOf(accountId);
    const challenged = await t.call('POST', `/auth/credentials/${credential.id}/challenge`, { body: {} });
    const tek = clientKey();
    const wrong = await t.call('POST', `/auth/credentials/${credential.id}/verify`, { body: { type: 'EMAIL_OTP', encryptedOtpBundle: await encryptOtp(challenged.body.otpEncryptionTargetBundle, '123456', tek.publicKeyCompressed) } });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toMatchObject({ code: 'UNAUTHORIZED', details: { reason: 'Invalid OTP code' } });
    expect((await t.call('POST', `/auth/credentials/${credential.id}/verify`, { body: { type: 'EMAIL_OTP', encryptedOtpBundle: '{"nope":1}' } })).body.code).toBe('INVALID_INPUT');

    const body = { type: 'EMAIL_OTP', encryptedOtpBundle: await encryptOtp(challenged.body.otpEncryptionTargetBundle, '000000', tek.publicKeyCompressed) };
    const first = await t.call('POST', `/auth/credentials/${credential.id}/verify`, { body });
    expect(first.status).toBe(202);
    expect(first.body.type).toBe('EMAIL_OTP');
    const claims = await turnkeyCrypto.verifyOtpVerificationToken(first.body.payloadToSign, JSON.parse(challenged.body.otpEncryptionTargetBundle).enclaveQuorumPublic);
    expect(claims).toMatchObject({ contact: credential.nickname, verification_type: 'OTP_TYPE_EMAIL' });
    const byOther = await t.call('POST', `/auth/credentials/${credential.id}/verify`, { body, headers: { 'Service-Wallet-Signature': await walletStamp(clientKey(), first.body.payloadToSign), 'Request-Id': first.body.requestId } });
    expect(byOther.body.code).toBe('WALLET_SIGNATURE_INVALID');
    // The OTP was used by the first leg: it cannot start a second login.
    expect((await t.call('POST', `/auth/credentials/${credential.id}/verify`, { body })).status).toBe(401);

    const again = await t.call('POST', `/auth/credentials/${credential.id}/challenge`, { body: {} });
    const attempt = async () => t.call('POST', `/auth/credentials/${credential.id}/verify`, { body: { type: 'EMAIL_OTP', encryptedOtpBundle: await encryptOtp(again.body.otpEncryptionTargetBundle, '999999', tek.publicKeyCompressed) } });
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await attempt()).status);
    expect(statuses).toEqual([401, 401, 401, 401, 429]);
    const limited = await attempt();
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('refreshes and revokes sessions: a legacy refresh seals its key, a revoked session signs nothing', async () => {
    const { accountId } = await walletCustomer(t, t.tenant.sandbox);
    const [credential] = await credentialsOf(accountId);
    const { session, key } = await otpLogin(t, credential.id);

    const legacyKey = clientKey();
    const refreshed = await signed(t, 'POST', `/auth/sessions/${session.id}/refresh`, { clientPublicKey: legacyKey.publicKeyUncompressed }, key);
    expect(refreshed.first.body.type).toBeUndefined();
    expect(refreshed.final.status).toBe(201);
    const sessionPrivate = turnkeyCrypto.decryptCredentialBundle(refreshed.final.body.encryptedSessionSigningKey, legacyKey.privateKeyHex);
    const legacySession: ClientKey = { privateKeyHex: sessionPrivate, publicKeyCompressed: Buffer.from(turnkeyCrypto.getPublicKey(hexBytes(sessionPrivate), true)).toString('hex'), publicKeyUncompressed: '' };
    expect((await t.call('GET', `/auth/sessions?accountId=${encodeURIComponent(accountId)}`)).body.data.map((s: any) => s.encryptedSessionSigningKey)).toEqual([undefined, undefined]);

    // The old session revokes itself; it then signs nothing, and revoking it again is 404.
    const revoked = await signed(t, 'DELETE', `/auth/sessions/${session.id}`, undefined, key);
    expect(revoked.first.body.type).toBe('EMAIL_OTP');
    expect(revoked.final.status).toBe(204);
    expect((await t.call('DELETE', `/auth/sessions/${session.id}`)).status).toBe(404);
    const exportBody = { clientPublicKey: clientKey().publicKeyUncompressed };
    expect((await signed(t, 'POST', `/internal-accounts/${accountId}/export`, exportBody, key)).final.body.code).toBe('WALLET_SIGNATURE_INVALID');
    // The key the legacy refresh sealed signs for the new session.
    expect((await signed(t, 'POST', `/internal-accounts/${accountId}/export`, { clientPublicKey: clientKey().publicKeyUncompressed }, legacySession)).final.status).toBe(200);
  });

  it('adds a passkey (signed by the OTP session), logs in with it, and revokes the OTP credential with the passkey session', async () => {
    const { accountId } = await walletCustomer(t, t.tenant.sandbox);
    const [otpCredential] = await credentialsOf(accountId);
    const { key } = await otpLogin(t, otpCredential.id);
    const origin = `http://localhost:${new URL(t.url).port}`;
    const authenticator = new SoftwareAuthenticator();
    const registrationChallenge = randomBytes(32).toString('base64url');
    const registration = authenticator.register({ challenge: registrationChallenge, origin, rpId: 'localhost' });
    const addBody = {
      type: 'PASSKEY', accountId, nickname: 'Test Phone', challenge: registrationChallenge,
      attestation: { credentialId: registration.id, clientDataJson: registration.response.clientDataJSON, attestationObject: registration.response.attestationObject, transports: ['internal'] },
    };
    const added = await signed(t, 'POST', '/auth/credentials', addBody, key);
    expect(added.first.body.type).toBe('PASSKEY');
    expect(added.final.status).toBe(201);
    expect(added.final.body).toMatchObject({ type: 'PASSKEY', nickname: 'Test Phone', credentialId: registration.id, accountId });
    expect((await t.call('POST', '/auth/credentials', { body: addBody })).body.code).toBe('PASSKEY_CREDENTIAL_ALREADY_EXISTS');

    const sessionKey = clientKey();
    const challenge = await t.call('POST', `/auth/credentials/${added.final.body.id}/challenge`, { body: { clientPublicKey: sessionKey.publicKeyCompressed } });
    expect(challenge.status).toBe(200);
    expect(challenge.body).toMatchObject({ credentialId: registration.id, challenge: expect.stringMatching(/^[0-9a-f]{64}$/), requestId: expect.stringMatching(/^Request:/) });
    const assertion = authenticator.assert({ challenge: webauthnChallengeOf(challenge.body.challenge), origin, rpId: 'localhost' });
    const verifyBody = { type: 'PASSKEY', assertion: { credentialId: assertion.id, clientDataJson: assertion.response.clientDataJSON, authenticatorData: assertion.response.authenticatorData, signature: assertion.response.signature } };
    expect((await t.call('POST', `/auth/credentials/${added.final.body.id}/verify`, { body: verifyBody })).body.code).toBe('REQUEST_ID_MISSING');
    const session = await t.call('POST', `/auth/credentials/${added.final.body.id}/verify`, { body: verifyBody, headers: { 'Request-Id': challenge.body.requestId } });
    expect(session.status).toBe(200);
    expect(session.body).toMatchObject({ type: 'PASSKEY', credentialId: registration.id });
    // The challenge answered once.
    expect((await t.call('POST', `/auth/credentials/${added.final.body.id}/verify`, { body: verifyBody, headers: { 'Request-Id': challenge.body.requestId } })).status).toBe(401);

    // Revoking the OTP credential must be signed by another credential's session: the OTP session is refused.
    expect((await signed(t, 'DELETE', `/auth/credentials/${otpCredential.id}`, undefined, key)).final.body.code).toBe('WALLET_SIGNATURE_INVALID');
    const revoked = await signed(t, 'DELETE', `/auth/credentials/${otpCredential.id}`, undefined, sessionKey);
    expect(revoked.final.status).toBe(204);
    expect((await credentialsOf(accountId)).map((c) => c.type)).toEqual(['PASSKEY']);
    // The last credential stays.
    expect((await t.call('DELETE', `/auth/credentials/${added.final.body.id}`)).body).toMatchObject({ status: 400, code: 'INVALID_INPUT' });
  });

  it('adds an OAuth credential and logs in with a fresh token whose nonce commits to the client key', async () => {
    const { accountId } = await walletCustomer(t, t.tenant.sandbox);
    const [otpCredential] = await credentialsOf(accountId);
    const { key } = await otpLogin(t, otpCredential.id);
    expect((await t.call('POST', '/auth/credentials', { body: { type: 'OAUTH', accountId, oidcToken: 'not.a-jwt' } })).body.code).toBe('INVALID_INPUT');
    const added = await signed(t, 'POST', '/auth/credentials', { type: 'OAUTH', accountId, oidcToken: oidcToken({}) }, key);
    expect(added.final.status).toBe(201);
    expect(added.final.body).toMatchObject({ type: 'OAUTH', nickname: 'holder@gmail.example' });

    const sessionKey = clientKey();
    const verify = (claims: Record<string, unknown>) =>
      t.call('POST', `/auth/credentials/${added.final.body.id}/verify`, { body: { type: 'OAUTH', oidcToken: oidcToken(claims), clientPublicKey: sessionKey.publicKeyCompressed } });
    expect((await verify({ nonce: oidcNonceFor(clientKey().publicKeyCompressed) })).status).toBe(401);
    expect((await verify({ nonce: oidcNonceFor(sessionKey.publicKeyCompressed), sub: 'someone-else' })).status).toBe(401);
    expect((await verify({ nonce: oidcNonceFor(sessionKey.publicKeyCompressed), iat: Math.floor(Date.now() / 1000) - 120 })).status).toBe(401);
    const ok = await verify({ nonce: oidcNonceFor(sessionKey.publicKeyCompressed) });
    expect(ok.status).toBe(200);
    expect(ok.body.type).toBe('OAUTH');
  });

  it("isolates tenants: another platform's wallet lists nothing and its credentials and sessions are 404", async () => {
    const { accountId } = await walletCustomer(t, t.tenant.sandbox);
    const [credential] = await credentialsOf(accountId);
    const { session } = await otpLogin(t, credential.id);
    const other = await t.createTenant('wallet-other');
    expect(await credentialsOf(accountId, other.sandbox)).toEqual([]);
    expect(await credentialsOf(accountId, t.tenant.production)).toEqual([]);
    expect((await t.call('POST', `/auth/credentials/${credential.id}/challenge`, { auth: other.sandbox, body: {} })).status).toBe(404);
    expect((await t.call('DELETE', `/auth/sessions/${session.id}`, { auth: other.sandbox })).status).toBe(404);
    expect((await t.call('POST', `/internal-accounts/${accountId}/export`, { auth: other.sandbox, body: { clientPublicKey: clientKey().publicKeyUncompressed } })).status).toBe(404);
    // An ordinary internal account is no Embedded Wallet.
    expect((await credentialsOf('InternalAccount:00000000-0000-0000-0000-000000000000'))).toEqual([]);
  });

  it('executes a quote from the Embedded Wallet only with a session stamp over its payloadToSign', async () => {
    const { customerId, accountId } = await walletCustomer(t, t.tenant.sandbox);
    const [credential] = await credentialsOf(accountId);
    const { key } = await otpLogin(t, credential.id);
    expect((await t.call('POST', `/sandbox/internal-accounts/${accountId}/fund`, { body: { amount: 50_000_000 } })).status).toBe(200);
    const usd = await eventually(async () => (await t.call('GET', `/customers/internal-accounts?customerId=${encodeURIComponent(customerId)}&currency=USD`)).body.data?.[0]?.id as string | undefined, { what: 'USD account' });
    const quoteBody = { source: { sourceType: 'ACCOUNT', accountId }, destination: { destinationType: 'ACCOUNT', accountId: usd }, lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 10_000_000 };
    expect((await t.call('POST', '/quotes', { body: { ...quoteBody, immediatelyExecute: true } })).body).toMatchObject({ status: 400, code: 'INVALID_INPUT' });
    const quote = (await t.call('POST', '/quotes', { body: quoteBody })).body;
    expect(quote.status).toBe('PENDING');
    const [entry] = quote.paymentInstructions;
    expect(entry.accountOrWalletInfo).toMatchObject({ accountType: 'EMBEDDED_WALLET', payloadToSign: expect.any(String) });
    const payload = entry.accountOrWalletInfo.payloadToSign as string;

    const execute = (headers: Record<string, string>) => t.call('POST', `/quotes/${quote.id}/execute`, { headers });
    expect((await execute({})).body.code).toBe('WALLET_SIGNATURE_MISSING');
    expect((await execute({ 'Service-Wallet-Signature': 'garbage' })).body.code).toBe('WALLET_SIGNATURE_MALFORMED');
    expect((await execute({ 'Service-Wallet-Signature': await walletStamp(clientKey(), payload) })).body.code).toBe('WALLET_SIGNATURE_INVALID');
    expect((await execute({ 'Service-Wallet-Signature': await walletStamp(key, `${payload}x`) })).body.code).toBe('WALLET_SIGNATURE_INVALID');
    const executed = await execute({ 'Service-Wallet-Signature': await walletStamp(key, payload) });
    expect(executed.status).toBe(200);
    expect(executed.body.status).toBe('PROCESSING');
    await eventually(async () => ((await t.call('GET', `/quotes/${quote.id}`)).body.status === 'COMPLETED' ? true : undefined), { what: 'quote COMPLETED' });
    const wallet = (await t.call('GET', `/customers/internal-accounts?customerId=${encodeURIComponent(customerId)}&type=EMBEDDED_WALLET`)).body.data[0];
    expect(wallet.balance.amount).toBe(40_000_000);
  });

  it("changes the customer's email and the wallet's EMAIL_OTP credential together, signed by a wallet session", async () => {
    const { customerId, accountId } = await walletCustomer(t, t.tenant.sandbox);
    const [credential] = await credentialsOf(accountId);
    const { key } = await otpLogin(t, credential.id);
    // A contact no wallet credential is tied to changes at once.
    expect((await t.call('PATCH', `/customers/${customerId}`, { body: { phoneNumber: '+14155550123' } })).status).toBe(200);
    expect((await t.call('PATCH', `/customers/${customerId}`, { body: { email: 'both@example.com', phoneNumber: '+14155550199' } })).body).toMatchObject({ status: 400, code: 'INVALID_INPUT' });

    const body = { email: `moved-${randomBytes(3).toString('hex')}@example.com` };
    const unsigned = await t.call('PATCH', `/customers/${customerId}`, { body });
    expect(unsigned.status).toBe(202);
    expect((await t.call('GET', `/customers/${customerId}`)).body.email).not.toBe(body.email); // nothing changed yet
    const mismatch = await t.call('PATCH', `/customers/${customerId}`, { body: { email: 'other@example.com' }, headers: { 'Service-Wallet-Signature': await walletStamp(key, unsigned.body.payloadToSign), 'Request-Id': unsigned.body.requestId } });
    expect(mismatch.body.code).toBe('WALLET_SIGNATURE_BODY_MISMATCH');
    const changed = await t.call('PATCH', `/customers/${customerId}`, { body, headers: { 'Service-Wallet-Signature': await walletStamp(key, unsigned.body.payloadToSign), 'Request-Id': unsigned.body.requestId } });
    expect(changed.status).toBe(200);
    expect(changed.body.email).toBe(body.email);
    expect((await credentialsOf(accountId))[0]).toMatchObject({ id: credential.id, type: 'EMAIL_OTP', nickname: body.email });
    // The next login's verification token names the new address.
    const challenged = await t.call('POST', `/auth/credentials/${credential.id}/challenge`, { body: {} });
    const tek = clientKey();
    const first = await t.call('POST', `/auth/credentials/${credential.id}/verify`, { body: { type: 'EMAIL_OTP', encryptedOtpBundle: await encryptOtp(challenged.body.otpEncryptionTargetBundle, '000000', tek.publicKeyCompressed) } });
    const claims = await turnkeyCrypto.verifyOtpVerificationToken(first.body.payloadToSign, JSON.parse(challenged.body.otpEncryptionTargetBundle).enclaveQuorumPublic);
    expect(claims.contact).toBe(body.email);
  });

  it('keeps sessions and pending challenges across a restart: the retry after it completes, once', async () => {
    const { accountId } = await walletCustomer(t, t.tenant.sandbox);
    const [credential] = await credentialsOf(accountId);
    const { session, key } = await otpLogin(t, credential.id);
    const body = { clientPublicKey: clientKey().publicKeyUncompressed };
    const first = await t.call('POST', `/internal-accounts/${accountId}/export`, { body });
    expect(first.status).toBe(202);
    await t.restart();
    expect((await t.call('GET', `/auth/sessions?accountId=${encodeURIComponent(accountId)}`)).body.data.map((s: any) => s.id)).toEqual([session.id]);
    const headers = { 'Service-Wallet-Signature': await walletStamp(key, first.body.payloadToSign), 'Request-Id': first.body.requestId };
    expect((await t.call('POST', `/internal-accounts/${accountId}/export`, { body, headers })).status).toBe(200);
    expect((await t.call('POST', `/internal-accounts/${accountId}/export`, { body, headers })).status).toBe(400); // the key is spent
  });

  it('accepts the legacy sandbox signature literal in the sandbox', async () => {
    const { accountId } = await walletCustomer(t, t.tenant.sandbox);
    const [credential] = await credentialsOf(accountId);
    await otpLogin(t, credential.id);
    const exportKey = clientKey();
    const body = { clientPublicKey: exportKey.publicKeyUncompressed };
    const first = await t.call('POST', `/internal-accounts/${accountId}/export`, { body });
    const final = await t.call('POST', `/internal-accounts/${accountId}/export`, { body, headers: { 'Service-Wallet-Signature': 'sandbox-valid-signature', 'Request-Id': first.body.requestId } });
    expect(final.status).toBe(200);
    expect(validateMnemonic(openExport(final.body.encryptedWalletCredentials, exportKey), wordlist)).toBe(true);
  });
});
