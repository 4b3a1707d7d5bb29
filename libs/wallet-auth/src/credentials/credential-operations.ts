import { v7 as uuidv7 } from 'uuid';
import {
  ApiError,
  AuthCredentialChallenge,
  AuthCredentialList,
  AuthMethodResponse,
  AuthSignedRequestChallenge,
  CallerContext,
  ChallengeAuthCredentialRequest,
  CreateAuthCredentialRequest,
  invalidInput,
  SignedBody,
  SignedOutcome,
  WalletSignatureHeaders,
} from '@payments/contracts';
import { checkOidcToken, oidcIdentity, oidcNickname, verifyPasskeyRegistration } from '@payments/wallet-crypto';
import { checkSignedRetry } from '../signed-retry/signed-retry';
import { credentialConflict } from '../wallets/wallet.decider';
import type { WalletContext } from '../wallets/wallet-context';
import type { CredentialRecord } from '../wallets/wallet.events';
import type { ActiveWallet } from '../wallets/wallet.state';
import { toAuthMethod } from '../wallets/wallet.views';
import { passkeyChallenge } from './passkey-challenge';

const ADD_ACTIVITY = { EMAIL_OTP: 'ACTIVITY_TYPE_UPDATE_USER_EMAIL', SMS_OTP: 'ACTIVITY_TYPE_UPDATE_USER_PHONE_NUMBER', OAUTH: 'ACTIVITY_TYPE_CREATE_OAUTH_PROVIDERS', PASSKEY: 'ACTIVITY_TYPE_CREATE_AUTHENTICATORS_V2' } as const;

/** Adding, listing, revoking and re-challenging the credentials of an Embedded Wallet. */
export class CredentialOperations {
  constructor(private readonly ctx: WalletContext) {}

  async list(caller: CallerContext, accountId: string, now: string): Promise<AuthCredentialList> {
    const wallet = await this.ctx.store.ofAccount(caller, accountId, now).catch(notFoundAsNone);
    return { data: wallet ? wallet.credentials.map((c) => toAuthMethod(wallet, c)) : [] };
  }

  async create(caller: CallerContext, request: SignedBody<CreateAuthCredentialRequest>, now: string): Promise<SignedOutcome<AuthMethodResponse, AuthSignedRequestChallenge>> {
    const { signature, ...body } = request;
    const wallet = await this.ctx.store.ofAccount(caller, body.accountId, now);
    // Checked on both legs: the first answers what is wrong before anyone signs, the retry builds what it adds.
    const credential = await this.credentialFrom(caller, wallet, body, now);
    const conflict = credentialConflict(wallet, credential);
    if (conflict) throw new ApiError(conflict.code, conflict.message, conflict.details);
    const retry = checkSignedRetry(wallet, signature, { operation: 'CREATE_CREDENTIAL', target: null, body }, now);
    if (retry === 'FIRST_LEG') {
      const parameters = { userId: wallet.accountId, credentialType: body.type, ...(credential.contact ? { contact: credential.contact } : {}) };
      const challenge = await this.ctx.challenge(caller, wallet, { operation: 'CREATE_CREDENTIAL', target: null, body, signer: { kind: 'SESSION' }, activity: ADD_ACTIVITY[body.type], parameters }, now);
      return { challenge: { ...challenge, type: body.type } };
    }
    const otp = credential.contact ? await this.ctx.newOtp(caller, wallet, now) : undefined;
    const after = await this.ctx.store.change(caller, wallet.accountId, { type: 'AddCredential', answer: retry.answer, credential, otp: otp && { issueId: otp.issueId, codeHash: otp.codeHash, expiresAt: otp.expiresAt }, now });
    const added = after.status === 'ACTIVE' ? after.credentials.find((c) => c.id === credential.id) : undefined;
    if (!added || after.status !== 'ACTIVE') throw new ApiError('INTERNAL_ERROR', 'the credential was not recorded');
    if (otp) await this.ctx.deliverOtp(after, added, otp);
    return { result: { ...toAuthMethod(after, added), ...(otp ? { otpEncryptionTargetBundle: this.ctx.otpBundle(otp.issueId) } : {}) } };
  }

