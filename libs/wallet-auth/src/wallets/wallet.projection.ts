import type { EntityManager } from 'typeorm';
import type { Projection } from '@payments/eventsourcing';
import type { WalletEvent } from './wallet.events';
import type { WalletState } from './wallet.state';

/**
 * `wallets`: the provisioned wallets of each customer. `wallet_index`: which wallet a credential or session id belongs
 * to (the paths name only those ids). Rows of revoked credentials and of revoked or expired sessions go; whether an id
 * is live is always the wallet's state to say. `delegated_keys`: every delegated key as the wallet's state has it now
 * (never its sealed private key).
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
    const keyId = type === 'WalletDelegatedKeyCreated.v1' ? data.key.id : type === 'WalletDelegatedKeyActivated.v1' || type === 'WalletDelegatedKeyRevoked.v1' ? data.delegatedKeyId : undefined;
    const key = keyId ? state.delegatedKeys.find((k) => k.id === keyId) : undefined;
    if (key) {
      await tx.query(
        `INSERT INTO delegated_keys (id, account_id, card_id, funding_source_id, public_key, nickname, status, platform_id, mode, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
         ON CONFLICT (id) DO UPDATE SET status = EXCLUDED.status, updated_at = EXCLUDED.updated_at`,
        [key.id, state.accountId, key.cardId, key.fundingSourceId, key.publicKey, key.nickname, key.status, state.platformId, state.mode, key.createdAt, key.updatedAt],
      );
    }
  }
};
