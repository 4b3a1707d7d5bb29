import { generateKeyPairSync, randomBytes } from 'node:crypto';
import type { Mode } from '@payments/contracts';
import { queryRows, SqlExecutor } from '@payments/eventsourcing';
import { SecretSealer } from '@payments/runtime';

export interface WebhookKeys {
  publicKeyPem: string;
  privateKeyPem: string;
  /** Standard Webhooks secret: `whsec_` + base64 of 32 random bytes. */
  secret: string;
}

/**
 * The platform's webhook keys (one P-256 pair and one HMAC secret per platform and mode), generated on first need.
 * The private key and the secret are sealed at rest (AES-256-GCM under a key derived from the server's
 * SECRET_HASH_KEY), so a database dump alone cannot forge a platform's webhooks. Two first needs at once both insert;
 * ON CONFLICT keeps the first and both read it back, so they agree.
 */
export class WebhookKeyStore {
  private readonly sealer: SecretSealer;

  constructor(serverKey: Buffer) {
    this.sealer = new SecretSealer(serverKey, 'payments-platform/webhook-keys/v1');
  }

  async of(db: SqlExecutor, platformId: string, mode: Mode): Promise<WebhookKeys> {
    const found = await this.read(db, platformId, mode);
    if (found) return found;
    const pair = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
    await queryRows(
      db,
      `INSERT INTO webhook_keys (platform_id, mode, public_key_pem, private_key_pem, secret) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (platform_id, mode) DO NOTHING`,
      [
        platformId,
        mode,
        pair.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
        this.seal(pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), `${platformId}/${mode}/private`),
        this.seal(`whsec_${randomBytes(32).toString('base64')}`, `${platformId}/${mode}/secret`),
      ],
    );
    return (await this.read(db, platformId, mode))!;
  }

  private async read(db: SqlExecutor, platformId: string, mode: Mode): Promise<WebhookKeys | undefined> {
    const [row] = await queryRows(db, `SELECT public_key_pem, private_key_pem, secret FROM webhook_keys WHERE platform_id = $1 AND mode = $2`, [platformId, mode]);
    if (!row) return undefined;
    return {
      publicKeyPem: row.public_key_pem,
      privateKeyPem: this.open(row.private_key_pem, `${platformId}/${mode}/private`),
      secret: this.open(row.secret, `${platformId}/${mode}/secret`),
    };
  }

  private seal(plain: string, context: string): string {
    return this.sealer.seal(plain, context);
  }

  private open(stored: string, context: string): string {
    return this.sealer.isSealed(stored) ? this.sealer.open(stored, context) : stored; // written before sealing existed
  }
}
