import { OperatorRole } from '@payments/contracts';
import { assertNever, Decider, DomainError } from '@payments/eventsourcing';
import { OperatorEvent } from './operator.events';

export type OperatorState = { status: 'NONE' } | { status: 'ACTIVE' | 'DISABLED'; operatorId: string; name: string; role: OperatorRole };

export type OperatorCommand =
  | { type: 'CreateOperator'; operatorId: string; name: string; role: OperatorRole; clientId: string; secretHash: string; now: string }
  | { type: 'DisableOperator'; operatorId: string; now: string };

/** An operator of the deployment: created with one credential (its secret kept as a keyed hash), disabled for good. */
export const operatorDecider: Decider<OperatorState, OperatorCommand, OperatorEvent> = {
  initialState: { status: 'NONE' },

  decide(command, state) {
    switch (command.type) {
      case 'CreateOperator': {
        if (state.status !== 'NONE') return new DomainError('CONFLICT', `operator ${command.operatorId} already exists`);
        const name = command.name.trim();
        if (name.length === 0 || name.length > 200) return new DomainError('INVALID_INPUT', 'operator name must be 1-200 characters');
        const { operatorId, role, clientId, secretHash, now } = command;
        return [{ type: 'OperatorCreated.v1', data: { operatorId, name, role, clientId, secretHash, createdAt: now } }];
      }
      case 'DisableOperator':
        if (state.status === 'NONE') return new DomainError('NOT_FOUND', 'no such operator');
        if (state.status === 'DISABLED') return [];
        return [{ type: 'OperatorDisabled.v1', data: { operatorId: command.operatorId, disabledAt: command.now } }];
      default:
        return assertNever(command);
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'OperatorCreated.v1':
        return { status: 'ACTIVE', operatorId: event.data.operatorId, name: event.data.name, role: event.data.role };
      case 'OperatorDisabled.v1':
        return state.status === 'NONE' ? state : { ...state, status: 'DISABLED' };
      default:
        return assertNever(event);
    }
  },
};
