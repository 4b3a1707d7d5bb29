import { assertNever, Decider } from '@payments/eventsourcing';
import { InternalAccountSettingsEvent } from './internal-account-settings.events';

/** An internal account's settings; an account whose stream is empty has the defaults. */
export interface InternalAccountSettings {
  privateEnabled: boolean;
}

export type InternalAccountSettingsCommand = {
  type: 'SetPrivacy';
  accountId: string;
  privateEnabled: boolean;
  /** The wallet session that signed the change. */
  sessionId: string;
  now: string;
};

export function evolveInternalAccountSettings(state: InternalAccountSettings, event: InternalAccountSettingsEvent): InternalAccountSettings {
  switch (event.type) {
    case 'InternalAccountPrivacyChanged.v1':
      return { ...state, privateEnabled: event.data.privateEnabled };
    default:
      return assertNever(event.type);
  }
}

/**
 * The settings of one internal account (stream `InternalAccountSettings:<accountId>`). Setting a value it already has
 * appends nothing, so a repeated update changes neither the account nor its `updatedAt`. Whether the account may have
 * the setting (an Embedded Wallet) and who signed are checked before the command.
 */
export const internalAccountSettingsDecider: Decider<InternalAccountSettings, InternalAccountSettingsCommand, InternalAccountSettingsEvent> = {
  initialState: { privateEnabled: false },
  evolve: evolveInternalAccountSettings,
  decide(command, state) {
    switch (command.type) {
      case 'SetPrivacy': {
        if (command.privateEnabled === state.privateEnabled) return [];
        const { accountId, privateEnabled, sessionId, now } = command;
        return [{ type: 'InternalAccountPrivacyChanged.v1', data: { accountId, privateEnabled, sessionId, at: now } }];
      }
      default:
        return assertNever(command.type);
    }
  },
};
