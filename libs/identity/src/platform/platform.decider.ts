import { assertNever, Decider, DomainError } from '@payments/eventsourcing';
import type { Mode, Permission } from '@payments/contracts';
import { PlatformEvent } from './platform.events';

export type PlatformState =
  | { status: 'NONE' }
  | { status: 'ACTIVE'; platformId: string; name: string; clientIds: readonly string[] };

export interface NewCredential {
  clientId: string;
  name: string;
  mode: Mode;
  permissions: Permission[];
  secretHash: string;
}

export type PlatformCommand = { type: 'CreatePlatform'; platformId: string; name: string; credentials: NewCredential[]; now: string };

export const platformStreamId = (platformId: string): string => platformId; // ids are already `Platform:<uuid>`

export const platformDecider: Decider<PlatformState, PlatformCommand, PlatformEvent> = {
  initialState: { status: 'NONE' },

  decide(command, state) {
    switch (command.type) {
      case 'CreatePlatform': {
        if (state.status !== 'NONE') return new DomainError('CONFLICT', `platform ${command.platformId} already exists`);
        const name = command.name.trim();
        if (name.length === 0 || name.length > 200) return new DomainError('INVALID_INPUT', 'platform name must be 1-200 characters');
        return [
          { type: 'PlatformCreated.v1', data: { platformId: command.platformId, name, createdAt: command.now } },
          ...command.credentials.map((c) => ({ type: 'CredentialIssued.v1' as const, data: { ...c, issuedAt: command.now } })),
        ];
      }
      default:
        return assertNever(command.type);
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'PlatformCreated.v1':
        return { status: 'ACTIVE', platformId: event.data.platformId, name: event.data.name, clientIds: [] };
      case 'CredentialIssued.v1':
        return state.status === 'ACTIVE' ? { ...state, clientIds: [...state.clientIds, event.data.clientId] } : state;
      default:
        return assertNever(event);
    }
  },
};
