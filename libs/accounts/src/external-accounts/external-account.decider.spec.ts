import { given } from '@payments/eventsourcing';
import type { BeneficiaryVerificationStatusValue } from '@payments/contracts';
import { CreateExternalAccount, externalAccountDecider } from './external-account.decider';
import { ExternalAccountCreated, ExternalAccountEvent } from './external-account.events';
import { verifiedStatus } from './external-account.rules';

const T0 = '2026-01-01T00:00:00.000Z';
const T1 = '2026-01-01T00:00:02.000Z';
const id = 'ExternalAccount:0190f5a0-0000-7000-8000-000000000001';

const create = (over: Partial<CreateExternalAccount> = {}): CreateExternalAccount => ({
  type: 'CreateExternalAccount',
  externalAccountId: id,
  platformId: 'Platform:1',
  mode: 'SANDBOX',
  customerId: 'Customer:1',
  currency: 'MXN',
  platformAccountId: null,
  accountInfo: { accountType: 'MXN_ACCOUNT', clabeNumber: '002010077777777771', bankName: 'Banamex' },
  beneficiaryVerificationStatus: 'MATCHED',
  sandbox: true,
  now: T0,
  ...over,
});
const created = (over: Partial<CreateExternalAccount> = {}): ExternalAccountCreated => {
  const { type: _t, now, ...data } = create(over);
  return { type: 'ExternalAccountCreated.v1', data: { ...data, createdAt: now } };
};
const trusted: ExternalAccountEvent = { type: 'ExternalAccountTrusted.v1', data: { at: T0 } };
const deletedEvents: ExternalAccountEvent[] = [
  { type: 'ExternalAccountStatusChanged.v1', data: { status: 'INACTIVE', previous: 'PENDING', reason: 'DELETED', at: T1 } },
  { type: 'ExternalAccountDeleted.v1', data: { at: T1 } },
];

describe('external account decider', () => {
  it('creates a PENDING account; a second create of the same stream is a conflict', () => {
    given(externalAccountDecider).when(create()).then([created()]);
    expect(given(externalAccountDecider, [created()]).state.status).toBe('PENDING');
    given(externalAccountDecider, [created()]).when(create()).thenFails('CONFLICT');
  });

  it.each<[BeneficiaryVerificationStatusValue | null, string]>([
    ['MATCHED', 'ACTIVE'],
    [null, 'ACTIVE'],
    ['UNSUPPORTED', 'ACTIVE'],
    ['CHECKED_BY_RECEIVING_FI', 'ACTIVE'],
    ['NOT_MATCHED', 'UNDER_REVIEW'],
    ['PARTIAL_MATCH', 'UNDER_REVIEW'],
  ])('the sandbox verification moves a %s check to %s', (check, status) => {
    given(externalAccountDecider, [created({ beneficiaryVerificationStatus: check })])
      .when({ type: 'CompleteVerification', now: T1 })
      .then([{ type: 'ExternalAccountStatusChanged.v1', data: { status: status as 'ACTIVE', previous: 'PENDING', reason: status === 'ACTIVE' ? 'VERIFIED' : 'BENEFICIARY_REVIEW', at: T1 } }]);
  });

  it('leaves a PENDING check, a production account, a verified one and a deleted one alone', () => {
    expect(verifiedStatus('PENDING')).toBe('PENDING');
    given(externalAccountDecider, [created({ beneficiaryVerificationStatus: 'PENDING' })]).when({ type: 'CompleteVerification', now: T1 }).then([]);
    given(externalAccountDecider, [created({ sandbox: false, mode: 'PRODUCTION' })]).when({ type: 'CompleteVerification', now: T1 }).then([]);
    const active: ExternalAccountEvent = { type: 'ExternalAccountStatusChanged.v1', data: { status: 'ACTIVE', previous: 'PENDING', reason: 'VERIFIED', at: T1 } };
    given(externalAccountDecider, [created(), active]).when({ type: 'CompleteVerification', now: T1 }).then([]);
    given(externalAccountDecider, [created(), ...deletedEvents]).when({ type: 'CompleteVerification', now: T1 }).then([]);
    given(externalAccountDecider).when({ type: 'CompleteVerification', now: T1 }).then([]);
  });

  it('deletes softly (INACTIVE), then the account is gone; a trusted beneficiary cannot be deleted', () => {
    given(externalAccountDecider, [created()]).when({ type: 'DeleteExternalAccount', now: T1 }).then(deletedEvents);
    expect(given(externalAccountDecider, [created(), ...deletedEvents]).state.status).toBe('INACTIVE');
    given(externalAccountDecider, [created(), ...deletedEvents]).when({ type: 'DeleteExternalAccount', now: T1 }).thenFails('REFERENCE_NOT_FOUND');
    given(externalAccountDecider).when({ type: 'DeleteExternalAccount', now: T1 }).thenFails('REFERENCE_NOT_FOUND');
    given(externalAccountDecider, [created(), trusted]).when({ type: 'DeleteExternalAccount', now: T1 }).thenFails('BENEFICIARY_TRUSTED');
  });

  it('trusts once; untrust needs a started challenge, the right code, and no expiry', () => {
    given(externalAccountDecider, [created()]).when({ type: 'TrustExternalAccount', now: T0 }).then([trusted]);
    given(externalAccountDecider, [created(), trusted]).when({ type: 'TrustExternalAccount', now: T0 }).then([]);
    given(externalAccountDecider, [created()]).when({ type: 'BeginUntrust', challengeId: 'ScaChallenge:1', expiresAt: T1, now: T0 }).thenFails('CONFLICT');
    given(externalAccountDecider, [created(), trusted]).when({ type: 'ConfirmUntrust', codeMatches: true, now: T0 }).thenFails('CONFLICT');
    const requested: ExternalAccountEvent = { type: 'ExternalAccountUntrustRequested.v1', data: { challengeId: 'ScaChallenge:1', expiresAt: T1, at: T0 } };
    given(externalAccountDecider, [created(), trusted]).when({ type: 'BeginUntrust', challengeId: 'ScaChallenge:1', expiresAt: T1, now: T0 }).then([requested]);
    given(externalAccountDecider, [created(), trusted, requested]).when({ type: 'ConfirmUntrust', codeMatches: false, now: T0 }).thenFails('INVALID_INPUT');
    given(externalAccountDecider, [created(), trusted, requested]).when({ type: 'ConfirmUntrust', codeMatches: true, now: T1 }).thenFails('CONFLICT');
    given(externalAccountDecider, [created(), trusted, requested]).when({ type: 'ConfirmUntrust', codeMatches: true, challengeId: 'ScaChallenge:2', now: T0 }).thenFails('INVALID_INPUT');
    given(externalAccountDecider, [created(), trusted, requested]).when({ type: 'ConfirmUntrust', codeMatches: true, challengeId: 'ScaChallenge:1', now: T0 }).then([{ type: 'ExternalAccountUntrusted.v1', data: { at: T0 } }]);
    given(externalAccountDecider, [created(), trusted, requested]).when({ type: 'ConfirmUntrust', codeMatches: true, now: T0 }).then([{ type: 'ExternalAccountUntrusted.v1', data: { at: T0 } }]);
    const untrusted: ExternalAccountEvent = { type: 'ExternalAccountUntrusted.v1', data: { at: T0 } };
    given(externalAccountDecider, [created(), trusted, requested, untrusted]).when({ type: 'DeleteExternalAccount', now: T1 }).then(deletedEvents);
  });
});
