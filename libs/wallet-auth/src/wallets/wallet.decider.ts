import type { Mode } from '@payments/contracts';
import { assertNever, Decider, Decision, DomainError } from '@payments/eventsourcing';
import type { CredentialRecord, DelegatedKeyRecord, PendingChallenge, SessionRecord, WalletEvent, WalletOperation } from './wallet.events';
import { ActiveWallet, DelegatedKeyState, evolveWallet, OTP_RATE_WINDOW_MS, WalletState } from './wallet.state';

/** OTPs issued per credential within OTP_RATE_WINDOW_MS before 429. */
export const OTP_ISSUES_MAX = 5;
/** Wrong OTPs per credential within the window: the current OTP is burned and further attempts are 429. */
export const OTP_FAILURES_MAX = 5;

/** A signed retry answering a challenge: which one, for what, and the session whose key signed it (re-checked here). */
export interface Answer {
  requestId: string;
  operation: WalletOperation;
  target: string | null;
  signerSessionId?: string;
}

type Now = { now: string };
export type Provision = { type: 'Provision'; accountId: string; customerId: string; platformId: string; mode: Mode; organizationId: string; sealedMnemonic: string; firstCredential?: CredentialRecord } & Now;
export type IssueChallenge = { type: 'IssueChallenge'; challenge: PendingChallenge } & Now;
export type AddCredential = { type: 'AddCredential'; answer: Answer; credential: CredentialRecord; otp?: { issueId: string; codeHash: string; expiresAt: string } } & Now;
export type RevokeCredential = { type: 'RevokeCredential'; answer: Answer; credentialId: string } & Now;
export type IssueOtp = { type: 'IssueOtp'; credentialId: string; issueId: string; codeHash: string; expiresAt: string } & Now;
export type FailOtp = { type: 'FailOtp'; credentialId: string; reason: string } & Now;
/** A right OTP: it is used up, and the verification token to sign becomes the pending challenge. */
export type AcceptOtp = { type: 'AcceptOtp'; credentialId: string; issueId: string; challenge: PendingChallenge } & Now;
export type OpenSession = { type: 'OpenSession'; answer?: Answer; session: SessionRecord; passkeyCounter?: number } & Now;
export type RevokeSession = { type: 'RevokeSession'; answer: Answer; sessionId: string } & Now;
export type ExportWallet = { type: 'ExportWallet'; answer: Answer; keyDigest: string } & Now;
/** The customer's email (EMAIL_OTP) or phone (SMS_OTP) changed: the tied credential follows, signed or restored. */
export type ChangeContact = { type: 'ChangeContact'; answer?: Answer; credentialType: 'EMAIL_OTP' | 'SMS_OTP'; contact: string } & Now;
/** A signed request of another service: the answer is all that is recorded here (the effect is the other service's). */
export type AnswerChallenge = { type: 'AnswerChallenge'; answer: Answer } & Now;

/**
 * POST /auth/delegated-keys, leg 2: answers the first challenge, records the new key PENDING and issues the challenge
 * of leg 3 (`challenge`, ACTIVATE_DELEGATED_KEY, naming the key), all in one append.
 */
export type CreateDelegatedKey = { type: 'CreateDelegatedKey'; answer: Answer; key: DelegatedKeyRecord; challenge: PendingChallenge } & Now;
/** Leg 3: answers the challenge leg 2 issued; the key it names becomes ACTIVE. */
export type ActivateDelegatedKey = { type: 'ActivateDelegatedKey'; answer: Answer; delegatedKeyId: string } & Now;
/** DELETE /auth/delegated-keys/{id}: only an ACTIVE key. */
export type RevokeDelegatedKey = { type: 'RevokeDelegatedKey'; delegatedKeyId: string } & Now;

export type WalletCommand =
  | Provision
  | IssueChallenge
  | AddCredential
  | RevokeCredential
  | IssueOtp
  | FailOtp
  | AcceptOtp
  | OpenSession
  | RevokeSession
  | ExportWallet
  | AnswerChallenge
  | ChangeContact
  | CreateDelegatedKey
  | ActivateDelegatedKey
  | RevokeDelegatedKey;

const unauthorized = (message: string) => new DomainError('UNAUTHORIZED', message, { reason: message });
const notFound = (what: string) => new DomainError('REFERENCE_NOT_FOUND', `${what} not found`);
const invalid = (field: string, message: string) => new DomainError('INVALID_INPUT', message, { errors: [{ field, message }] });
const after = (iso: string, now: string) => Date.parse(iso) > Date.parse(now);

const inWindow = (entries: { credentialId: string; at: string }[], credentialId: string, now: string) =>
  entries.filter((e) => e.credentialId === credentialId && Date.parse(now) - Date.parse(e.at) < OTP_RATE_WINDOW_MS);
