import { DomainError, fold, given } from '@payments/eventsourcing';
import { ActivateDelegatedKey, Answer, CreateDelegatedKey, delegatedKeyConflict, delegatedSigner, walletDecider, WalletCommand } from './wallet.decider';
import type { CredentialRecord, DelegatedKeyRecord, PendingChallenge, SessionRecord, WalletEvent, WalletOperation } from './wallet.events';
import type { ActiveWallet } from './wallet.state';

const T0 = Date.parse('2025-01-01T00:00:00.000Z');
const at = (seconds: number): string => new Date(T0 + seconds * 1000).toISOString();

const email: CredentialRecord = { id: 'AuthMethod:email', type: 'EMAIL_OTP', nickname: 'ada@example.com', contact: 'ada@example.com', createdAt: at(0) };
const provisioned: WalletEvent = {
  type: 'WalletProvisioned.v1',
  data: { accountId: 'InternalAccount:1', customerId: 'Customer:1', platformId: 'Platform:1', mode: 'SANDBOX', organizationId: 'org-1', sealedMnemonic: 'sealed-mnemonic', at: at(0) },
};
const s1: SessionRecord = { id: 'Session:1', credentialId: email.id, type: 'EMAIL_OTP', publicKey: '02aa', createdAt: at(10), expiresAt: at(3610) };
const wallet: WalletEvent[] = [provisioned, { type: 'WalletCredentialAdded.v1', data: { credential: email, at: at(0) } }, { type: 'WalletSessionOpened.v1', data: { session: s1, at: at(10) } }];

const FS = 'CardFundingSource:1';
const FS2 = 'CardFundingSource:2';
const body = { cardId: 'Card:1', internalAccountId: 'InternalAccount:1', nickname: 'card pulls' };

const challenge = (requestId: string, operation: WalletOperation, target: string | null, createdAt: number, extra: Partial<PendingChallenge> = {}): PendingChallenge => ({
  requestId, operation, target, bodySha256: 'sha-body', payloadToSign: `payload-${requestId}`, signer: { kind: 'SESSION' }, createdAt: at(createdAt), expiresAt: at(createdAt + 300), ...extra,
});
const issued = (c: PendingChallenge, t = c.createdAt): WalletEvent => ({ type: 'WalletChallengeIssued.v1', data: { challenge: c, at: t } });
const answered = (requestId: string, t: string): WalletEvent => ({ type: 'WalletChallengeAnswered.v1', data: { requestId, at: t } });
const answerTo = (c: PendingChallenge, signerSessionId: string | undefined = s1.id): Answer => ({ requestId: c.requestId, operation: c.operation, target: c.target, ...(signerSessionId ? { signerSessionId } : {}) });
const keyRecord = (id: string, fundingSourceId = FS, createdAt = at(60)): DelegatedKeyRecord => ({
  id, cardId: 'Card:1', fundingSourceId, publicKey: `02${id}`, nickname: body.nickname, sealedPrivateKey: `sealed-${id}`, createdAt,
});

/** Leg 1's challenge (CREATE_DELEGATED_KEY on the funding source), as the operations layer records it. */
const createChallenge = (requestId: string, fundingSourceId = FS, t = 20) => challenge(requestId, 'CREATE_DELEGATED_KEY', fundingSourceId, t);
/** The command of leg 2: answers `create`, records `key` PENDING, issues the ACTIVATE challenge naming it. */
function leg2(create: PendingChallenge, key: DelegatedKeyRecord, now = at(60), activateRequestId = `Request:activate-${key.id}`): CreateDelegatedKey {
  return { type: 'CreateDelegatedKey', answer: answerTo(create), key, challenge: challenge(activateRequestId, 'ACTIVATE_DELEGATED_KEY', key.fundingSourceId, Date.parse(now) / 1000 - T0 / 1000, { delegatedKeyId: key.id }), now };
}
function leg3(activate: PendingChallenge, now = at(90), signerSessionId: string | undefined = s1.id): ActivateDelegatedKey {
  return { type: 'ActivateDelegatedKey', answer: answerTo(activate, signerSessionId), delegatedKeyId: activate.delegatedKeyId!, now };
}

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

