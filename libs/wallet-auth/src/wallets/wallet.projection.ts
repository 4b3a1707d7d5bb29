import type { EntityManager } from 'typeorm';
import type { Projection } from '@payments/eventsourcing';
import type { WalletEvent } from './wallet.events';
import type { WalletState } from './wallet.state';

/**
 * `wallets`: the provisioned wallets of each customer. `wallet_index`: which wallet a credential or session id belongs
 * to (the paths name only those ids). Rows of revoked credentials and of revoked or expired sessions go; whether an id
 * is live is always the wallet's state to say.
 */
export const projectWallet: Projection<EntityManager, WalletState, WalletEvent> = async (tx, events, state) => {
  if (state.status !== 'ACTIVE') return;
  for (const { type, data } of events) {
    if (type === 'WalletProvisioned.v1') {
      await tx.query(`INSERT INTO wallets (account_id, customer_id, platform_id, mode) VALUES ($1, $2, $3, $4) ON CONFLICT (account_id) DO NOTHING`, [
        data.accountId, data.customerId, data.platformId, data.mode,
      ]);
    }
    const id = type === 'WalletCredentialAdded.v1' ? data.credential.id : type === 'WalletSessionOpened.v1' ? data.session.id : undefined;
    if (id) {
      await tx.query(`INSERT INTO wallet_index (id, account_id, platform_id, mode, created_at) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (id) DO NOTHING`, [
        id, state.accountId, state.platformId, state.mode, data.at,
      ]);
    }
    if (type === 'WalletSessionRevoked.v1') await tx.query(`DELETE FROM wallet_index WHERE id = $1`, [data.sessionId]);
    // Sessions the state has forgotten (expired) leave the index when the next one opens: rows stay as few as live sessions.
    if (type === 'WalletSessionOpened.v1') {
      await tx.query(`DELETE FROM wallet_index WHERE account_id = $1 AND id LIKE 'Session:%' AND NOT (id = ANY($2::text[]))`, [state.accountId, state.sessions.map((s) => s.id)]);
    }
    if (type === 'WalletCredentialRevoked.v1') await tx.query(`DELETE FROM wallet_index WHERE id = $1`, [data.credentialId]);
  }
};
