import type { EntityManager } from 'typeorm';
import type { Projection } from '@payments/eventsourcing';
import { InternalAccountSettings } from './internal-account-settings.decider';
import { InternalAccountSettingsEvent } from './internal-account-settings.events';

/** `ledger_accounts.private_enabled` and `updated_at`, in the command's transaction (the API reads the row). */
export const projectInternalAccountSettings: Projection<EntityManager, InternalAccountSettings, InternalAccountSettingsEvent> = async (tx, events) => {
  for (const event of events) {
    const d = event.data;
    await tx.query(`UPDATE ledger_accounts SET private_enabled = $2, updated_at = $3 WHERE account_id = $1`, [d.accountId, d.privateEnabled, d.at]);
  }
};
