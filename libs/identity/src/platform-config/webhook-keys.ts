import { createCipheriv, createDecipheriv, generateKeyPairSync, hkdfSync, randomBytes } from 'node:crypto';
import type { Mode } from '@payments/contracts';
import { queryRows, SqlExecutor } from '@payments/eventsourcing';

export interface WebhookKeys {
  publicKeyPem: string;
  privateKeyPem: string;
  /** Standard Webhooks secret: `whsec_` + base64 of 32 random bytes. */
  secret: string;
}

const SEALED = 'v1:';

/**
 * The platform's webhook keys (one P-256 pair and one HMAC secret per platform and mode), generated on first need.
 * The private key and the secret are sealed at rest (AES-256-GCM under a key derived from the server's
 * SECRET_HASH_KEY), so a database dump alone cannot forge a platform's webhooks. Two first needs at once both insert;
 * ON CONFLICT keeps the first and both read it back, so they agree.
 */
export class WebhookKeyStore {
  private readonly key: Buffer;

  constructor(serverKey: Buffer) {
    this.key = Buffer.from(hkdfSync('sha256', serverKey, Buffer.alloc(0), 'payments-platform/webhook-keys/v1', 32));
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

  /** `v1:` iv, tag and ciphertext (base64); the row's identity is the associated data, so values cannot be swapped. */
  private seal(plain: string, context: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv).setAAD(Buffer.from(context));
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return `${SEALED}${iv.toString('base64')}:${cipher.getAuthTag().toString('base64')}:${body.toString('base64')}`;
  }

  private open(stored: string, context: string): string {
    if (!stored.startsWith(SEALED)) return stored; // written before sealing existed
    const [iv, tag, body] = stored.slice(SEALED.length).split(':').map((part) => Buffer.from(part, 'base64'));
    const decipher = createDecipheriv('aes-256-gcm', this.key, iv).setAAD(Buffer.from(context)).setAuthTag(tag);
    return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
  }
}
