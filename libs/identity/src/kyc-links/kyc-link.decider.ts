import type { KycLinkProvider, Mode } from '@payments/contracts';
import { assertNever, Decider, DomainError } from '@payments/eventsourcing';
import { KycLinkEvent, KycLinkIssued } from './kyc-link.events';

export type KycLinkState = { status: 'NONE' } | ({ status: 'ISSUED' } & KycLinkIssued['data']) | ({ status: 'OPENED'; openedAt: string } & KycLinkIssued['data']);

export type KycLinkCommand =
  | {
      type: 'IssueKycLink';
      linkId: string;
      customerId: string;
      platformId: string;
      mode: Mode;
      provider: KycLinkProvider;
      secretHash: string;
      redirectUri?: string;
      /** The customer's required contact channels that are not VERIFIED yet (from its contactVerification). */
      unverifiedChannels: string[];
      expiresAt: string;
      now: string;
    }
  | { type: 'OpenKycLink'; customerActive: boolean; now: string };

/** Issued only once every required contact channel is verified; opened once, before it expires. */
export const kycLinkDecider: Decider<KycLinkState, KycLinkCommand, KycLinkEvent> = {
  initialState: { status: 'NONE' },
  decide(command, state) {
    switch (command.type) {
      case 'IssueKycLink': {
        if (state.status !== 'NONE') return new DomainError('CONFLICT', 'kyc link already issued');
        if (command.unverifiedChannels.length > 0) {
          const channels = command.unverifiedChannels.join(' and ');
          return new DomainError('CONFLICT', `verify the customer's ${channels} before creating a KYC link`, { unverifiedChannels: command.unverifiedChannels });
        }
        const { type: _t, unverifiedChannels: _u, now: issuedAt, ...data } = command;
        return [{ type: 'KycLinkIssued.v1', data: { ...data, issuedAt } }];
      }
      case 'OpenKycLink':
        if (state.status === 'NONE') return new DomainError('NOT_FOUND', 'no such KYC link');
        if (state.status === 'OPENED') return new DomainError('KYC_LINK_USED', 'this KYC link has been used already');
        if (command.now >= state.expiresAt || !command.customerActive) return new DomainError('KYC_LINK_EXPIRED', 'this KYC link has expired');
        return [{ type: 'KycLinkOpened.v1', data: { linkId: state.linkId, customerId: state.customerId, openedAt: command.now } }];
      default:
        return assertNever(command);
    }
  },
  evolve(state, event) {
    switch (event.type) {
      case 'KycLinkIssued.v1':
        return { status: 'ISSUED', ...event.data };
      case 'KycLinkOpened.v1':
        return state.status === 'ISSUED' ? { ...state, status: 'OPENED', openedAt: event.data.openedAt } : state;
      default:
        return assertNever(event);
    }
  },
};
