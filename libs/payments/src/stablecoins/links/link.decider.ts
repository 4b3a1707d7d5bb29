import { assertNever, Decider, DomainError, DomainEvent } from '@payments/eventsourcing';
import type { Mode, StablecoinProvider, StablecoinProviderAccount, StablecoinProviderAccountStatus, StablecoinProviderEnvironment } from '@payments/contracts';

/** What a link fixes. The secret is sealed (SecretSealer, bound to the link id) before it reaches the log. */
export interface LinkTerms {
  linkId: string;
  platformId: string;
  mode: Mode;
  provider: StablecoinProvider;
  providerAccountId: string;
  providerEnvironment: StablecoinProviderEnvironment;
  apiClientId: string;
  sealedSecret: string;
  at: string;
}

export type StablecoinProviderAccountLinked = DomainEvent<'StablecoinProviderAccountLinked.v1', LinkTerms>;
export type StablecoinProviderAccountVerified = DomainEvent<'StablecoinProviderAccountVerified.v1', { status: StablecoinProviderAccountStatus; at: string }>;
export type LinkEvent = StablecoinProviderAccountLinked | StablecoinProviderAccountVerified;

export type LinkState = { status: 'NONE' } | (Omit<LinkTerms, 'at'> & { status: 'LINKED'; linkStatus: StablecoinProviderAccountStatus; lastVerifiedAt?: string; createdAt: string; updatedAt: string });
export type ExistingLink = Extract<LinkState, { status: 'LINKED' }>;

export type LinkCommand =
  /** Verified credentials for a provider account: a new link, or new credentials for one that is no longer ACTIVE. */
  | { type: 'Link'; terms: LinkTerms }
  /** The provider's answer to a later verification. */
  | { type: 'RecordVerification'; status: StablecoinProviderAccountStatus; at: string };

export function evolveLink(state: LinkState, event: LinkEvent): LinkState {
  switch (event.type) {
    case 'StablecoinProviderAccountLinked.v1': {
      const { at, ...terms } = event.data;
      const createdAt = state.status === 'LINKED' ? state.createdAt : at;
      return { ...terms, status: 'LINKED', linkStatus: 'ACTIVE', lastVerifiedAt: at, createdAt, updatedAt: at };
    }
    case 'StablecoinProviderAccountVerified.v1':
      if (state.status === 'NONE') return state;
      return { ...state, linkStatus: event.data.status, lastVerifiedAt: event.data.status === 'ACTIVE' ? event.data.at : state.lastVerifiedAt, updatedAt: event.data.at };
    default:
      return assertNever(event);
  }
}

/**
 * A provider account link (stream `StablecoinProviderAccount:<uuid>`, one per platform, mode, provider and provider
 * account): linked with verified credentials, then ACTIVE, INVALID or REVOKED as the provider answers later checks.
 */
export const linkDecider: Decider<LinkState, LinkCommand, LinkEvent> = {
  initialState: { status: 'NONE' },
  evolve: evolveLink,
  decide(command, state) {
    switch (command.type) {
      case 'Link':
        if (state.status === 'LINKED' && state.linkStatus === 'ACTIVE') return new DomainError('CONFLICT', 'this provider account is already linked and ACTIVE');
        return [{ type: 'StablecoinProviderAccountLinked.v1', data: command.terms }];
      case 'RecordVerification':
        if (state.status === 'NONE') return new DomainError('STABLECOIN_PROVIDER_ACCOUNT_NOT_FOUND', 'stablecoin provider account link not found');
        // A revoked link stays revoked: only new credentials (Link) bring it back.
        if (state.linkStatus === 'REVOKED') return [];
        if (state.linkStatus === command.status && command.status !== 'ACTIVE') return [];
        return [{ type: 'StablecoinProviderAccountVerified.v1', data: { status: command.status, at: command.at } }];
      default:
        return assertNever(command);
    }
  },
};

export function toProviderAccount(s: ExistingLink): StablecoinProviderAccount {
  return {
    id: s.linkId,
    provider: s.provider,
    providerAccountId: s.providerAccountId,
    providerEnvironment: s.providerEnvironment,
    status: s.linkStatus,
    ...(s.lastVerifiedAt ? { lastVerifiedAt: s.lastVerifiedAt } : {}),
    createdAt: s.createdAt,
    updatedAt: s.updatedAt,
  };
}
