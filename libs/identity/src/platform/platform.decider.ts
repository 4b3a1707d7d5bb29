import { assertNever, Decider, DomainError } from '@payments/eventsourcing';
import { PlatformEvent } from './platform.events';

export type PlatformState = { status: 'NONE' } | { status: 'ACTIVE'; platformId: string; name: string };

export type PlatformCommand = { type: 'CreatePlatform'; platformId: string; name: string; now: string };

export const platformDecider: Decider<PlatformState, PlatformCommand, PlatformEvent> = {
  initialState: { status: 'NONE' },

  decide(command, state) {
    switch (command.type) {
      case 'CreatePlatform': {
        if (state.status !== 'NONE') return new DomainError('CONFLICT', `platform ${command.platformId} already exists`);
        const name = command.name.trim();
        if (name.length === 0 || name.length > 200) return new DomainError('INVALID_INPUT', 'platform name must be 1-200 characters');
        return [{ type: 'PlatformCreated.v1', data: { platformId: command.platformId, name, createdAt: command.now } }];
      }
      default:
        return assertNever(command.type);
    }
  },

  evolve(_state, event) {
    switch (event.type) {
      case 'PlatformCreated.v1':
        return { status: 'ACTIVE', platformId: event.data.platformId, name: event.data.name };
      default:
        return assertNever(event.type);
    }
  },
};