/** A wallet whose funding source FS has key `id` after leg 2 (PENDING), with its leg-3 challenge pending. */
function pending(id: string, history: readonly WalletEvent[] = wallet, t = 20): { events: WalletEvent[]; activate: PendingChallenge } {
  const create = createChallenge(`Request:create-${id}`, FS, t);
  const command = leg2(create, keyRecord(id, FS, at(t + 40)), at(t + 40));
  return { events: run([...history, issued(create)], command), activate: command.challenge };
}
/** The same, then leg 3: key `id` ACTIVE. */
function active(id: string, history: readonly WalletEvent[] = wallet, t = 20): WalletEvent[] {
  const { events, activate } = pending(id, history, t);
  return run(events, leg3(activate, at(t + 70)));
}

describe('delegated keys (wallet decider)', () => {
  describe('leg 2: CreateDelegatedKey', () => {
    const create = createChallenge('Request:create');
    const history = [...wallet, issued(create)];

    it('answers the first challenge, records the key PENDING and issues the third leg’s challenge, in one decision', () => {
      const command = leg2(create, keyRecord('DelegatedKey:1'));
      const events = given(walletDecider, history)
        .when(command)
        .then([answered(create.requestId, at(60)), { type: 'WalletDelegatedKeyCreated.v1', data: { key: keyRecord('DelegatedKey:1'), at: at(60) } }, issued(command.challenge, at(60))]);
      const state = stateOf([...history, ...events]);
      expect(state.delegatedKeys).toEqual([{ ...keyRecord('DelegatedKey:1'), status: 'PENDING', updatedAt: at(60) }]);
      expect(state.challenges.map((c) => [c.requestId, c.operation, c.target, c.delegatedKeyId])).toEqual([[command.challenge.requestId, 'ACTIVATE_DELEGATED_KEY', FS, 'DelegatedKey:1']]);
    });

    it('answers the first challenge once: a replayed second leg is refused', () => {
      const after = run(history, leg2(create, keyRecord('DelegatedKey:1')));
      given(walletDecider, after).when(leg2(create, keyRecord('DelegatedKey:2'), at(61), 'Request:activate-again')).thenFails('UNAUTHORIZED');
    });

    it('needs the CREATE challenge of this funding source, unexpired, signed by a live session', () => {
      given(walletDecider, wallet).when(leg2(create, keyRecord('DelegatedKey:1'))).thenFails('UNAUTHORIZED'); // leg 1 never happened
      given(walletDecider, history).when(leg2(create, keyRecord('DelegatedKey:1', FS2))).thenFails('UNAUTHORIZED'); // another funding source
      given(walletDecider, history).when(leg2(create, keyRecord('DelegatedKey:1'), at(320))).thenFails('UNAUTHORIZED'); // expired
      const exportChallenge = challenge('Request:export', 'EXPORT', FS, 20);
      given(walletDecider, [...wallet, issued(exportChallenge)]).when({ ...leg2(exportChallenge, keyRecord('DelegatedKey:1')) }).thenFails('UNAUTHORIZED');
      given(walletDecider, [...history, { type: 'WalletSessionRevoked.v1', data: { sessionId: s1.id, at: at(30) } }]).when(leg2(create, keyRecord('DelegatedKey:1'))).thenFails('WALLET_SIGNATURE_INVALID');
    });

    it('refuses a new key while the funding source has an ACTIVE one; other funding sources are free', () => {
      const withActive = active('DelegatedKey:A');
      const again = createChallenge('Request:create-2', FS, 200);
      given(walletDecider, [...withActive, issued(again)]).when(leg2(again, keyRecord('DelegatedKey:B', FS, at(210)), at(210))).thenFails('DELEGATED_KEY_EXISTS');
      const other = createChallenge('Request:create-fs2', FS2, 200);
      given(walletDecider, [...withActive, issued(other)]).when(leg2(other, keyRecord('DelegatedKey:B', FS2, at(210)), at(210))).then([
        answered(other.requestId, at(210)),
        { type: 'WalletDelegatedKeyCreated.v1', data: { key: keyRecord('DelegatedKey:B', FS2, at(210)), at: at(210) } },
        issued(leg2(other, keyRecord('DelegatedKey:B', FS2, at(210)), at(210)).challenge, at(210)),
      ]);
    });
  });

  describe('leg 3: ActivateDelegatedKey', () => {
    it('makes the PENDING key ACTIVE and uses its challenge up', () => {
      const { events, activate } = pending('DelegatedKey:1');
      const activated = given(walletDecider, events).when(leg3(activate)).then([answered(activate.requestId, at(90)), { type: 'WalletDelegatedKeyActivated.v1', data: { delegatedKeyId: 'DelegatedKey:1', at: at(90) } }]);
      const state = stateOf([...events, ...activated]);
      expect(state.delegatedKeys).toEqual([{ ...keyRecord('DelegatedKey:1'), status: 'ACTIVE', updatedAt: at(90) }]);
      expect(state.challenges).toEqual([]);
      given(walletDecider, [...events, ...activated]).when(leg3(activate, at(91))).thenFails('UNAUTHORIZED');
    });

    it('comes after leg 2 only: the first challenge does not activate, the third leg’s does not create', () => {
      const create = createChallenge('Request:create');
      const history = [...wallet, issued(create)];
      // Leg 3 straight after leg 1: the CREATE challenge is not an ACTIVATE one.
      given(walletDecider, history).when({ type: 'ActivateDelegatedKey', answer: { ...answerTo(create), operation: 'ACTIVATE_DELEGATED_KEY' }, delegatedKeyId: 'DelegatedKey:1', now: at(60) }).thenFails('UNAUTHORIZED');
      given(walletDecider, history).when({ type: 'ActivateDelegatedKey', answer: answerTo(create), delegatedKeyId: 'DelegatedKey:1', now: at(60) }).thenFails('UNAUTHORIZED');
      // Leg 2 answered with the third leg's challenge.
      const { events, activate } = pending('DelegatedKey:1');
      given(walletDecider, events).when(leg2(activate, keyRecord('DelegatedKey:2'), at(90), 'Request:x')).thenFails('UNAUTHORIZED');
    });

    it('activates only the key its challenge names', () => {
      const first = pending('DelegatedKey:1');
      const second = pending('DelegatedKey:2', first.events, 30);
      given(walletDecider, second.events).when({ ...leg3(first.activate), delegatedKeyId: 'DelegatedKey:2' }).thenFails('UNAUTHORIZED');
    });

    it('re-checks one ACTIVE key per funding source: of two flows left at leg 2, the second to finish is 409', () => {
      const first = pending('DelegatedKey:1');
      const second = pending('DelegatedKey:2', first.events, 30); // PENDING keys do not block a new flow
      expect(stateOf(second.events).delegatedKeys.map((k) => k.status)).toEqual(['PENDING', 'PENDING']);
      const afterFirst = run(second.events, leg3(first.activate, at(100)));
      given(walletDecider, afterFirst).when(leg3(second.activate, at(101))).thenFails('DELEGATED_KEY_EXISTS');
      expect(delegatedKeyConflict(stateOf(afterFirst), FS)?.code).toBe('DELEGATED_KEY_EXISTS');
      expect(delegatedKeyConflict(stateOf(afterFirst), FS2)).toBeUndefined();
    });

    it('an abandoned flow leaves the key PENDING for good: its challenge expires, a new flow still works', () => {
      const { events, activate } = pending('DelegatedKey:1');
      given(walletDecider, events).when(leg3(activate, at(360))).thenFails('UNAUTHORIZED'); // issued at(60), expired at(360)
      const later = active('DelegatedKey:2', events, 400);
      expect(stateOf(later).delegatedKeys.map((k) => [k.id, k.status])).toEqual([['DelegatedKey:1', 'PENDING'], ['DelegatedKey:2', 'ACTIVE']]);
    });

    it('needs a live signing session', () => {
      const { events, activate } = pending('DelegatedKey:1');
      given(walletDecider, [...events, { type: 'WalletSessionRevoked.v1', data: { sessionId: s1.id, at: at(70) } }]).when(leg3(activate)).thenFails('WALLET_SIGNATURE_INVALID');
    });
  });

  describe('RevokeDelegatedKey', () => {
    it('revokes an ACTIVE key, which forgets its sealed private key', () => {
      const history = active('DelegatedKey:1');
      const events = given(walletDecider, history).when({ type: 'RevokeDelegatedKey', delegatedKeyId: 'DelegatedKey:1', now: at(200) }).then([{ type: 'WalletDelegatedKeyRevoked.v1', data: { delegatedKeyId: 'DelegatedKey:1', at: at(200) } }]);
      const [key] = stateOf([...history, ...events]).delegatedKeys;
      expect(key).toMatchObject({ id: 'DelegatedKey:1', status: 'REVOKED', updatedAt: at(200) });
      expect(key.sealedPrivateKey).toBeUndefined();
    });

    it('refuses a PENDING or REVOKED key (400) and an unknown one (404)', () => {
      given(walletDecider, pending('DelegatedKey:1').events).when({ type: 'RevokeDelegatedKey', delegatedKeyId: 'DelegatedKey:1', now: at(200) }).thenFails('DELEGATED_KEY_NOT_ACTIVE');
      const revoked = run(active('DelegatedKey:1'), { type: 'RevokeDelegatedKey', delegatedKeyId: 'DelegatedKey:1', now: at(200) });
      given(walletDecider, revoked).when({ type: 'RevokeDelegatedKey', delegatedKeyId: 'DelegatedKey:1', now: at(201) }).thenFails('DELEGATED_KEY_NOT_ACTIVE');
      given(walletDecider, wallet).when({ type: 'RevokeDelegatedKey', delegatedKeyId: 'DelegatedKey:unknown', now: at(200) }).thenFails('DELEGATED_KEY_NOT_FOUND');
    });

    it('frees the funding source for a new key', () => {
      const revoked = run(active('DelegatedKey:1'), { type: 'RevokeDelegatedKey', delegatedKeyId: 'DelegatedKey:1', now: at(200) });
      const again = active('DelegatedKey:2', revoked, 300);
      expect(stateOf(again).delegatedKeys.map((k) => [k.id, k.status])).toEqual([['DelegatedKey:1', 'REVOKED'], ['DelegatedKey:2', 'ACTIVE']]);
    });
  });

  describe('who signs for a funding source (delegatedSigner)', () => {
    const code = (result: unknown) => (result instanceof DomainError ? result.code : 'SIGNS');

    it('the ACTIVE key, with its sealed private key', () => {
      const signer = delegatedSigner(stateOf(active('DelegatedKey:1')), FS);
      expect(signer).toMatchObject({ id: 'DelegatedKey:1', status: 'ACTIVE', sealedPrivateKey: 'sealed-DelegatedKey:1' });
    });

    it('not a PENDING key', () => {
      expect(code(delegatedSigner(stateOf(pending('DelegatedKey:1').events), FS))).toBe('DELEGATED_KEY_NOT_FOUND');
    });

    it('not a REVOKED key, from the revocation on', () => {
      const history = active('DelegatedKey:1');
      expect(code(delegatedSigner(stateOf(history), FS))).toBe('SIGNS');
      const revoked = run(history, { type: 'RevokeDelegatedKey', delegatedKeyId: 'DelegatedKey:1', now: at(200) });
      expect(code(delegatedSigner(stateOf(revoked), FS))).toBe('DELEGATED_KEY_NOT_FOUND');
    });

    it('not the key of another funding source, nor anything on a wallet without keys', () => {
      expect(code(delegatedSigner(stateOf(active('DelegatedKey:1')), FS2))).toBe('DELEGATED_KEY_NOT_FOUND');
      expect(code(delegatedSigner(stateOf(wallet), FS))).toBe('DELEGATED_KEY_NOT_FOUND');
    });
  });

  it('answers UPDATE_CARD (a signed request of cards) as it answers UPDATE_INTERNAL_ACCOUNT', () => {
    for (const operation of ['UPDATE_INTERNAL_ACCOUNT', 'UPDATE_CARD'] as const) {
      const c = challenge(`Request:${operation}`, operation, 'Card:1', 20);
      given(walletDecider, [...wallet, issued(c)]).when({ type: 'AnswerChallenge', answer: answerTo(c), now: at(60) }).then([answered(c.requestId, at(60))]);
      given(walletDecider, [...wallet, issued(c)]).when({ type: 'AnswerChallenge', answer: { ...answerTo(c), target: 'Card:2' }, now: at(60) }).thenFails('UNAUTHORIZED');
    }
  });
});
