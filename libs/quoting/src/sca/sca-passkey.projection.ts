import type { EntityManager } from 'typeorm';
import type { Projection } from '@payments/eventsourcing';
import { ScaPasskeyEvent } from './sca-passkey.events';
import { ScaPasskeyState } from './sca-passkey.state';

/** `sca_passkeys`: the enrolled credential per customer (what verification needs), gone once removed. */
export const projectScaPasskey: Projection<EntityManager, ScaPasskeyState, ScaPasskeyEvent> = async (tx, _events, state) => {
  if (state.status === 'NONE') return;
  if (state.status === 'REMOVED') {
    await tx.query(`DELETE FROM sca_passkeys WHERE customer_id = $1`, [state.customerId]);
    return;
  }
  await tx.query(
    `INSERT INTO sca_passkeys (customer_id, platform_id, mode, passkey_id, credential_id, public_key, counter, transports, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
     ON CONFLICT (customer_id) DO UPDATE SET passkey_id = $4, credential_id = $5, public_key = $6, counter = $7, transports = $8, created_at = $9, updated_at = $10`,
    [
      state.customerId, state.platformId, state.mode, state.passkeyId, state.credentialId, Buffer.from(state.publicKey, 'base64url'),
      state.counter, JSON.stringify(state.transports), state.enrolledAt, state.updatedAt,
    ],
  );
};
