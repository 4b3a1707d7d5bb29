import { generateKeyPairSync, randomBytes } from 'node:crypto';
import type { Mode } from '@payments/contracts';
import { queryRows, SqlExecutor } from '@payments/eventsourcing';

export interface WebhookKeys {
  publicKeyPem: string;
  privateKeyPem: string;
  /** Standard Webhooks secret: `whsec_` + base64 of 32 random bytes. */
  secret: string;
}

/**
 * The platform's webhook keys (one P-256 pair and one HMAC secret per platform and mode), generated on first need.
 * Two first needs at once both insert; ON CONFLICT keeps the first and both read it back, so they agree.
 */
export async function webhookKeysOf(db: SqlExecutor, platformId: string, mode: Mode): Promise<WebhookKeys> {
  const found = await read(db, platformId, mode);
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
      pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      `whsec_${randomBytes(32).toString('base64')}`,
    ],
  );
  return (await read(db, platformId, mode))!;
}

async function read(db: SqlExecutor, platformId: string, mode: Mode): Promise<WebhookKeys | undefined> {
  const [row] = await queryRows(db, `SELECT public_key_pem, private_key_pem, secret FROM webhook_keys WHERE platform_id = $1 AND mode = $2`, [platformId, mode]);
  return row ? { publicKeyPem: row.public_key_pem, privateKeyPem: row.private_key_pem, secret: row.secret } : undefined;
}
