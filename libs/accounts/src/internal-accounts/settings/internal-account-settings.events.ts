import type { ACCOUNTS_EVENTS, Catalogued } from '@payments/contracts';

/** The stream of an internal account's settings: apart from its ledger stream (money core), which never holds them. */
export const internalAccountSettingsStreamId = (accountId: string): string => `InternalAccountSettings:${accountId}`;

/**
 * Internal: an Embedded Wallet's privacy (`privateEnabled`) changed through PATCH /internal-accounts/{id}, signed by
 * `sessionId` (a session of the wallet; empty when the sandbox signature literal had no live session to name).
 */
export type InternalAccountPrivacyChanged = {
  type: 'InternalAccountPrivacyChanged.v1';
  data: { accountId: string; privateEnabled: boolean; sessionId: string; at: string };
};

export type InternalAccountSettingsEvent = InternalAccountPrivacyChanged;

/** Every event of the stream is declared in the accounts catalogue, its stored data fitting the declaration. */
const _declared: Catalogued<typeof ACCOUNTS_EVENTS, InternalAccountSettingsEvent> = true;
