import { given } from '@payments/eventsourcing';
import { CreateExternalAccount, externalAccountDecider } from '../external-account.decider';
import { ExternalAccountCreated, ExternalAccountEvent } from '../external-account.events';

/** The external account decider's production verification: an operator's decision, a payout rail's report. */
const T0 = '2026-01-01T00:00:00.000Z';
const T1 = '2026-01-01T00:05:00.000Z';

const create = (over: Partial<CreateExternalAccount> = {}): CreateExternalAccount => ({
  type: 'CreateExternalAccount',
  externalAccountId: 'ExternalAccount:0190f5a0-0000-7000-8000-000000000002',
  platformId: 'Platform:1',
  mode: 'PRODUCTION',
  customerId: 'Customer:1',
  currency: 'NGN',
  platformAccountId: null,
  accountInfo: { accountType: 'NGN_ACCOUNT', accountNumber: '0123456789', bankName: 'ACCESS_BANK' },
  beneficiaryVerificationStatus: 'PENDING',
  sandbox: false,
  verificationMethod: 'OPERATOR_APPROVAL',
  now: T0,
  ...over,
});
const created = (over: Partial<CreateExternalAccount> = {}): ExternalAccountCreated => {
  const { type: _t, now, ...data } = create(over);
  return { type: 'ExternalAccountCreated.v1', data: { ...data, createdAt: now } };
};
const byRail = created({ verificationMethod: 'PAYOUT_RAIL' });
const approve = { type: 'DecideExternalAccount', outcome: 'VERIFIED', now: T1 } as const;
const reject = { type: 'DecideExternalAccount', outcome: 'FAILED', now: T1 } as const;
const activated: ExternalAccountEvent = { type: 'ExternalAccountStatusChanged.v1', data: { status: 'ACTIVE', previous: 'PENDING', reason: 'VERIFIED', verification: 'OPERATOR_APPROVAL', at: T1 } };
const rejected: ExternalAccountEvent = { type: 'ExternalAccountStatusChanged.v1', data: { status: 'UNVERIFIED', previous: 'PENDING', reason: 'VERIFICATION_FAILED', verification: 'OPERATOR_APPROVAL', at: T1 } };
const deleted: ExternalAccountEvent[] = [
  { type: 'ExternalAccountStatusChanged.v1', data: { status: 'INACTIVE', previous: 'PENDING', reason: 'DELETED', at: T1 } },
  { type: 'ExternalAccountDeleted.v1', data: { at: T1 } },
];

