import type { ScaPasskey } from '@payments/contracts';

/** A row of `sca_passkeys`: the credential as verification needs it. */
export interface ScaPasskeyRow {
  customer_id: string;
  platform_id: string;
  mode: string;
  passkey_id: string;
  credential_id: string;
  public_key: Buffer;
  counter: string | number;
  transports: string[];
  created_at: Date;
}

export const SCA_PASSKEY_COLUMNS = 'customer_id, platform_id, mode, passkey_id, credential_id, public_key, counter, transports, created_at';

export function toScaPasskey(row: ScaPasskeyRow): ScaPasskey {
  return { id: row.passkey_id, customerId: row.customer_id, credentialId: row.credential_id, transports: row.transports, createdAt: row.created_at.toISOString() };
}
