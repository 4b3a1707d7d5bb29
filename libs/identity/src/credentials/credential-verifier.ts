import type { DataSource } from 'typeorm';
import { ApiError, Mode, Permission, VerifiedCredential, VerifyCredentialRequest } from '@payments/contracts';
import { SecretHasher } from './secrets';

interface CredentialRow {
  client_id: string;
  platform_id: string;
  mode: Mode;
  permissions: Permission[];
  secret_hash: string;
}

/** Checks a client id and secret against the credentials read model. */
export class CredentialVerifier {
  constructor(
    private readonly dataSource: DataSource,
    private readonly hasher: SecretHasher,
  ) {}

  async verify(request: VerifyCredentialRequest): Promise<VerifiedCredential> {
    const rows: CredentialRow[] = await this.dataSource.query(
      `SELECT client_id, platform_id, mode, permissions, secret_hash FROM api_tokens WHERE client_id = $1 AND deleted_at IS NULL`,
      [String(request.clientId ?? '')],
    );
    const row = rows[0];
    if (!this.hasher.verify(String(request.clientSecret ?? ''), row?.secret_hash) || !row) {
      throw new ApiError('UNAUTHORIZED', 'invalid client credentials');
    }
    return { clientId: row.client_id, platformId: row.platform_id, mode: row.mode, permissions: row.permissions };
  }
}