describe('production external account verification (decider)', () => {
  it('records the method of the account; production events written before it read as OPERATOR_APPROVAL, sandbox ones as none', () => {
    expect(given(externalAccountDecider, [byRail]).state).toMatchObject({ status: 'PENDING', verificationMethod: 'PAYOUT_RAIL' });
    const { verificationMethod: _m, ...legacy } = created().data;
    expect(given(externalAccountDecider, [{ type: 'ExternalAccountCreated.v1', data: legacy }]).state).toMatchObject({ verificationMethod: 'OPERATOR_APPROVAL' });
    const { verificationMethod: _s, ...sandbox } = created({ mode: 'SANDBOX', sandbox: true, beneficiaryVerificationStatus: 'MATCHED' }).data;
    expect(given(externalAccountDecider, [{ type: 'ExternalAccountCreated.v1', data: sandbox }]).state).toMatchObject({ verificationMethod: null });
  });

  it('an operator approves a pending account (ACTIVE) or rejects it (the published UNVERIFIED)', () => {
    given(externalAccountDecider, [created()]).when(approve).then([activated]);
    given(externalAccountDecider, [created()]).when(reject).then([rejected]);
    expect(given(externalAccountDecider, [created(), activated]).state.status).toBe('ACTIVE');
    expect(given(externalAccountDecider, [created(), rejected]).state.status).toBe('UNVERIFIED');
  });

  it('an account UNDER_REVIEW awaits an operator too', () => {
    const review: ExternalAccountEvent = { type: 'ExternalAccountStatusChanged.v1', data: { status: 'UNDER_REVIEW', previous: 'PENDING', reason: 'BENEFICIARY_REVIEW', at: T0 } };
    given(externalAccountDecider, [created(), review])
      .when(approve)
      .then([{ type: 'ExternalAccountStatusChanged.v1', data: { status: 'ACTIVE', previous: 'UNDER_REVIEW', reason: 'VERIFIED', verification: 'OPERATOR_APPROVAL', at: T1 } }]);
  });

  it('decides once: a second decision, the same or not, is a conflict', () => {
    given(externalAccountDecider, [created(), activated]).when(approve).thenFails('CONFLICT');
    given(externalAccountDecider, [created(), activated]).when(reject).thenFails('CONFLICT');
    given(externalAccountDecider, [created(), rejected]).when(approve).thenFails('CONFLICT');
    given(externalAccountDecider, [created(), rejected]).when(reject).thenFails('CONFLICT');
  });

  it('leaves to the rail an account whose method is PAYOUT_RAIL; a sandbox, deleted or unknown account is not found', () => {
    given(externalAccountDecider, [byRail]).when(approve).thenFails('CONFLICT');
    given(externalAccountDecider, [created({ mode: 'SANDBOX', sandbox: true, verificationMethod: undefined, beneficiaryVerificationStatus: 'NOT_MATCHED' })]).when(approve).thenFails('REFERENCE_NOT_FOUND');
    given(externalAccountDecider, [created(), ...deleted]).when(approve).thenFails('REFERENCE_NOT_FOUND');
    given(externalAccountDecider).when(reject).thenFails('REFERENCE_NOT_FOUND');
  });

  it('a payout rail verifies or fails its account, the rail and the reason kept in the log', () => {
    given(externalAccountDecider, [byRail])
      .when({ type: 'RecordRailVerification', outcome: 'VERIFIED', rail: 'ACH', now: T1 })
      .then([
        { type: 'ExternalAccountRailVerificationRecorded.v1', data: { rail: 'ACH', outcome: 'VERIFIED', at: T1 } },
        { type: 'ExternalAccountStatusChanged.v1', data: { status: 'ACTIVE', previous: 'PENDING', reason: 'VERIFIED', verification: 'PAYOUT_RAIL', at: T1 } },
      ]);
    given(externalAccountDecider, [byRail])
      .when({ type: 'RecordRailVerification', outcome: 'FAILED', rail: 'ACH', reason: 'R03 no account', now: T1 })
      .then([
        { type: 'ExternalAccountRailVerificationRecorded.v1', data: { rail: 'ACH', outcome: 'FAILED', reason: 'R03 no account', at: T1 } },
        { type: 'ExternalAccountStatusChanged.v1', data: { status: 'UNVERIFIED', previous: 'PENDING', reason: 'VERIFICATION_FAILED', verification: 'PAYOUT_RAIL', at: T1 } },
      ]);
  });

  it('a rail repeating its outcome appends nothing; another outcome, or an account an operator decides, is a conflict', () => {
    const verified = given(externalAccountDecider, [byRail]).when({ type: 'RecordRailVerification', outcome: 'VERIFIED', rail: 'ACH', now: T1 }).decision as ExternalAccountEvent[];
    given(externalAccountDecider, [byRail, ...verified]).when({ type: 'RecordRailVerification', outcome: 'VERIFIED', rail: 'ACH', now: T1 }).then([]);
    given(externalAccountDecider, [byRail, ...verified]).when({ type: 'RecordRailVerification', outcome: 'FAILED', rail: 'ACH', now: T1 }).thenFails('CONFLICT');
    given(externalAccountDecider, [created()]).when({ type: 'RecordRailVerification', outcome: 'VERIFIED', rail: 'ACH', now: T1 }).thenFails('CONFLICT');
  });

  it('the sandbox timer never moves a production account, whatever its method', () => {
    given(externalAccountDecider, [created({ beneficiaryVerificationStatus: 'MATCHED' })]).when({ type: 'CompleteVerification', now: T1 }).then([]);
    given(externalAccountDecider, [byRail]).when({ type: 'CompleteVerification', now: T1 }).then([]);
  });

  it('a rejected account can still be deleted', () => {
    given(externalAccountDecider, [created(), rejected])
      .when({ type: 'DeleteExternalAccount', now: T1 })
      .then([
        { type: 'ExternalAccountStatusChanged.v1', data: { status: 'INACTIVE', previous: 'UNVERIFIED', reason: 'DELETED', at: T1 } },
        { type: 'ExternalAccountDeleted.v1', data: { at: T1 } },
      ]);
  });
});
