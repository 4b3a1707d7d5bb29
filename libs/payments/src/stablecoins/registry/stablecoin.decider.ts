import { Decider, DomainError, DomainEvent } from '@payments/eventsourcing';
import type { Mode, Stablecoin } from '@payments/contracts';

/** The registration: the token as the provider describes it, linked to this platform. */
export interface StablecoinTerms extends Omit<Stablecoin, 'updatedAt'> {
  platformId: string;
  mode: Mode;
  providerAccountId: string;
}

export type StablecoinRegistered = DomainEvent<'StablecoinRegistered.v1', StablecoinTerms>;
export type StablecoinEvent = StablecoinRegistered;
export type StablecoinState = { status: 'NONE' } | { status: 'REGISTERED'; terms: StablecoinTerms };
export type StablecoinCommand = { type: 'Register'; terms: StablecoinTerms };

/**
 * A registered stablecoin (stream `Stablecoin:<uuid>`, one per platform, mode, network and token identifier, so the
 * same token registered twice lands on the same stream and is refused).
 */
export const stablecoinDecider: Decider<StablecoinState, StablecoinCommand, StablecoinEvent> = {
  initialState: { status: 'NONE' },
  evolve: (_state, event) => ({ status: 'REGISTERED', terms: event.data }),
  decide(command, state) {
    if (state.status === 'REGISTERED') return new DomainError('CONFLICT', `this token is already registered as ${state.terms.id}`);
    return [{ type: 'StablecoinRegistered.v1', data: command.terms }];
  },
};

export function toStablecoin(terms: StablecoinTerms): Stablecoin {
  const { platformId: _p, mode: _m, providerAccountId: _a, ...stablecoin } = terms;
  return { ...stablecoin, updatedAt: terms.createdAt };
}
