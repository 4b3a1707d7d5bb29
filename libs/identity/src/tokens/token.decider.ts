import type { FieldError, Mode, Permission } from '@payments/contracts';
import { PERMISSIONS } from '@payments/contracts';
import { assertNever, Decider, DomainError } from '@payments/eventsourcing';
import { TokenEvent } from './token.events';

interface TokenFields {
  tokenId: string;
  platformId: string;
  mode: Mode;
  clientId: string;
}

export type TokenState = { status: 'NONE' } | ({ status: 'ACTIVE' } & TokenFields) | ({ status: 'DELETED' } & TokenFields);

export type TokenCommand =
  | {
      type: 'CreateToken';
      tokenId: string;
      platformId: string;
      mode: Mode;
      name: string;
      permissions: readonly Permission[];
      clientId: string;
      secretHash: string;
      now: string;
    }
  | { type: 'DeleteToken'; platformId: string; mode: Mode; now: string };

export const tokenDecider: Decider<TokenState, TokenCommand, TokenEvent> = {
  initialState: { status: 'NONE' },

  decide(command, state) {
    switch (command.type) {
      case 'CreateToken': {
        if (state.status !== 'NONE') return new DomainError('CONFLICT', `token ${command.tokenId} already exists`);
        const errors = validateToken(command.name, command.permissions);
        if (errors.length > 0) return new DomainError('INVALID_INPUT', 'the token is invalid', { errors });
        const { type: _type, now, ...data } = command;
        return [{ type: 'TokenCreated.v1', data: { ...data, name: command.name.trim(), permissions: canonical(command.permissions), createdAt: now } }];
      }
      case 'DeleteToken':
        // Another tenant's token, or one already deleted, does not exist for the caller.
        if (state.status !== 'ACTIVE' || state.platformId !== command.platformId || state.mode !== command.mode) {
          return new DomainError('TOKEN_NOT_FOUND', 'token not found');
        }
        return [
          {
            type: 'TokenDeleted.v1',
            data: { tokenId: state.tokenId, platformId: state.platformId, mode: state.mode, clientId: state.clientId, deletedAt: command.now },
          },
        ];
      default:
        return assertNever(command);
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'TokenCreated.v1': {
        const { tokenId, platformId, mode, clientId } = event.data;
        return { status: 'ACTIVE', tokenId, platformId, mode, clientId };
      }
      case 'TokenDeleted.v1':
        return state.status === 'ACTIVE' ? { ...state, status: 'DELETED' } : state;
      default:
        return assertNever(event);
    }
  },
};

function validateToken(name: string, permissions: readonly Permission[]): FieldError[] {
  const errors: FieldError[] = [];
  const trimmed = name.trim();
  if (trimmed.length === 0 || trimmed.length > 255) errors.push({ field: 'name', message: 'name must be 1-255 characters' });
  if (permissions.length === 0) errors.push({ field: 'permissions', message: 'at least one permission is required' });
  permissions.forEach((p, i) => {
    if (!PERMISSIONS.includes(p)) errors.push({ field: `permissions.${i}`, message: `unknown permission ${String(p)}` });
  });
  if (new Set(permissions).size !== permissions.length) errors.push({ field: 'permissions', message: 'permissions must not repeat' });
  return errors;
}

/** Stored in the one order the API documents: VIEW, TRANSACT, MANAGE. */
function canonical(permissions: readonly Permission[]): Permission[] {
  return PERMISSIONS.filter((p) => permissions.includes(p));
}
