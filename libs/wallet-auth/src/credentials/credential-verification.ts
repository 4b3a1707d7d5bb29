import { v7 as uuidv7 } from 'uuid';
import { ApiError, AuthSession, AuthSignedRequestChallenge, CallerContext, invalidInput, SignedBody, SignedOutcome, VerifyAuthCredentialRequest } from '@payments/contracts';
import { checkOidcToken, openOtpBundle, signVerificationToken, verifyPasskeyAssertion } from '@payments/wallet-crypto';
import { bodySha256, checkSignedRetry } from '../signed-retry/signed-retry';
import type { WalletContext } from '../wallets/wallet-context';
import { OTP_FAILURES_MAX } from '../wallets/wallet.decider';
import { ActiveWallet, CredentialState, OTP_RATE_WINDOW_MS } from '../wallets/wallet.state';

/** The sandbox's legacy literal for a passkey assertion's signature: skips the WebAuthn checks there, never in production. */
export const SANDBOX_PASSKEY_SIGNATURE = 'sandbox-valid-passkey-signature';

type Request = SignedBody<{ credentialId: string } & VerifyAuthCredentialRequest>;
type Outcome = SignedOutcome<AuthSession, AuthSignedRequestChallenge>;
const unauthorized = (message: string) => new ApiError('UNAUTHORIZED', message, { reason: message });

/** POST /auth/credentials/{id}/verify: the OTP two-leg login, OAUTH and PASSKEY; each ends in a session. */
export class CredentialVerification {
  constructor(private readonly ctx: WalletContext) {}

  async verify(caller: CallerContext, request: Request, now: string): Promise<Outcome> {
    const wallet = await this.ctx.store.ofId(caller, request.credentialId, 'credential');
    const credential = wallet.credentials.find((c) => c.id === request.credentialId);
    if (!credential) throw new ApiError('REFERENCE_NOT_FOUND', 'credential not found');
    if (credential.type !== request.type) throw invalidInput('type', `this credential is ${credential.type}, not ${request.type}`);
    switch (credential.type) {
      case 'EMAIL_OTP':
      case 'SMS_OTP':
        return this.otp(caller, wallet, credential, request, now);
      case 'OAUTH':
        return { result: await this.oauth(caller, wallet, credential, request, now) };
      case 'PASSKEY':
        return { result: await this.passkey(caller, wallet, credential, request, now) };
    }
  }

  /**
   * Leg 1 opens the HPKE bundle with the current OTP's target key and checks the code; a right code is used up and
   * answered with a verification token bound to the client's key (TEK). Leg 2 is that token stamped by the TEK.
   */
  private async otp(caller: CallerContext, wallet: ActiveWallet, credential: CredentialState, request: Request, now: string): Promise<Outcome> {
    const { signature, ...body } = request;
    const retry = checkSignedRetry(wallet, signature, { operation: 'VERIFY_OTP', target: credential.id, body }, now);
    if (retry !== 'FIRST_LEG') {
      // The key of the challenge (the TEK) becomes the session key: the client already holds it.
      const clientPublicKey = retry.challenge.signer.kind === 'KEY' ? retry.challenge.signer.publicKey : retry.signerPublicKey!;
      return { result: await this.ctx.openSession(caller, wallet, { credentialId: credential.id, type: credential.type, clientPublicKey, answer: retry.answer }, now) };
    }
    const failures = wallet.otpFailures.filter((f) => f.credentialId === credential.id && Date.parse(now) - Date.parse(f.at) < OTP_RATE_WINDOW_MS);
    if (failures.length >= OTP_FAILURES_MAX) {
      const retryAfterSeconds = Math.max(1, Math.ceil((Date.parse(failures[0].at) + OTP_RATE_WINDOW_MS - Date.parse(now)) / 1000));
      throw new ApiError('RATE_LIMITED', 'too many wrong OTPs for this credential', { retryAfterSeconds });
    }
    const otp = wallet.otps.find((o) => o.credentialId === credential.id && Date.parse(o.expiresAt) > Date.parse(now));
    if (!otp) throw unauthorized('no OTP is pending for this credential (expired, used or never sent): request one with POST /auth/credentials/{id}/challenge');
    const opened = await openOtpBundle(body.encryptedOtpBundle!, this.ctx.keys.otpTargetKey(otp.issueId).privateKey);
    if (!opened.ok && opened.reason === 'MALFORMED') throw invalidInput('encryptedOtpBundle', opened.message);
    if (!opened.ok || !this.ctx.keys.otpMatches(otp.issueId, opened.otpCode, otp.codeHash)) {
      const reason = opened.ok ? 'Invalid OTP code' : 'the bundle was not sealed to the current otpEncryptionTargetBundle';
      await this.ctx.store.change(caller, wallet.accountId, { type: 'FailOtp', credentialId: credential.id, reason, now });
      throw unauthorized(reason);
    }
    const requestId = `Request:${uuidv7()}`;
    const expiresAt = this.ctx.expiry(now, this.ctx.config.challengeTtlMs);
    const token = signVerificationToken(
      {
        id: requestId,
        verification_type: credential.type === 'EMAIL_OTP' ? 'OTP_TYPE_EMAIL' : 'OTP_TYPE_SMS',
        contact: credential.contact ?? credential.nickname,
        organization_id: wallet.organizationId,
        public_key: opened.publicKey.compressed,
        iat: Math.floor(Date.parse(now) / 1000),
        exp: String(Date.parse(expiresAt)),
      },
      this.ctx.keys.signer,
      this.ctx.verificationTokenKid,
    );
    const challenge = {
      requestId, operation: 'VERIFY_OTP' as const, target: credential.id, bodySha256: bodySha256(body), payloadToSign: token,
      signer: { kind: 'KEY' as const, publicKey: opened.publicKey.compressed }, createdAt: now, expiresAt,
    };
    await this.ctx.store.change(caller, wallet.accountId, { type: 'AcceptOtp', credentialId: credential.id, issueId: otp.issueId, challenge, now });
    return { challenge: { payloadToSign: token, requestId, expiresAt, type: credential.type } };
  }

