import type { AccountVerificationMethod, ACCOUNTS_EVENTS, Catalogued } from '@payments/contracts';

/** One currency's production verification method: a stream per currency, deployment-wide (no platform). */
export const accountVerificationMethodStreamId = (currency: string): string => `AccountVerificationMethod:${currency}`;

/**
 * Internal: an ADMIN operator set how new production external accounts in `currency` are verified; `previous` is
 * null when the currency had never been configured (the default applied). The audit record goes with it.
 */
export type AccountVerificationMethodSet = {
  type: 'AccountVerificationMethodSet.v1';
  data: { currency: string; method: AccountVerificationMethod; previous: AccountVerificationMethod | null; operatorId: string; operatorName: string; at: string };
};

export type AccountVerificationMethodEvent = AccountVerificationMethodSet;

/** Every event of the stream is declared in the accounts catalogue, its stored data fitting the declaration. */
const _declared: Catalogued<typeof ACCOUNTS_EVENTS, AccountVerificationMethodEvent> = true;