const countIn = (entries: { credentialId: string; at: string }[], credentialId: string, now: string) => inWindow(entries, credentialId, now).length;

/** 429 with the seconds until the oldest counted entry leaves the window (entries the window already left are not counted). */
function rateLimited(entries: { credentialId: string; at: string }[], credentialId: string, now: string, message: string): DomainError {
  const oldest = inWindow(entries, credentialId, now).map((e) => Date.parse(e.at)).sort((a, b) => a - b)[0] ?? Date.parse(now);
  const retryAfterSeconds = Math.max(1, Math.ceil((oldest + OTP_RATE_WINDOW_MS - Date.parse(now)) / 1000));
  return new DomainError('RATE_LIMITED', message, { retryAfterSeconds });
}

/** The challenge must still be pending, for this operation and target; the signing session must still be live. */
function answering(wallet: ActiveWallet, answer: Answer, now: string): DomainError | WalletEvent {
  const challenge = wallet.challenges.find((c) => c.requestId === answer.requestId);
  if (!challenge || !after(challenge.expiresAt, now) || challenge.operation !== answer.operation || challenge.target !== answer.target) {
    return unauthorized('the Request-Id is unknown, already used or expired: start the request again');
  }
  if (answer.signerSessionId && !wallet.sessions.some((s) => s.id === answer.signerSessionId && after(s.expiresAt, now))) {
    return new DomainError('WALLET_SIGNATURE_INVALID', 'the signing session ended before the request completed');
  }
  return { type: 'WalletChallengeAnswered.v1', data: { requestId: answer.requestId, at: now } };
}

/** Why the wallet cannot take this credential (one EMAIL_OTP, one SMS_OTP, each passkey, challenge and OAuth identity once). */
export function credentialConflict(wallet: ActiveWallet, credential: CredentialRecord): DomainError | undefined {
  const same = (type: string) => wallet.credentials.some((c) => c.type === type);
  if (credential.type === 'EMAIL_OTP' && same('EMAIL_OTP')) return new DomainError('EMAIL_OTP_CREDENTIAL_ALREADY_EXISTS', 'the account already has an EMAIL_OTP credential');
  if (credential.type === 'SMS_OTP' && same('SMS_OTP')) return new DomainError('SMS_OTP_CREDENTIAL_ALREADY_EXISTS', 'the account already has an SMS_OTP credential');
  if (credential.passkey) {
    const { credentialId, registrationChallenge } = credential.passkey;
    if (wallet.credentials.some((c) => c.passkey?.credentialId === credentialId)) return new DomainError('PASSKEY_CREDENTIAL_ALREADY_EXISTS', 'this passkey is already registered on the account');
    if (wallet.credentials.some((c) => c.passkey?.registrationChallenge === registrationChallenge)) return invalid('challenge', 'this registration challenge was already used');
  }
  if (credential.oauth) {
    const { iss, aud, sub } = credential.oauth;
    if (wallet.credentials.some((c) => c.oauth?.iss === iss && c.oauth.aud === aud && c.oauth.sub === sub)) return invalid('oidcToken', 'this OAuth identity is already a credential of the account');
  }
  return undefined;
}

/** 409 when the funding source already has an ACTIVE delegated key (PENDING and REVOKED ones do not count). */
export function delegatedKeyConflict(wallet: ActiveWallet, fundingSourceId: string, exceptKeyId?: string): DomainError | undefined {
  const active = wallet.delegatedKeys.find((k) => k.fundingSourceId === fundingSourceId && k.status === 'ACTIVE' && k.id !== exceptKeyId);
  return active ? new DomainError('DELEGATED_KEY_EXISTS', `the funding source already has an ACTIVE delegated key (${active.id}): revoke it first`) : undefined;
}

/**
 * The key that signs for a funding source: its ACTIVE delegated key, with its sealed private key. A PENDING key
 * (the third leg never came) and a REVOKED key sign nothing: 404 DELEGATED_KEY_NOT_FOUND.
 */
export function delegatedSigner(wallet: ActiveWallet, fundingSourceId: string): (DelegatedKeyState & { sealedPrivateKey: string }) | DomainError {
  const key = wallet.delegatedKeys.find((k) => k.fundingSourceId === fundingSourceId && k.status === 'ACTIVE');
  if (!key?.sealedPrivateKey) return new DomainError('DELEGATED_KEY_NOT_FOUND', 'the funding source has no ACTIVE delegated key');
  return { ...key, sealedPrivateKey: key.sealedPrivateKey };
}