  /** One call: a fresh token of the registered identity whose nonce commits to `clientPublicKey`. */
  private async oauth(caller: CallerContext, wallet: ActiveWallet, credential: CredentialState, request: Request, now: string): Promise<AuthSession> {
    const checked = await checkOidcToken(request.oidcToken!, { now: new Date(now), mode: wallet.mode, clientPublicKey: request.clientPublicKey, expected: credential.oauth, keys: this.ctx.config.oidcKeys });
    if (!checked.ok) throw checked.malformed ? invalidInput('oidcToken', checked.message) : unauthorized(`the OIDC token failed its ${checked.reason} check: ${checked.message}`);
    return this.ctx.openSession(caller, wallet, { credentialId: credential.id, type: 'OAUTH', clientPublicKey: request.clientPublicKey! }, now);
  }

  /** The assertion answers the challenge named by Request-Id; the session is for the key that challenge was bound to. */
  private async passkey(caller: CallerContext, wallet: ActiveWallet, credential: CredentialState, request: Request, now: string): Promise<AuthSession> {
    const { requestId } = request.signature;
    if (!requestId) throw new ApiError('REQUEST_ID_MISSING', 'send the requestId of the passkey challenge as the Request-Id header', { reason: 'Request-Id missing' });
    const challenge = wallet.challenges.find((c) => c.requestId === requestId && c.operation === 'VERIFY_PASSKEY' && c.target === credential.id && Date.parse(c.expiresAt) > Date.parse(now));
    if (!challenge || !challenge.clientPublicKey) throw unauthorized('the Request-Id is unknown, already used or expired: request a new passkey challenge');
    const assertion = request.assertion!;
    const stored = credential.passkey!;
    let counter = stored.counter;
    if (!(wallet.mode === 'SANDBOX' && assertion.signature === SANDBOX_PASSKEY_SIGNATURE)) {
      const { rpId, origins } = this.ctx.config.passkey;
      const registered = { credentialId: stored.credentialId, publicKey: stored.publicKey, counter: stored.counter, transports: stored.transports as never[] };
      const verified = await verifyPasskeyAssertion({ assertion, credential: registered, challengeHex: challenge.payloadToSign, origins, rpId });
      if (!verified.ok) throw unauthorized(`the passkey assertion failed its ${verified.reason} check: ${verified.message}`);
      counter = verified.newCounter;
    }
    const answer = { requestId, operation: 'VERIFY_PASSKEY' as const, target: credential.id };
    return this.ctx.openSession(caller, wallet, { credentialId: credential.id, type: 'PASSKEY', clientPublicKey: challenge.clientPublicKey, answer, passkeyCounter: counter }, now);
  }
}
