import { randomInt } from 'node:crypto';
import { v7 as uuidv7 } from 'uuid';
import { AuthMethodType, AuthSession, CallerContext, SignedRequestChallenge } from '@payments/contracts';
import type { ContactCodeSender } from '@payments/runtime';
import { generateP256KeyPair, isCompressedPublicKey, legacySessionKeyBundle, otpTargetBundle, parseP256PublicKey } from '@payments/wallet-crypto';
import type { JWTVerifyGetKey } from 'jose';
import type { EffectiveWalletConfig } from '../directory/wallet-directory';
import type { WalletServerKeys } from '../keys/server-keys';
import { activityPayload, bodySha256 } from '../signed-retry/signed-retry';
import type { Answer } from './wallet.decider';
import type { ChallengeSigner, PendingChallenge, SessionRecord, WalletOperation } from './wallet.events';
import type { WalletStore } from './wallet-store';
import type { ActiveWallet, CredentialState } from './wallet.state';
import { toAuthSession } from './wallet.views';

export interface WalletAuthConfig {
  /** Lifetime of a session (15 minutes). */
  sessionTtlMs: number;
  /** How long a signed-retry or passkey challenge can be answered (5 minutes). */
  challengeTtlMs: number;
  /** WebAuthn relying party of wallet passkeys. */
  passkey: { rpId: string; origins: string[] };
  /** Issuer keys for OIDC signatures in production (defaultOidcKeyResolver). */
  oidcKeys?: (issuer: string) => JWTVerifyGetKey;
}

export const SANDBOX_OTP = '000000';
const OTP_DIGITS = '0123456789';
/** Upper-case letters and digits without look-alikes (0/O, 1/I). */
const OTP_ALPHANUMERIC = '23456789ABCDEFGHJKLMNPQRSTUVWXYZ';

export interface NewOtp {
  issueId: string;
  code: string;
  codeHash: string;
  expiresAt: string;
  config: EffectiveWalletConfig;
}
const VERIFICATION_TOKEN_KID = 'payments-platform-enclave';

/** A challenge to issue: what it answers, who may sign it and the activity it shows the signer. */
export interface ChallengeSpec {
  operation: WalletOperation;
  target: string | null;
  body: unknown;
  signer: ChallengeSigner;
  activity: string;
  parameters: Record<string, unknown>;
}

/** The 202 body of a recorded challenge. */
export function challengeAnswer(challenge: PendingChallenge): SignedRequestChallenge {
  return { payloadToSign: challenge.payloadToSign, requestId: challenge.requestId, expiresAt: challenge.expiresAt };
}

/** What the wallet operations share: the store, the server keys, the OTP sender and the configuration. */
export class WalletContext {
  constructor(
    readonly store: WalletStore,
    readonly keys: WalletServerKeys,
    readonly sender: ContactCodeSender,
    readonly config: WalletAuthConfig,
  ) {}

  expiry(now: string, ms: number): string {
    return new Date(Date.parse(now) + ms).toISOString();
  }

  /** Leg 1 of a signed retry: records the challenge and answers it for the 202. */
  async challenge(caller: CallerContext, wallet: ActiveWallet, spec: ChallengeSpec, now: string, boundCredentialIds?: string[]): Promise<SignedRequestChallenge> {
    const challenge = this.newChallenge(wallet, spec, now, boundCredentialIds ? { boundCredentialIds } : {});
    await this.store.change(caller, wallet.accountId, { type: 'IssueChallenge', challenge, now });
    return challengeAnswer(challenge);
  }

  /**
   * A challenge to sign, not yet recorded: for an effect that issues the next challenge in its own append (the second
   * leg of a delegated key creation). `bound` is what the challenge carries beyond the request.
   */
  newChallenge(wallet: ActiveWallet, spec: ChallengeSpec, now: string, bound: Pick<PendingChallenge, 'boundCredentialIds' | 'delegatedKeyId'> = {}): PendingChallenge {
    const requestId = `Request:${uuidv7()}`;
    const digest = bodySha256(spec.body);
    const payloadToSign = activityPayload({ activity: spec.activity, organizationId: wallet.organizationId, parameters: spec.parameters, requestId, bodySha256: digest, now });
    const expiresAt = this.expiry(now, this.config.challengeTtlMs);
    return { requestId, operation: spec.operation, target: spec.target, bodySha256: digest, payloadToSign, signer: spec.signer, createdAt: now, expiresAt, ...bound };
  }