function createDelegatedKey(wallet: ActiveWallet, command: CreateDelegatedKey): Decision<WalletEvent> {
  const { answer, key, challenge, now } = command;
  if (answer.operation !== 'CREATE_DELEGATED_KEY' || challenge.operation !== 'ACTIVATE_DELEGATED_KEY' || challenge.delegatedKeyId !== key.id) {
    return unauthorized('the Request-Id does not answer the second leg of a delegated key creation');
  }
  if (answer.target !== key.fundingSourceId || challenge.target !== key.fundingSourceId) return unauthorized('the Request-Id was issued for another funding source');
  const answered = answering(wallet, answer, now);
  if (answered instanceof DomainError) return answered;
  if (wallet.delegatedKeys.some((k) => k.id === key.id)) return new DomainError('CONFLICT', 'a delegated key with this id exists');
  const conflict = delegatedKeyConflict(wallet, key.fundingSourceId);
  if (conflict) return conflict;
  return [answered, { type: 'WalletDelegatedKeyCreated.v1', data: { key, at: now } }, { type: 'WalletChallengeIssued.v1', data: { challenge, at: now } }];
}

function activateDelegatedKey(wallet: ActiveWallet, command: ActivateDelegatedKey): Decision<WalletEvent> {
  const { answer, delegatedKeyId, now } = command;
  const challenge = wallet.challenges.find((c) => c.requestId === answer.requestId);
  if (answer.operation !== 'ACTIVATE_DELEGATED_KEY' || (challenge && challenge.delegatedKeyId !== delegatedKeyId)) {
    return unauthorized('the Request-Id does not answer the third leg of this delegated key');
  }
  const answered = answering(wallet, answer, now);
  if (answered instanceof DomainError) return answered;
  const key = wallet.delegatedKeys.find((k) => k.id === delegatedKeyId);
  if (!key || key.fundingSourceId !== answer.target) return new DomainError('DELEGATED_KEY_NOT_FOUND', 'delegated key not found');
  if (key.status !== 'PENDING') return new DomainError('INVALID_STATE_TRANSITION', `the delegated key is ${key.status}, not PENDING`);
  const conflict = delegatedKeyConflict(wallet, key.fundingSourceId, key.id);
  if (conflict) return conflict;
  return [answered, { type: 'WalletDelegatedKeyActivated.v1', data: { delegatedKeyId, at: now } }];
}

function revokeDelegatedKey(wallet: ActiveWallet, command: RevokeDelegatedKey): Decision<WalletEvent> {
  const key = wallet.delegatedKeys.find((k) => k.id === command.delegatedKeyId);
  if (!key) return new DomainError('DELEGATED_KEY_NOT_FOUND', 'delegated key not found');
  if (key.status !== 'ACTIVE') return new DomainError('DELEGATED_KEY_NOT_ACTIVE', `only an ACTIVE delegated key can be revoked; this one is ${key.status}`);
  return [{ type: 'WalletDelegatedKeyRevoked.v1', data: { delegatedKeyId: key.id, at: command.now } }];
}

function addCredential(wallet: ActiveWallet, command: AddCredential): Decision<WalletEvent> {
  const answered = answering(wallet, command.answer, command.now);
  if (answered instanceof DomainError) return answered;
  const { credential, now } = command;
  const conflict = credentialConflict(wallet, credential);
  if (conflict) return conflict;
  const events: WalletEvent[] = [answered, { type: 'WalletCredentialAdded.v1', data: { credential, at: now } }];
  if (command.otp) events.push({ type: 'WalletOtpIssued.v1', data: { credentialId: credential.id, ...command.otp, at: now } });
  return events;
}

