import { turnkeyCrypto, walletStamp, eventually } from '@payments/testing';
import type { HttpResult } from '@payments/testing';
import type { TestPlatform } from './test-platform';

/** A P-256 key as a platform's client holds it (made by @turnkey/crypto). */
export interface ClientKey {
  privateKeyHex: string;
  publicKeyCompressed: string;
  publicKeyUncompressed: string;
}

export function clientKey(): ClientKey {
  const pair = turnkeyCrypto.generateP256KeyPair();
  return { privateKeyHex: pair.privateKey, publicKeyCompressed: pair.publicKey, publicKeyUncompressed: pair.publicKeyUncompressed };
}

const usdb = (code: string) => ({ currencyCode: code, minAmount: 1, maxAmount: 1_000_000_000_000, requiredCounterpartyFields: [], enabledTransactionTypes: ['INCOMING', 'OUTGOING'] });

/** Makes the platform of `auth` a USDB platform, so its new customers get an Embedded Wallet. */
export async function enableWallets(t: TestPlatform, auth: string): Promise<void> {
  const patched = await t.call('PATCH', '/config', { auth, body: { supportedCurrencies: [usdb('USD'), usdb('USDB')] } });
  if (patched.status !== 200) throw new Error(`PATCH /config: ${patched.status} ${JSON.stringify(patched.body)}`);
}

/** A new customer with an email, and its Embedded Wallet internal account. */
export async function walletCustomer(t: TestPlatform, auth: string, email = `holder-${Math.random().toString(36).slice(2)}@example.com`): Promise<{ customerId: string; accountId: string; email: string }> {
  const created = await t.call('POST', '/customers', { auth, body: { customerType: 'INDIVIDUAL', fullName: 'Wallet Holder', email } });
  if (created.status !== 201) throw new Error(`POST /customers: ${created.status} ${JSON.stringify(created.body)}`);
  const customerId = created.body.id as string;
  const accountId = await eventually(
    async () => (await t.call('GET', `/customers/internal-accounts?customerId=${encodeURIComponent(customerId)}&type=EMBEDDED_WALLET`, { auth })).body.data?.[0]?.id as string | undefined,
    { what: `Embedded Wallet of ${customerId}` },
  );
  return { customerId, accountId, email };
}

/** Both legs of a signed retry: the 202's payloadToSign stamped by `key`, sent back with its Request-Id. */
export async function signed<T = any>(t: TestPlatform, method: string, path: string, body: unknown, key: ClientKey, auth?: string): Promise<{ first: HttpResult; final: HttpResult<T> }> {
  const as = auth ? { auth } : {};
  const first = await t.call(method, path, { ...as, body });
  if (first.status !== 202) return { first, final: first };
  const stamp = await walletStamp(key, first.body.payloadToSign);
  const final = await t.call<T>(method, path, { ...as, body, headers: { 'Service-Wallet-Signature': stamp, 'Request-Id': first.body.requestId } });
  return { first, final };
}

/** The OTP login of an EMAIL_OTP / SMS_OTP credential, as a client does it with @turnkey/crypto; answers the session and its key. */
export async function otpLogin(t: TestPlatform, credentialId: string, options: { auth?: string; otp?: string } = {}): Promise<{ session: any; key: ClientKey }> {
  const challenged = await t.call('POST', `/auth/credentials/${credentialId}/challenge`, { ...(options.auth ? { auth: options.auth } : {}), body: {} });
  if (challenged.status !== 200) throw new Error(`challenge: ${challenged.status} ${JSON.stringify(challenged.body)}`);
  const key = clientKey();
  const encryptedOtpBundle = await encryptOtp(challenged.body.otpEncryptionTargetBundle, options.otp ?? '000000', key.publicKeyCompressed);
  const { first, final } = await signed(t, 'POST', `/auth/credentials/${credentialId}/verify`, { type: challenged.body.type, encryptedOtpBundle }, key, options.auth);
  if (first.status !== 202 || final.status !== 200) throw new Error(`verify: ${first.status} ${JSON.stringify(first.body)} then ${final.status} ${JSON.stringify(final.body)}`);
  return { session: final.body, key };
}

/**
 * `encryptedOtpBundle` made by @turnkey/crypto. The client checks the bundle's signature against the key it pins; a
 * self-hosted server's signer key is the one its bundles carry (`enclaveQuorumPublic`), pinned here on first use.
 */
export function encryptOtp(otpEncryptionTargetBundle: string, otp: string, tekPublicKey: string): Promise<string> {
  const pinned = JSON.parse(otpEncryptionTargetBundle).enclaveQuorumPublic as string;
  return turnkeyCrypto.encryptOtpCodeToBundle(otp, otpEncryptionTargetBundle, tekPublicKey, pinned);
}