  /**
   * Opens a session for `clientPublicKey`: a compressed key is the session key itself (the client holds it); an
   * uncompressed one (deprecated) gets a fresh server-made key, sealed to it as `encryptedSessionSigningKey`.
   */
  async openSession(
    caller: CallerContext,
    wallet: ActiveWallet,
    input: { credentialId: string; type: AuthMethodType; clientPublicKey: string; answer?: Answer; passkeyCounter?: number },
    now: string,
  ): Promise<AuthSession> {
    const legacy = !isCompressedPublicKey(input.clientPublicKey);
    const sessionKey = legacy ? generateP256KeyPair() : undefined;
    const publicKey = sessionKey ? sessionKey.publicKeyCompressed : parseP256PublicKey(input.clientPublicKey)!.compressed;
    const session: SessionRecord = { id: `Session:${uuidv7()}`, credentialId: input.credentialId, type: input.type, publicKey, createdAt: now, expiresAt: this.expiry(now, this.config.sessionTtlMs) };
    const after = await this.store.change(caller, wallet.accountId, { type: 'OpenSession', session, answer: input.answer, passkeyCounter: input.passkeyCounter, now });
    const view = toAuthSession(after.status === 'ACTIVE' ? after : wallet, session);
    if (!sessionKey) return view;
    return { ...view, encryptedSessionSigningKey: await legacySessionKeyBundle(sessionKey.privateKey, parseP256PublicKey(input.clientPublicKey)!.uncompressed) };
  }

  /**
   * A new OTP as the platform's embeddedWalletConfig says (length, letters or digits, lifetime; sandbox: 000000, its
   * lifetime still configured): its hash for the event, the code for delivery.
   */
  async newOtp(caller: CallerContext, wallet: ActiveWallet, now: string): Promise<NewOtp> {
    // A code production cannot deliver is not issued (501 before anything is recorded).
    if (wallet.mode !== 'SANDBOX') this.sender.assertConfigured();
    const config = await this.store.walletConfig(caller);
    const issueId = `OtpIssue:${uuidv7()}`;
    const alphabet = config.alphanumeric ? OTP_ALPHANUMERIC : OTP_DIGITS;
    const code = wallet.mode === 'SANDBOX' ? SANDBOX_OTP : Array.from({ length: config.otpLength }, () => alphabet[randomInt(alphabet.length)]).join('');
    return { issueId, code, codeHash: this.keys.otpHash(issueId, code), expiresAt: this.expiry(now, config.expirationSeconds * 1000), config };
  }

  /** Production only: the code goes to the credential's contact through the operator's gateway; the sandbox sends nothing. */
  async deliverOtp(wallet: ActiveWallet, credential: CredentialState, otp: NewOtp): Promise<void> {
    if (wallet.mode === 'SANDBOX' || !credential.contact) return;
    const channel = credential.type === 'SMS_OTP' ? 'phone' : 'email';
    const { appName, sendFromEmailAddress, sendFromEmailSenderName, replyToEmailAddress, logoUrl } = otp.config;
    const sender = { appName, sendFromEmailAddress, sendFromEmailSenderName, replyToEmailAddress, logoUrl };
    await this.sender.send({ customerId: wallet.customerId, channel, destination: credential.contact, code: otp.code, purpose: 'EMBEDDED_WALLET_LOGIN', sender });
  }

  /** The HPKE target of an OTP issue: the key derived for it, signed by the enclave key. */
  otpBundle(issueId: string): string {
    return otpTargetBundle(this.keys.otpTargetKey(issueId).publicKeyUncompressed, this.keys.signer);
  }

  get verificationTokenKid(): string {
    return VERIFICATION_TOKEN_KID;
  }
}
