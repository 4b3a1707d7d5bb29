import { ContactDeliveryRecorder } from './test-contact-delivery';
import { turnkeyCrypto } from '@payments/testing';
import { startTestPlatform, TestPlatform } from './test-platform';
import { clientKey, enableWallets, encryptOtp, signed, walletCustomer } from './test-wallet';

/**
 * Embedded Wallet Auth in production mode: the OTP is random, goes out through the operator's delivery gateway
 * (CONTACT_DELIVERY_URL, a real HTTP server here) and follows the platform's embeddedWalletConfig; the export bundle
 * is signed by the service's enclave key, which @turnkey/crypto's decryptExportBundle verifies before decrypting.
 */
describe('Embedded Wallet Auth, production', () => {
  let t: TestPlatform;
  const delivery = new ContactDeliveryRecorder();
  const { delivered } = delivery;

  beforeAll(async () => {
    t = await startTestPlatform({ CONTACT_DELIVERY_URL: (await delivery.start()).url });
    await enableWallets(t, t.tenant.production);
    const config = { otpLength: 8, alphanumeric: true, expirationSeconds: 120, sendFromEmailSenderName: 'Wallet Team', appName: 'Acme' };
    expect((await t.call('PATCH', '/config', { auth: t.tenant.production, body: { embeddedWalletConfig: config, umaDomain: 'wallets.example.com' } })).status).toBe(200);
  });
  afterAll(async () => {
    await t?.stop();
    delivery.stop();
  });

  it('sends a random OTP as configured, refuses the sandbox code, logs in, and exports a bundle signed by the enclave key', async () => {
    const auth = t.tenant.production;
    const { accountId, email } = await walletCustomer(t, auth);
    const [credential] = (await t.call('GET', `/auth/credentials?accountId=${encodeURIComponent(accountId)}`, { auth })).body.data;
    const challenged = await t.call('POST', `/auth/credentials/${credential.id}/challenge`, { auth, body: {} });
    expect(challenged.status).toBe(200);
    const sent = delivered.at(-1)!;
    expect(sent).toMatchObject({ channel: 'email', destination: email, purpose: 'EMBEDDED_WALLET_LOGIN', sender: { appName: 'Acme', sendFromEmailSenderName: 'Wallet Team' } });
    expect(sent.code).toMatch(/^[2-9A-HJ-NP-Z]{8}$/);
    const tek = clientKey();

    const sandboxCode = await t.call('POST', `/auth/credentials/${credential.id}/verify`, { auth, body: { type: 'EMAIL_OTP', encryptedOtpBundle: await encryptOtp(challenged.body.otpEncryptionTargetBundle, '000000', tek.publicKeyCompressed) } });
    expect(sandboxCode.body).toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
    const body = { type: 'EMAIL_OTP', encryptedOtpBundle: await encryptOtp(challenged.body.otpEncryptionTargetBundle, sent.code, tek.publicKeyCompressed) };
    const login = await signed(t, 'POST', `/auth/credentials/${credential.id}/verify`, body, tek, auth);
    expect(login.final.status).toBe(200);
    // The sandbox literal is no signature in production.
    const exportKey = clientKey();
    const first = await t.call('POST', `/internal-accounts/${accountId}/export`, { auth, body: { clientPublicKey: exportKey.publicKeyUncompressed } });
    const literal = await t.call('POST', `/internal-accounts/${accountId}/export`, { auth, body: { clientPublicKey: exportKey.publicKeyUncompressed }, headers: { 'Service-Wallet-Signature': 'sandbox-valid-signature', 'Request-Id': first.body.requestId } });
    expect(literal.body.code).toBe('WALLET_SIGNATURE_MALFORMED');

    const exported = await signed(t, 'POST', `/internal-accounts/${accountId}/export`, { clientPublicKey: exportKey.publicKeyUncompressed }, tek, auth);
    expect(exported.final.status).toBe(200);
    const envelope = JSON.parse(exported.final.body.encryptedWalletCredentials);
    const signer = JSON.parse(challenged.body.otpEncryptionTargetBundle).enclaveQuorumPublic as string;
    expect(envelope.enclaveQuorumPublic).toBe(signer);
    const { organizationId } = JSON.parse(Buffer.from(envelope.data, 'hex').toString('utf8'));
    const mnemonic = await turnkeyCrypto.decryptExportBundle({ exportBundle: exported.final.body.encryptedWalletCredentials, embeddedKey: exportKey.privateKeyHex, organizationId, returnMnemonic: true, dangerouslyOverrideSignerPublicKey: signer });
    expect(mnemonic.split(' ')).toHaveLength(24);
    // Another signer key does not verify the bundle.
    await expect(turnkeyCrypto.decryptExportBundle({ exportBundle: exported.final.body.encryptedWalletCredentials, embeddedKey: exportKey.privateKeyHex, organizationId, returnMnemonic: true, dangerouslyOverrideSignerPublicKey: clientKey().publicKeyUncompressed })).rejects.toThrow();
  });

  it('adds an SMS_OTP credential for the customer phone, and sends its OTP by SMS', async () => {
    const auth = t.tenant.production;
    const { customerId, accountId } = await walletCustomer(t, auth);
    const [credential] = (await t.call('GET', `/auth/credentials?accountId=${encodeURIComponent(accountId)}`, { auth })).body.data;
    const challenged = await t.call('POST', `/auth/credentials/${credential.id}/challenge`, { auth, body: {} });
    const tek = clientKey();
    const login = await signed(t, 'POST', `/auth/credentials/${credential.id}/verify`, { type: 'EMAIL_OTP', encryptedOtpBundle: await encryptOtp(challenged.body.otpEncryptionTargetBundle, delivered.at(-1)!.code, tek.publicKeyCompressed) }, tek, auth);
    expect(login.final.status).toBe(200);
    const noPhone = await t.call('POST', '/auth/credentials', { auth, body: { type: 'SMS_OTP', accountId } });
    expect(noPhone.body).toMatchObject({ status: 400, code: 'INVALID_INPUT' });
    expect((await t.call('PATCH', `/customers/${customerId}`, { auth, body: { phoneNumber: '+14155550142' } })).status).toBe(200);
    const added = await signed(t, 'POST', '/auth/credentials', { type: 'SMS_OTP', accountId }, tek, auth);
    expect(added.final.status).toBe(201);
    expect(added.final.body).toMatchObject({ type: 'SMS_OTP', nickname: '+14155550142', otpEncryptionTargetBundle: expect.any(String) });
    expect(delivered.at(-1)).toMatchObject({ channel: 'phone', destination: '+14155550142', purpose: 'EMBEDDED_WALLET_LOGIN' });
    expect((await t.call('POST', '/auth/credentials', { auth, body: { type: 'SMS_OTP', accountId } })).body.code).toBe('SMS_OTP_CREDENTIAL_ALREADY_EXISTS');
  });
});
