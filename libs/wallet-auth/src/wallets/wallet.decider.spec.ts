import { DomainError, fold, given } from '@payments/eventsourcing';
import { AddCredential, Answer, OTP_FAILURES_MAX, OTP_ISSUES_MAX, Provision, walletDecider, WalletCommand } from './wallet.decider';
import type { CredentialRecord, PendingChallenge, SessionRecord, WalletEvent, WalletOperation } from './wallet.events';
import { ActiveWallet, OTP_RATE_WINDOW_MS, PENDING_CHALLENGES_MAX } from './wallet.state';

const T0 = Date.parse('2025-01-01T00:00:00.000Z');
/** An instant, in seconds after T0. */
const at = (seconds: number): string => new Date(T0 + seconds * 1000).toISOString();
const min = (minutes: number): string => at(minutes * 60);

const email: CredentialRecord = { id: 'AuthMethod:email', type: 'EMAIL_OTP', nickname: 'ada@example.com', contact: 'ada@example.com', createdAt: at(0) };
const sms: CredentialRecord = { id: 'AuthMethod:sms', type: 'SMS_OTP', nickname: '+15550100', contact: '+15550100', createdAt: at(0) };
const passkey = (id: string, credentialId: string, registrationChallenge: string, counter = 0): CredentialRecord => ({
  id, type: 'PASSKEY', nickname: 'laptop', passkey: { credentialId, publicKey: `pk-${credentialId}`, counter, transports: ['internal'], registrationChallenge }, createdAt: at(0),
});
const oauth = (id: string, identity: { iss?: string; aud?: string; sub: string }): CredentialRecord => ({
  id, type: 'OAUTH', nickname: 'ada@example.com', oauth: { iss: 'https://accounts.google.com', aud: 'client-1', ...identity }, createdAt: at(0),
});

const provision: Provision = {
  type: 'Provision', accountId: 'InternalAccount:1', customerId: 'Customer:1', platformId: 'Platform:1', mode: 'SANDBOX', organizationId: 'org-1', sealedMnemonic: 'sealed-mnemonic', firstCredential: email, now: at(0),
};
const provisioned: WalletEvent = {
  type: 'WalletProvisioned.v1',
  data: { accountId: 'InternalAccount:1', customerId: 'Customer:1', platformId: 'Platform:1', mode: 'SANDBOX', organizationId: 'org-1', sealedMnemonic: 'sealed-mnemonic', at: at(0) },
};
const added = (credential: CredentialRecord, t = at(0)): WalletEvent => ({ type: 'WalletCredentialAdded.v1', data: { credential, at: t } });
const credentialRevoked = (credentialId: string, t: string): WalletEvent => ({ type: 'WalletCredentialRevoked.v1', data: { credentialId, at: t } });
const session = (id: string, credential: CredentialRecord, openedAt: number, ttlSeconds = 3600): SessionRecord => ({
  id, credentialId: credential.id, type: credential.type, publicKey: `02${id}`, createdAt: at(openedAt), expiresAt: at(openedAt + ttlSeconds),
});
const opened = (s: SessionRecord, t = s.createdAt): WalletEvent => ({ type: 'WalletSessionOpened.v1', data: { session: s, at: t } });
const sessionRevoked = (sessionId: string, t: string): WalletEvent => ({ type: 'WalletSessionRevoked.v1', data: { sessionId, at: t } });
const challenge = (requestId: string, operation: WalletOperation, target: string | null, createdAt: number, extra: Partial<PendingChallenge> = {}): PendingChallenge => ({
  requestId, operation, target, bodySha256: `sha-${requestId}`, payloadToSign: `payload-${requestId}`, signer: { kind: 'SESSION' }, createdAt: at(createdAt), expiresAt: at(createdAt + 300), ...extra,
});
const issued = (c: PendingChallenge, t = c.createdAt): WalletEvent => ({ type: 'WalletChallengeIssued.v1', data: { challenge: c, at: t } });
const answered = (requestId: string, t: string): WalletEvent => ({ type: 'WalletChallengeAnswered.v1', data: { requestId, at: t } });
const answerTo = (c: PendingChallenge, signerSessionId?: string): Answer => ({ requestId: c.requestId, operation: c.operation, target: c.target, ...(signerSessionId ? { signerSessionId } : {}) });
const otpIssued = (credentialId: string, issueId: string, t: string, expiresAt: string): WalletEvent => ({ type: 'WalletOtpIssued.v1', data: { credentialId, issueId, codeHash: `hash-${issueId}`, expiresAt, at: t } });
const otpFailed = (credentialId: string, t: string): WalletEvent => ({ type: 'WalletOtpAttemptFailed.v1', data: { credentialId, reason: 'Invalid OTP code', at: t } });
const otpConsumed = (credentialId: string, issueId: string, t: string): WalletEvent => ({ type: 'WalletOtpConsumed.v1', data: { credentialId, issueId, at: t } });