  async revoke(caller: CallerContext, credentialId: string, signature: WalletSignatureHeaders, now: string): Promise<SignedOutcome<null, AuthSignedRequestChallenge>> {
    const wallet = await this.ctx.store.ofId(caller, credentialId, 'credential');
    const credential = wallet.credentials.find((c) => c.id === credentialId);
    if (!credential) throw new ApiError('REFERENCE_NOT_FOUND', 'credential not found');
    if (wallet.credentials.length === 1) throw invalidInput('id', 'the last credential of an account cannot be revoked');
    const body = { credentialId };
    const retry = checkSignedRetry(wallet, signature, { operation: 'REVOKE_CREDENTIAL', target: credentialId, body }, now);
    if (retry === 'FIRST_LEG') {
      const spec = { operation: 'REVOKE_CREDENTIAL' as const, target: credentialId, body, signer: { kind: 'SESSION' as const, notOfCredentialId: credentialId }, activity: 'ACTIVITY_TYPE_DELETE_AUTHENTICATORS', parameters: { authenticatorIds: [credentialId], userId: wallet.accountId } };
      return { challenge: { ...(await this.ctx.challenge(caller, wallet, spec, now)), type: credential.type } };
    }
    await this.ctx.store.change(caller, wallet.accountId, { type: 'RevokeCredential', answer: retry.answer, credentialId, now });
    return { result: null };
  }

  /** OTP credentials: a new OTP and its target bundle. PASSKEY: a WebAuthn challenge bound to `clientPublicKey`. */
  async challenge(caller: CallerContext, credentialId: string, body: ChallengeAuthCredentialRequest, now: string): Promise<AuthCredentialChallenge> {
    const wallet = await this.ctx.store.ofId(caller, credentialId, 'credential');
    const credential = wallet.credentials.find((c) => c.id === credentialId);
    if (!credential) throw new ApiError('REFERENCE_NOT_FOUND', 'credential not found');
    if (credential.type === 'OAUTH') throw invalidInput('id', 'OAUTH credentials have no challenge: verify with a fresh oidcToken and clientPublicKey');
    if (credential.type === 'PASSKEY') {
      if (!body.clientPublicKey) throw invalidInput('clientPublicKey', 'clientPublicKey is required to challenge a PASSKEY credential');
      return passkeyChallenge(this.ctx, caller, wallet, credential, body.clientPublicKey, now);
    }
    const otp = await this.ctx.newOtp(caller, wallet, now);
    const after = await this.ctx.store.change(caller, wallet.accountId, { type: 'IssueOtp', credentialId, issueId: otp.issueId, codeHash: otp.codeHash, expiresAt: otp.expiresAt, now });
    const current = after.status === 'ACTIVE' ? after : wallet;
    const updated = current.credentials.find((c) => c.id === credentialId) ?? credential;
    await this.ctx.deliverOtp(current, updated, otp);
    return { ...toAuthMethod(current, updated), otpEncryptionTargetBundle: this.ctx.otpBundle(otp.issueId) };
  }

  /** What the request would add, fully checked (OIDC token, passkey attestation, the customer's contact). */
  private async credentialFrom(caller: CallerContext, wallet: ActiveWallet, body: CreateAuthCredentialRequest, now: string): Promise<CredentialRecord> {
    const id = `AuthMethod:${uuidv7()}`;
    switch (body.type) {
      case 'EMAIL_OTP':
      case 'SMS_OTP': {
        if (wallet.credentials.some((c) => c.type === body.type)) throw new ApiError(`${body.type}_CREDENTIAL_ALREADY_EXISTS`, `the account already has an ${body.type} credential`); // before asking identity
        const owner = await this.ctx.store.ownerOf(caller, wallet.accountId);
        const contact = body.type === 'EMAIL_OTP' ? owner.email : owner.phoneNumber;
        if (!contact) throw invalidInput('type', `the customer has no ${body.type === 'EMAIL_OTP' ? 'email' : 'phoneNumber'} to send OTPs to`);
        return { id, type: body.type, nickname: contact, contact, createdAt: now };
      }
      case 'OAUTH': {
        const checked = await checkOidcToken(body.oidcToken!, { now: new Date(now), mode: wallet.mode, keys: this.ctx.config.oidcKeys });
        if (!checked.ok) throw checked.malformed ? invalidInput('oidcToken', checked.message) : new ApiError('UNAUTHORIZED', checked.message, { reason: checked.message });
        return { id, type: 'OAUTH', nickname: oidcNickname(checked.claims), oauth: oidcIdentity(checked.claims), createdAt: now };
      }
      case 'PASSKEY': {
        const { rpId, origins } = this.ctx.config.passkey;
        const verified = await verifyPasskeyRegistration({ challenge: body.challenge!, attestation: body.attestation!, origins, rpId });
        if (!verified.ok) throw invalidInput('attestation', `the passkey registration failed its ${verified.reason} check: ${verified.message}`);
        const { credentialId, publicKey, counter, transports } = verified.credential;
        return { id, type: 'PASSKEY', nickname: body.nickname!, passkey: { credentialId, publicKey, counter, transports, registrationChallenge: body.challenge! }, createdAt: now };
      }
    }
  }
}

/** List endpoints answer an empty list for an account that is not one of the caller's wallets (as the published API does). */
export function notFoundAsNone(error: unknown): undefined {
  if (error instanceof ApiError && error.status === 404) return undefined;
  throw error;
}
