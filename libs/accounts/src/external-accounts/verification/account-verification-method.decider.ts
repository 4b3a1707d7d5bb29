import type { AccountVerificationMethod } from '@payments/contracts';
import { assertNever, Decider } from '@payments/eventsourcing';
import { AccountVerificationMethodEvent } from './account-verification-method.events';

/** A currency's configured method; null while never configured (DEFAULT_ACCOUNT_VERIFICATION_METHOD applies). */
export interface AccountVerificationMethodState {
  method: AccountVerificationMethod | null;
}

export type SetAccountVerificationMethod = {
  type: 'SetAccountVerificationMethod';
  currency: string;
  method: AccountVerificationMethod;
  operator: { id: string; name: string };
  now: string;
};

export function evolveAccountVerificationMethod(state: AccountVerificationMethodState, event: AccountVerificationMethodEvent): AccountVerificationMethodState {
  switch (event.type) {
    case 'AccountVerificationMethodSet.v1':
      return { method: event.data.method };
    default:
      return assertNever(event.type);
  }
}

/**
 * Setting the method a currency already has appends nothing (and so records no audit entry: nothing changed).
 * Setting the default on a currency never configured is a change: it pins the currency to it explicitly.
 */
export const accountVerificationMethodDecider: Decider<AccountVerificationMethodState, SetAccountVerificationMethod, AccountVerificationMethodEvent> = {
  initialState: { method: null },
  evolve: evolveAccountVerificationMethod,
  decide(command, state) {
    switch (command.type) {
      case 'SetAccountVerificationMethod': {
        if (command.method === state.method) return [];
        const { currency, method, operator, now } = command;
        return [{ type: 'AccountVerificationMethodSet.v1', data: { currency, method, previous: state.method, operatorId: operator.id, operatorName: operator.name, at: now } }];
      }
      default:
        return assertNever(command.type);
    }
  },
};
