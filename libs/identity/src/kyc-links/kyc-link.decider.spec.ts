import { given } from '@payments/eventsourcing';
import { KycLinkCommand, kycLinkDecider as decider } from './kyc-link.decider';
import { KycLinkEvent } from './kyc-link.events';

const now = '2026-03-01T10:00:00.000Z';
const expiresAt = '2026-03-02T10:00:00.000Z';
const issue = (unverifiedChannels: string[] = []): KycLinkCommand => ({
  type: 'IssueKycLink', linkId: 'KycLink:l', customerId: 'Customer:c', platformId: 'Platform:p', mode: 'SANDBOX', provider: 'SUMSUB',
  secretHash: 'h', redirectUri: 'https://x.example/done', unverifiedChannels, expiresAt, now,
});
const issued: KycLinkEvent = {
  type: 'KycLinkIssued.v1',
  data: { linkId: 'KycLink:l', customerId: 'Customer:c', platformId: 'Platform:p', mode: 'SANDBOX', provider: 'SUMSUB', secretHash: 'h', redirectUri: 'https://x.example/done', expiresAt, issuedAt: now },
};
const opened: KycLinkEvent = { type: 'KycLinkOpened.v1', data: { linkId: 'KycLink:l', customerId: 'Customer:c', openedAt: now } };

describe('kycLinkDecider', () => {
  it('issues a link only when no required contact channel is left unverified', () => {
    given(decider).when(issue()).then([issued]);
    const refused = given(decider).when(issue(['email', 'phone'])).thenFails('CONFLICT');
    expect(refused.details).toEqual({ unverifiedChannels: ['email', 'phone'] });
    expect(refused.message).toMatch(/email and phone/);
  });

  it('opens once; a second open is KYC_LINK_USED', () => {
    given(decider, [issued]).when({ type: 'OpenKycLink', customerActive: true, now }).then([opened]);
    given(decider, [issued, opened]).when({ type: 'OpenKycLink', customerActive: true, now }).thenFails('KYC_LINK_USED');
    expect(given(decider, [issued, opened]).state).toMatchObject({ status: 'OPENED', redirectUri: 'https://x.example/done' });
  });

  it('expires at expiresAt, and with its customer', () => {
    given(decider, [issued]).when({ type: 'OpenKycLink', customerActive: true, now: expiresAt }).thenFails('KYC_LINK_EXPIRED');
    given(decider, [issued]).when({ type: 'OpenKycLink', customerActive: false, now }).thenFails('KYC_LINK_EXPIRED');
    given(decider).when({ type: 'OpenKycLink', customerActive: true, now }).thenFails('NOT_FOUND');
  });
});