function decideActive(command: Exclude<WalletCommand, Provision>, wallet: ActiveWallet): Decision<WalletEvent> {
  const { now } = command;
  switch (command.type) {
    case 'IssueChallenge':
      return [{ type: 'WalletChallengeIssued.v1', data: { challenge: command.challenge, at: now } }];
    case 'AddCredential':
      return addCredential(wallet, command);
    case 'RevokeCredential': {
      const answered = answering(wallet, command.answer, now);
      if (answered instanceof DomainError) return answered;
      if (!wallet.credentials.some((c) => c.id === command.credentialId)) return notFound('credential');
      if (wallet.credentials.length === 1) return invalid('id', 'the last credential of an account cannot be revoked');
      return [answered, { type: 'WalletCredentialRevoked.v1', data: { credentialId: command.credentialId, at: now } }];
    }
    case 'IssueOtp': {
      const credential = wallet.credentials.find((c) => c.id === command.credentialId);
      if (!credential) return notFound('credential');
      if (countIn(wallet.otpIssues, credential.id, now) >= OTP_ISSUES_MAX) return rateLimited(wallet.otpIssues, credential.id, now, 'too many OTPs requested for this credential');
      const { credentialId, issueId, codeHash, expiresAt } = command;
      return [{ type: 'WalletOtpIssued.v1', data: { credentialId, issueId, codeHash, expiresAt, at: now } }];
    }
    case 'FailOtp': {
      const events: WalletEvent[] = [{ type: 'WalletOtpAttemptFailed.v1', data: { credentialId: command.credentialId, reason: command.reason, at: now } }];
      const otp = wallet.otps.find((o) => o.credentialId === command.credentialId);
      // The last allowed failure burns the code: guessing cannot go on against it.
      if (otp && countIn(wallet.otpFailures, command.credentialId, now) + 1 >= OTP_FAILURES_MAX) {
        events.push({ type: 'WalletOtpConsumed.v1', data: { credentialId: otp.credentialId, issueId: otp.issueId, at: now } });
      }
      return events;
    }
    case 'AcceptOtp': {
      if (countIn(wallet.otpFailures, command.credentialId, now) >= OTP_FAILURES_MAX) return rateLimited(wallet.otpFailures, command.credentialId, now, 'too many wrong OTPs');
      const otp = wallet.otps.find((o) => o.credentialId === command.credentialId);
      if (!otp || otp.issueId !== command.issueId || !after(otp.expiresAt, now)) return unauthorized('the OTP expired or was replaced: request a new one');
      return [
        { type: 'WalletOtpConsumed.v1', data: { credentialId: otp.credentialId, issueId: otp.issueId, at: now } },
        { type: 'WalletChallengeIssued.v1', data: { challenge: command.challenge, at: now } },
      ];
    }
    case 'OpenSession': {
      const events: WalletEvent[] = [];
      if (command.answer) {
        const answered = answering(wallet, command.answer, now);
        if (answered instanceof DomainError) return answered;
        events.push(answered);
      }
      const credential = wallet.credentials.find((c) => c.id === command.session.credentialId);
      if (!credential) return unauthorized('the credential was revoked');
      // Two assertions verified concurrently against the same stored counter: only the first may count.
      const stored = credential.passkey?.counter ?? 0;
      if (command.passkeyCounter !== undefined && (command.passkeyCounter > 0 || stored > 0) && command.passkeyCounter <= stored) {
        return unauthorized(`the passkey signature counter did not increase (${command.passkeyCounter} after ${stored})`);
      }
      if (command.passkeyCounter !== undefined) events.push({ type: 'WalletPasskeyUsed.v1', data: { credentialId: credential.id, counter: command.passkeyCounter, at: now } });
      events.push({ type: 'WalletSessionOpened.v1', data: { session: command.session, at: now } });
      return events;
    }
    case 'RevokeSession': {
      if (!wallet.sessions.some((s) => s.id === command.sessionId && after(s.expiresAt, now))) return notFound('session');
      const answered = answering(wallet, command.answer, now);
      if (answered instanceof DomainError) return answered;
      return [answered, { type: 'WalletSessionRevoked.v1', data: { sessionId: command.sessionId, at: now } }];
    }
    case 'ChangeContact': {
      const events: WalletEvent[] = [];
      if (command.answer) {
        const answered = answering(wallet, command.answer, now);
        if (answered instanceof DomainError) return answered;
        events.push(answered);
      }
      for (const c of wallet.credentials.filter((c) => c.type === command.credentialType && c.contact !== command.contact)) {
        events.push({ type: 'WalletCredentialContactChanged.v1', data: { credentialId: c.id, contact: command.contact, at: now } });
      }
      return events;
    }
    case 'AnswerChallenge': {
      const answered = answering(wallet, command.answer, now);
      return answered instanceof DomainError ? answered : [answered];
    }
    case 'ExportWallet': {
      const answered = answering(wallet, command.answer, now);
      if (answered instanceof DomainError) return answered;
      if (wallet.exportKeyDigests.includes(command.keyDigest)) return invalid('clientPublicKey', 'this key was already used for an export: generate a fresh one');
      return [answered, { type: 'WalletExported.v1', data: { keyDigest: command.keyDigest, at: now } }];
    }
    case 'CreateDelegatedKey':
      return createDelegatedKey(wallet, command);
    case 'ActivateDelegatedKey':
      return activateDelegatedKey(wallet, command);
    case 'RevokeDelegatedKey':
      return revokeDelegatedKey(wallet, command);
    default:
      return assertNever(command);
  }
}

function decide(command: WalletCommand, state: WalletState): Decision<WalletEvent> {
  if (command.type === 'Provision') {
    if (state.status === 'ACTIVE') return []; // provisioned already (a concurrent first use): nothing to do
    const { type: _t, firstCredential, now, ...wallet } = command;
    const events: WalletEvent[] = [{ type: 'WalletProvisioned.v1', data: { ...wallet, at: now } }];
    if (firstCredential) events.push({ type: 'WalletCredentialAdded.v1', data: { credential: firstCredential, at: now } });
    return events;
  }
  if (state.status !== 'ACTIVE') return notFound('internal account');
  return decideActive(command, state);
}

export const walletDecider: Decider<WalletState, WalletCommand, WalletEvent> = { initialState: { status: 'NONE' }, decide, evolve: evolveWallet };