/** Runs commands through the decider one after the other (each must succeed) and returns the whole history. */
function run(history: readonly WalletEvent[], ...commands: WalletCommand[]): WalletEvent[] {
  return commands.reduce<WalletEvent[]>((events, command) => {
    const decision = walletDecider.decide(command, fold(walletDecider, events));
    if (decision instanceof DomainError) throw new Error(`${command.type} failed: ${decision.code}: ${decision.message}`);
    return [...events, ...decision];
  }, [...history]);
}

function stateOf(history: readonly WalletEvent[]): ActiveWallet {
  const state = fold(walletDecider, history);
  if (state.status !== 'ACTIVE') throw new Error('the wallet is not provisioned');
  return state;
}

const wallet: WalletEvent[] = [provisioned, added(email)];
const s1 = session('Session:1', email, 10);
const withSession: WalletEvent[] = [...wallet, opened(s1)];

describe('wallet decider', () => {
  describe('Provision', () => {
    it('provisions the wallet with its first credential, recorded unverified', () => {
      const events = given(walletDecider).when(provision).then([provisioned, added(email)]);
      const state = stateOf(events);
      expect(state).toMatchObject({ accountId: 'InternalAccount:1', mode: 'SANDBOX', organizationId: 'org-1', sealedMnemonic: 'sealed-mnemonic' });
      expect(state.credentials).toEqual([{ ...email, updatedAt: at(0), verifiedAt: null }]);
    });

    it('without a first credential provisions an empty wallet', () => {
      given(walletDecider).when({ ...provision, firstCredential: undefined }).then([provisioned]);
    });

    it('a second Provision is a no-op (a concurrent first use)', () => {
      given(walletDecider, wallet).when({ ...provision, firstCredential: sms, now: at(5) }).then([]);
    });

    it('every other command needs a provisioned wallet', () => {
      given(walletDecider).when({ type: 'IssueOtp', credentialId: email.id, issueId: 'Otp:1', codeHash: 'h', expiresAt: min(10), now: at(0) }).thenFails('REFERENCE_NOT_FOUND');
    });
  });

  describe('AddCredential', () => {
    const create = challenge('Request:create', 'CREATE_CREDENTIAL', null, 20);
    const history = [...withSession, issued(create)];
    const add = (credential: CredentialRecord, extra: Partial<AddCredential> = {}): AddCredential => ({
      type: 'AddCredential', answer: answerTo(create, s1.id), credential, now: at(60), ...extra,
    });

    it('answers the pending challenge and records the credential; the answer is then used up', () => {
      const events = given(walletDecider, history).when(add(sms)).then([answered(create.requestId, at(60)), added(sms, at(60))]);
      const after = [...history, ...events];
      expect(stateOf(after).challenges).toEqual([]);
      expect(stateOf(after).credentials.map((c) => c.id)).toEqual([email.id, sms.id]);
      given(walletDecider, after).when(add(passkey('AuthMethod:pk', 'cred-A', 'rc-A'), { now: at(61) })).thenFails('UNAUTHORIZED');
    });

    it('refuses an unknown requestId', () => {
      given(walletDecider, history).when(add(sms, { answer: { ...answerTo(create, s1.id), requestId: 'Request:unknown' } })).thenFails('UNAUTHORIZED');
    });

    it('refuses an expired challenge', () => {
      given(walletDecider, history).when(add(sms, { now: at(319) })).then([answered(create.requestId, at(319)), added(sms, at(319))]);
      given(walletDecider, history).when(add(sms, { now: at(320) })).thenFails('UNAUTHORIZED');
    });

    it('refuses a challenge of another operation', () => {
      given(walletDecider, history).when(add(sms, { answer: { ...answerTo(create, s1.id), operation: 'EXPORT' } })).thenFails('UNAUTHORIZED');
    });

    it('refuses a challenge of another target', () => {
      given(walletDecider, history).when(add(sms, { answer: { ...answerTo(create, s1.id), target: 'AuthMethod:other' } })).thenFails('UNAUTHORIZED');
      const targeted = challenge('Request:targeted', 'REVOKE_CREDENTIAL', sms.id, 20);
      given(walletDecider, [...withSession, added(sms), issued(targeted)])
        .when({ type: 'RevokeCredential', answer: { ...answerTo(targeted, s1.id), target: email.id }, credentialId: email.id, now: at(60) })
        .thenFails('UNAUTHORIZED');
    });

    it('refuses an answer signed by a session that ended (revoked or expired)', () => {
      given(walletDecider, [...history, sessionRevoked(s1.id, at(30))]).when(add(sms)).thenFails('WALLET_SIGNATURE_INVALID');
      const short = session('Session:short', email, 10, 40); // expires at(50), still in the state at at(60)
      given(walletDecider, [...wallet, opened(short), issued(create)]).when(add(sms, { answer: answerTo(create, short.id) })).thenFails('WALLET_SIGNATURE_INVALID');
      given(walletDecider, history).when(add(sms, { answer: answerTo(create, 'Session:unknown') })).thenFails('WALLET_SIGNATURE_INVALID');
    });

    it('allows one EMAIL_OTP credential per account', () => {
      given(walletDecider, history).when(add({ ...email, id: 'AuthMethod:email2' })).thenFails('EMAIL_OTP_CREDENTIAL_ALREADY_EXISTS');
    });

    it('allows one SMS_OTP credential per account', () => {
      given(walletDecider, [...history, added(sms)]).when(add({ ...sms, id: 'AuthMethod:sms2' })).thenFails('SMS_OTP_CREDENTIAL_ALREADY_EXISTS');
    });

    it('refuses a passkey already registered, and a registration challenge used before', () => {
      const withPasskey = [...history, added(passkey('AuthMethod:pkA', 'cred-A', 'rc-A'))];
      given(walletDecider, withPasskey).when(add(passkey('AuthMethod:pkB', 'cred-A', 'rc-B'))).thenFails('PASSKEY_CREDENTIAL_ALREADY_EXISTS');
      const reused = given(walletDecider, withPasskey).when(add(passkey('AuthMethod:pkB', 'cred-B', 'rc-A'))).thenFails('INVALID_INPUT');
      expect(reused.details).toEqual({ errors: [{ field: 'challenge', message: expect.any(String) }] });
      const pkB = passkey('AuthMethod:pkB', 'cred-B', 'rc-B');
      given(walletDecider, withPasskey).when(add(pkB)).then([answered(create.requestId, at(60)), added(pkB, at(60))]);
    });

    it('refuses an OAuth identity (iss, aud, sub) that is already a credential', () => {
      const withOauth = [...history, added(oauth('AuthMethod:o1', { sub: 'user-1' }))];
      const duplicate = given(walletDecider, withOauth).when(add(oauth('AuthMethod:o2', { sub: 'user-1' }))).thenFails('INVALID_INPUT');
      expect(duplicate.details).toEqual({ errors: [{ field: 'oidcToken', message: expect.any(String) }] });
      for (const other of [{ sub: 'user-2' }, { sub: 'user-1', aud: 'client-2' }, { sub: 'user-1', iss: 'https://appleid.apple.com' }]) {
        const credential = oauth('AuthMethod:o2', other);
        given(walletDecider, withOauth).when(add(credential)).then([answered(create.requestId, at(60)), added(credential, at(60))]);
      }
    });

    it('issues the first OTP with an OTP credential', () => {
      const otp = { issueId: 'Otp:1', codeHash: 'hash-Otp:1', expiresAt: min(11) };
      const events = given(walletDecider, history).when(add(sms, { otp })).then([answered(create.requestId, at(60)), added(sms, at(60)), otpIssued(sms.id, 'Otp:1', at(60), min(11))]);
      const state = stateOf([...history, ...events]);
      expect(state.otps).toEqual([{ credentialId: sms.id, ...otp }]);
      expect(state.otpIssues).toEqual([{ credentialId: sms.id, at: at(60) }]);
    });
  });

  describe('RevokeCredential', () => {
    const s2 = session('Session:2', sms, 15);
    const revoke = challenge('Request:revoke', 'REVOKE_CREDENTIAL', sms.id, 20, { signer: { kind: 'SESSION', notOfCredentialId: sms.id } });
    const history = [...withSession, added(sms), opened(s2), otpIssued(sms.id, 'Otp:sms', at(16), min(10)), issued(revoke)];

    it('revokes the credential; its sessions and OTP disappear from the state, the others stay', () => {
      const events = given(walletDecider, history)
        .when({ type: 'RevokeCredential', answer: answerTo(revoke, s1.id), credentialId: sms.id, now: at(60) })
        .then([answered(revoke.requestId, at(60)), credentialRevoked(sms.id, at(60))]);
      const before = stateOf(history);
      expect(before.sessions.map((s) => s.id)).toEqual([s1.id, s2.id]);
      const state = stateOf([...history, ...events]);
      expect(state.credentials.map((c) => c.id)).toEqual([email.id]);
      expect(state.sessions).toEqual([s1]);
      expect(state.otps).toEqual([]);
    });

    it('refuses to revoke the last credential', () => {
      const last = challenge('Request:last', 'REVOKE_CREDENTIAL', email.id, 20);
      given(walletDecider, [...withSession, issued(last)])
        .when({ type: 'RevokeCredential', answer: answerTo(last, s1.id), credentialId: email.id, now: at(60) })
        .thenFails('INVALID_INPUT');
    });

    it('answers REFERENCE_NOT_FOUND for a credential not on the account', () => {
      const gone = challenge('Request:gone', 'REVOKE_CREDENTIAL', 'AuthMethod:gone', 20);
      given(walletDecider, [...history, issued(gone)])
        .when({ type: 'RevokeCredential', answer: answerTo(gone, s1.id), credentialId: 'AuthMethod:gone', now: at(60) })
        .thenFails('REFERENCE_NOT_FOUND');
    });
  });

  describe('IssueOtp', () => {
    const issue = (n: number, minute: number, credentialId = email.id): WalletCommand => ({
      type: 'IssueOtp', credentialId, issueId: `Otp:${n}`, codeHash: `hash-Otp:${n}`, expiresAt: min(minute + 10), now: min(minute),
    });
    // Five issues at minutes 1..5: the limit.
    const five = run(wallet, ...[1, 2, 3, 4, 5].map((minute, i) => issue(i + 1, minute)));

    it(`allows ${OTP_ISSUES_MAX} per credential within the window, then RATE_LIMITED until the oldest leaves it`, () => {
      expect(OTP_ISSUES_MAX).toBe(5);
      expect(OTP_RATE_WINDOW_MS).toBe(15 * 60_000);
      expect(given(walletDecider, five).when(issue(6, 6)).thenFails('RATE_LIMITED').details).toEqual({ retryAfterSeconds: 600 });
      expect(given(walletDecider, five).when(issue(6, 15.5)).thenFails('RATE_LIMITED').details).toEqual({ retryAfterSeconds: 30 });
      expect(given(walletDecider, five).when({ ...issue(6, 16), now: at(16 * 60 - 1) }).thenFails('RATE_LIMITED').details).toEqual({ retryAfterSeconds: 1 });
      given(walletDecider, five).when(issue(6, 16)).then([otpIssued(email.id, 'Otp:6', min(16), min(26))]);
    });

    it('counts per credential', () => {
      const withSms = run([...wallet, added(sms)], ...[1, 2, 3, 4, 5].map((minute, i) => issue(i + 1, minute)));
      given(walletDecider, withSms).when(issue(6, 6, sms.id)).then([otpIssued(sms.id, 'Otp:6', min(6), min(16))]);
    });

    it('answers REFERENCE_NOT_FOUND for an unknown credential', () => {
      given(walletDecider, wallet).when(issue(1, 1, 'AuthMethod:unknown')).thenFails('REFERENCE_NOT_FOUND');
    });

    it('a new OTP replaces the old one: only the latest can be accepted', () => {
      const two = run(wallet, issue(1, 1), issue(2, 2));
      expect(stateOf(two).otps).toEqual([{ credentialId: email.id, issueId: 'Otp:2', codeHash: 'hash-Otp:2', expiresAt: min(12) }]);
      const verify = challenge('Request:verify', 'VERIFY_OTP', email.id, 180);
      given(walletDecider, two).when({ type: 'AcceptOtp', credentialId: email.id, issueId: 'Otp:1', challenge: verify, now: min(3) }).thenFails('UNAUTHORIZED');
      given(walletDecider, two).when({ type: 'AcceptOtp', credentialId: email.id, issueId: 'Otp:2', challenge: verify, now: min(3) }).then([otpConsumed(email.id, 'Otp:2', min(3)), issued(verify)]);
    });
  });

  describe('FailOtp / AcceptOtp', () => {
    const withOtp = [...wallet, otpIssued(email.id, 'Otp:1', min(0), min(10))];
    const fail = (minute: number): WalletCommand => ({ type: 'FailOtp', credentialId: email.id, reason: 'Invalid OTP code', now: min(minute) });
    const verify = challenge('Request:verify', 'VERIFY_OTP', email.id, 600, { signer: { kind: 'KEY', publicKey: '02tek' } });
    const accept = (issueId: string, minute: number): WalletCommand => ({ type: 'AcceptOtp', credentialId: email.id, issueId, challenge: verify, now: min(minute) });

    it(`records failures; the ${OTP_FAILURES_MAX}th in the window burns the current OTP`, () => {
      expect(OTP_FAILURES_MAX).toBe(5);
      const three = run(withOtp, fail(1), fail(2), fail(3));
      given(walletDecider, three).when(fail(4)).then([otpFailed(email.id, min(4))]);
      const four = run(three, fail(4));
      const events = given(walletDecider, four).when(fail(5)).then([otpFailed(email.id, min(5)), otpConsumed(email.id, 'Otp:1', min(5))]);
      expect(stateOf([...four, ...events]).otps).toEqual([]);
    });

    it('failures that left the window do not count towards burning', () => {
      const four = run(withOtp, fail(0), fail(1), fail(2), fail(3));
      const reissued = [...four, otpIssued(email.id, 'Otp:2', min(14), min(24))];
      given(walletDecider, reissued).when(fail(15.5)).then([otpFailed(email.id, min(15.5))]);
    });

    it('accepts the current OTP: it is consumed and the verification challenge issued', () => {
      const events = given(walletDecider, withOtp).when(accept('Otp:1', 5)).then([otpConsumed(email.id, 'Otp:1', min(5)), issued(verify, min(5))]);
      const state = stateOf([...withOtp, ...events]);
      expect(state.otps).toEqual([]);
      expect(state.challenges).toEqual([verify]);
      given(walletDecider, [...withOtp, ...events]).when(accept('Otp:1', 6)).thenFails('UNAUTHORIZED');
    });

    it('refuses a wrong, expired or replaced issue', () => {
      given(walletDecider, withOtp).when(accept('Otp:other', 5)).thenFails('UNAUTHORIZED');
      given(walletDecider, withOtp).when(accept('Otp:1', 10)).thenFails('UNAUTHORIZED');
      given(walletDecider, wallet).when(accept('Otp:1', 5)).thenFails('UNAUTHORIZED');
      given(walletDecider, [...withOtp, otpIssued(email.id, 'Otp:2', min(2), min(12))]).when(accept('Otp:1', 5)).thenFails('UNAUTHORIZED');
    });

    it(`after ${OTP_FAILURES_MAX} failures even a fresh right OTP is RATE_LIMITED until the oldest failure leaves the window`, () => {
      const burned = run(withOtp, fail(1), fail(2), fail(3), fail(4), fail(5));
      const reissued = [...burned, otpIssued(email.id, 'Otp:2', min(6), min(30))];
      expect(given(walletDecider, reissued).when(accept('Otp:2', 7)).thenFails('RATE_LIMITED').details).toEqual({ retryAfterSeconds: 9 * 60 });
      given(walletDecider, reissued).when(accept('Otp:2', 16)).then([otpConsumed(email.id, 'Otp:2', min(16)), issued(verify, min(16))]);
    });

    it('retryAfterSeconds counts to the oldest failure still in the window, not to one that already left it', () => {
      // Six failures in the state (FailOtp is not limited): minute 1 is still kept at the minute-14 event,
      // but at minute 16.5 only minutes 10..14 count: the limit lifts when minute 10 leaves the window.
      const failures = run(withOtp, fail(1), fail(10), fail(11), fail(12), fail(13), fail(14));
      const reissued = [...failures, otpIssued(email.id, 'Otp:2', min(14.5), min(30))];
      expect(stateOf(reissued).otpFailures).toHaveLength(6);
      expect(given(walletDecider, reissued).when(accept('Otp:2', 16.5)).thenFails('RATE_LIMITED').details).toEqual({ retryAfterSeconds: 510 });
    });
  });

  describe('OpenSession', () => {
    const verify = challenge('Request:verify', 'VERIFY_OTP', email.id, 20, { signer: { kind: 'KEY', publicKey: '02tek' } });

    it('answers the challenge and opens the session; the same requestId cannot open a second one', () => {
      const history = [...wallet, issued(verify)];
      const events = given(walletDecider, history).when({ type: 'OpenSession', answer: answerTo(verify), session: s1, now: at(30) }).then([answered(verify.requestId, at(30)), opened(s1, at(30))]);
      const state = stateOf([...history, ...events]);
      expect(state.sessions).toEqual([s1]);
      expect(state.credentials[0].verifiedAt).toBe(at(30));
      const s2 = session('Session:2', email, 40);
      given(walletDecider, [...history, ...events]).when({ type: 'OpenSession', answer: answerTo(verify), session: s2, now: at(40) }).thenFails('UNAUTHORIZED');
    });

    it('refuses a session of a revoked credential', () => {
      const history = [...wallet, added(sms), credentialRevoked(sms.id, at(5))];
      given(walletDecider, history).when({ type: 'OpenSession', session: session('Session:sms', sms, 30), now: at(30) }).thenFails('UNAUTHORIZED');
    });

    describe('passkey signature counter', () => {
      const pk = (counter: number) => passkey('AuthMethod:pk', 'cred-A', 'rc-A', counter);
      const open = (credential: CredentialRecord, passkeyCounter: number, t = 30): WalletCommand => ({ type: 'OpenSession', session: session(`Session:${t}`, credential, t), passkeyCounter, now: at(t) });
      const used = (counter: number, t = 30): WalletEvent => ({ type: 'WalletPasskeyUsed.v1', data: { credentialId: 'AuthMethod:pk', counter, at: at(t) } });

      it('must increase', () => {
        const history = [...wallet, added(pk(5))];
        given(walletDecider, history).when(open(pk(5), 5)).thenFails('UNAUTHORIZED');
        given(walletDecider, history).when(open(pk(5), 4)).thenFails('UNAUTHORIZED');
        given(walletDecider, history).when(open(pk(5), 0)).thenFails('UNAUTHORIZED');
        const events = given(walletDecider, history).when(open(pk(5), 6)).then([used(6), opened(session('Session:30', pk(5), 30))]);
        expect(stateOf([...history, ...events]).credentials[1].passkey?.counter).toBe(6);
        given(walletDecider, [...history, ...events]).when(open(pk(5), 6, 40)).thenFails('UNAUTHORIZED');
      });

      it('may stay zero when the authenticator does not count', () => {
        const history = [...wallet, added(pk(0))];
        const events = given(walletDecider, history).when(open(pk(0), 0)).then([used(0), opened(session('Session:30', pk(0), 30))]);
        given(walletDecider, [...history, ...events]).when(open(pk(0), 0, 40)).then([used(0, 40), opened(session('Session:40', pk(0), 40))]);
        given(walletDecider, history).when(open(pk(0), 3)).then([used(3), opened(session('Session:30', pk(0), 30))]);
      });
    });
  });

  describe('RevokeSession', () => {
    const revokeSession = (sessionId: string, createdAt = 20) => challenge(`Request:rs-${sessionId}`, 'REVOKE_SESSION', sessionId, createdAt);

    it('answers the challenge and revokes the session', () => {
      const rs = revokeSession(s1.id);
      const history = [...withSession, issued(rs)];
      const events = given(walletDecider, history).when({ type: 'RevokeSession', answer: answerTo(rs, s1.id), sessionId: s1.id, now: at(60) }).then([answered(rs.requestId, at(60)), sessionRevoked(s1.id, at(60))]);
      expect(stateOf([...history, ...events]).sessions).toEqual([]);
    });

    it('answers REFERENCE_NOT_FOUND for an unknown, revoked or expired session', () => {
      const unknown = revokeSession('Session:unknown');
      given(walletDecider, [...withSession, issued(unknown)]).when({ type: 'RevokeSession', answer: answerTo(unknown, s1.id), sessionId: 'Session:unknown', now: at(60) }).thenFails('REFERENCE_NOT_FOUND');
      const s2 = session('Session:2', email, 12);
      const rs2 = revokeSession(s2.id);
      given(walletDecider, [...withSession, opened(s2), sessionRevoked(s2.id, at(15)), issued(rs2)]).when({ type: 'RevokeSession', answer: answerTo(rs2, s1.id), sessionId: s2.id, now: at(60) }).thenFails('REFERENCE_NOT_FOUND');
      const short = session('Session:short', email, 12, 30); // expires at(42), still in the state at at(60)
      const rsShort = revokeSession(short.id);
      const history = [...withSession, opened(short), issued(rsShort)];
      expect(stateOf(history).sessions.map((s) => s.id)).toContain(short.id);
      given(walletDecider, history).when({ type: 'RevokeSession', answer: answerTo(rsShort, s1.id), sessionId: short.id, now: at(60) }).thenFails('REFERENCE_NOT_FOUND');
      given(walletDecider, history).when({ type: 'RevokeSession', answer: answerTo(rsShort, s1.id), sessionId: short.id, now: at(41) }).then([answered(rsShort.requestId, at(41)), sessionRevoked(short.id, at(41))]);
    });
  });

  describe('AnswerChallenge', () => {
    it('records only the answer (the effect is another service\'s), once', () => {
      const other = challenge('Request:patch', 'CREATE_CREDENTIAL', null, 20);
      const history = [...withSession, issued(other)];
      const events = given(walletDecider, history).when({ type: 'AnswerChallenge', answer: answerTo(other, s1.id), now: at(60) }).then([answered(other.requestId, at(60))]);
      given(walletDecider, [...history, ...events]).when({ type: 'AnswerChallenge', answer: answerTo(other, s1.id), now: at(61) }).thenFails('UNAUTHORIZED');
      given(walletDecider, [...history, sessionRevoked(s1.id, at(30))]).when({ type: 'AnswerChallenge', answer: answerTo(other, s1.id), now: at(60) }).thenFails('WALLET_SIGNATURE_INVALID');
    });
  });

  describe('ExportWallet', () => {
    const exportChallenge = (n: number, createdAt: number) => challenge(`Request:export-${n}`, 'EXPORT', null, createdAt);
    const exported = (keyDigest: string, t: string): WalletEvent => ({ type: 'WalletExported.v1', data: { keyDigest, at: t } });

    it('exports once per key digest', () => {
      const first = exportChallenge(1, 20);
      const history = [...withSession, issued(first)];
      const events = given(walletDecider, history).when({ type: 'ExportWallet', answer: answerTo(first, s1.id), keyDigest: 'digest-1', now: at(60) }).then([answered(first.requestId, at(60)), exported('digest-1', at(60))]);
      const second = exportChallenge(2, 70);
      const after = [...history, ...events, issued(second)];
      const reused = given(walletDecider, after).when({ type: 'ExportWallet', answer: answerTo(second, s1.id), keyDigest: 'digest-1', now: at(80) }).thenFails('INVALID_INPUT');
      expect(reused.details).toEqual({ errors: [{ field: 'clientPublicKey', message: expect.any(String) }] });
      given(walletDecider, after).when({ type: 'ExportWallet', answer: answerTo(second, s1.id), keyDigest: 'digest-2', now: at(80) }).then([answered(second.requestId, at(80)), exported('digest-2', at(80))]);
    });
  });

  describe('state pruning', () => {
    it('forgets expired sessions, challenges and OTPs at the next event, keeping live ones', () => {
      const shortSession = session('Session:short', email, 10, 90); // expires at(100)
      const longSession = session('Session:long', email, 10, 3600);
      const shortChallenge = challenge('Request:short', 'EXPORT', null, 20, { expiresAt: at(200) });
      const longChallenge = challenge('Request:long', 'EXPORT', null, 20, { expiresAt: at(900) });
      const history = [
        ...wallet, added(sms), opened(shortSession), opened(longSession), issued(shortChallenge), issued(longChallenge),
        otpIssued(email.id, 'Otp:short', at(30), at(150)), otpIssued(sms.id, 'Otp:long', at(30), at(900)),
      ];
      const before = stateOf(history); // nothing has happened since: the clock alone prunes nothing
      expect(before.sessions).toHaveLength(2);
      expect(before.challenges).toHaveLength(2);
      expect(before.otps).toHaveLength(2);
      const next = challenge('Request:next', 'EXPORT', null, 300);
      const state = stateOf(run(history, { type: 'IssueChallenge', challenge: next, now: at(300) }));
      expect(state.sessions).toEqual([longSession]);
      expect(state.challenges.map((c) => c.requestId)).toEqual(['Request:long', 'Request:next']);
      expect(state.otps.map((o) => o.issueId)).toEqual(['Otp:long']);
      expect(state.updatedAt).toBe(at(300));
    });

    it('forgets OTP issues and failures once they leave the rate window', () => {
      const history = [...wallet, otpIssued(email.id, 'Otp:1', min(0), min(10)), otpFailed(email.id, min(1)), otpIssued(email.id, 'Otp:2', min(5), min(15)), otpFailed(email.id, min(6))];
      const state = stateOf([...history, otpFailed(email.id, min(16.5))]);
      expect(state.otpIssues).toEqual([{ credentialId: email.id, at: min(5) }]);
      expect(state.otpFailures).toEqual([{ credentialId: email.id, at: min(6) }, { credentialId: email.id, at: min(16.5) }]);
    });

    it(`keeps at most ${PENDING_CHALLENGES_MAX} pending challenges, dropping the oldest`, () => {
      const many = Array.from({ length: PENDING_CHALLENGES_MAX + 1 }, (_, i) => challenge(`Request:${i}`, 'EXPORT', null, 20 + i));
      const history = run(withSession, ...many.map((c): WalletCommand => ({ type: 'IssueChallenge', challenge: c, now: c.createdAt })));
      const state = stateOf(history);
      expect(state.challenges).toHaveLength(PENDING_CHALLENGES_MAX);
      expect(state.challenges[0].requestId).toBe('Request:1');
      expect(state.challenges.at(-1)?.requestId).toBe(`Request:${PENDING_CHALLENGES_MAX}`);
      const exportWith = (c: PendingChallenge): WalletCommand => ({ type: 'ExportWallet', answer: answerTo(c, s1.id), keyDigest: 'digest', now: at(100) });
      given(walletDecider, history).when(exportWith(many[0])).thenFails('UNAUTHORIZED');
      given(walletDecider, history).when(exportWith(many[1])).then([answered('Request:1', at(100)), { type: 'WalletExported.v1', data: { keyDigest: 'digest', at: at(100) } }]);
    });
  });
});
