import { given } from '@payments/eventsourcing';
import { EnrolScaPasskey, scaPasskeyDecider } from './sca-passkey.decider';
import { ScaPasskeyEnrolled, ScaPasskeyEvent } from './sca-passkey.events';

const owner = { platformId: 'Platform:1', mode: 'SANDBOX' as const };
const enrol: EnrolScaPasskey = {
  type: 'EnrolScaPasskey', passkeyId: 'ScaPasskey:1', customerId: 'Customer:1', ...owner, credentialId: 'cred', publicKey: 'pk', counter: 3,
  transports: ['internal'], aaguid: '00000000-0000-0000-0000-000000000000', deviceType: 'singleDevice', backedUp: false, origin: 'https://app.example.com', now: '2025-01-01T00:00:00.000Z',
};
const { type: _t, now: _n, ...data } = enrol;
const enrolled: ScaPasskeyEnrolled = { type: 'ScaPasskeyEnrolled.v1', data: { ...data, enrolledAt: enrol.now } };
const use = (challengeId: string, counter: number, extra = {}) => ({ type: 'RecordScaPasskeyUse' as const, passkeyId: 'ScaPasskey:1', challengeId, counter, ...owner, now: '2025-01-01T00:01:00.000Z', ...extra });
const used = (challengeId: string, counter: number): ScaPasskeyEvent => ({ type: 'ScaPasskeyUsed.v1', data: { passkeyId: 'ScaPasskey:1', challengeId, counter, at: '2025-01-01T00:01:00.000Z' } });
const removed: ScaPasskeyEvent = { type: 'ScaPasskeyRemoved.v1', data: { passkeyId: 'ScaPasskey:1', at: '2025-01-01T00:02:00.000Z' } };

describe('SCA passkey decider', () => {
  it('enrols one passkey per customer; a second is PASSKEY_ALREADY_ENROLLED until the first is removed', () => {
    given(scaPasskeyDecider).when(enrol).then([enrolled]);
    given(scaPasskeyDecider, [enrolled]).when(enrol).thenFails('PASSKEY_ALREADY_ENROLLED');
    given(scaPasskeyDecider, [enrolled, removed]).when({ ...enrol, passkeyId: 'ScaPasskey:2' }).then([{ ...enrolled, data: { ...enrolled.data, passkeyId: 'ScaPasskey:2' } }]);
  });

  it('answers another platform or mode as if nothing were enrolled', () => {
    given(scaPasskeyDecider, [enrolled]).when({ ...enrol, platformId: 'Platform:2' }).thenFails('NOT_FOUND');
    given(scaPasskeyDecider, [enrolled]).when({ type: 'RemoveScaPasskey', platformId: 'Platform:1', mode: 'PRODUCTION', now: enrol.now }).thenFails('NOT_FOUND');
    given(scaPasskeyDecider, [enrolled]).when(use('c1', 4, { platformId: 'Platform:2' })).thenFails('NOT_FOUND');
  });

  it('records a use only with a counter above the last one (when counting) and a challenge not answered before', () => {
    given(scaPasskeyDecider, [enrolled]).when(use('c1', 4)).then([used('c1', 4)]);
    given(scaPasskeyDecider, [enrolled]).when(use('c1', 3)).thenFails('SCA_AUTHORIZATION_FAILED');
    given(scaPasskeyDecider, [enrolled, used('c1', 4)]).when(use('c1', 9)).thenFails('SCA_AUTHORIZATION_FAILED');
    given(scaPasskeyDecider, [enrolled, used('c1', 4)]).when(use('c2', 4)).thenFails('SCA_AUTHORIZATION_FAILED');
    const counterless: ScaPasskeyEnrolled = { ...enrolled, data: { ...enrolled.data, counter: 0 } };
    given(scaPasskeyDecider, [counterless, used('c1', 0)]).when(use('c2', 0)).then([used('c2', 0)]);
    given(scaPasskeyDecider, [enrolled, removed]).when(use('c3', 5)).thenFails('NOT_FOUND');
    given(scaPasskeyDecider, [enrolled]).when(use('c3', 5, { passkeyId: 'ScaPasskey:old' })).thenFails('SCA_AUTHORIZATION_FAILED');
  });

  it('removes an enrolled passkey once', () => {
    const remove = { type: 'RemoveScaPasskey' as const, ...owner, now: '2025-01-01T00:02:00.000Z' };
    given(scaPasskeyDecider, [enrolled]).when(remove).then([removed]);
    given(scaPasskeyDecider, [enrolled, removed]).when(remove).thenFails('NOT_FOUND');
    given(scaPasskeyDecider).when(remove).thenFails('NOT_FOUND');
  });
});
