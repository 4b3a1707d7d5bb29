import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * The server key for hashing client secrets: SECRET_HASH_KEY (hex, >= 32 bytes) when set, as in a cluster where it
 * comes from a Kubernetes Secret; else a key generated once into the local data dir (mode 0600) for `npm start`.
 */
export function loadSecretHashKey(envValue: string | undefined, fallbackFile: string): Buffer {
  if (envValue) {
    const key = Buffer.from(envValue, 'hex');
    if (key.length < 32 || key.toString('hex') !== envValue.toLowerCase()) throw new Error('SECRET_HASH_KEY must be at least 64 hex characters');
    return key;
  }
  if (existsSync(fallbackFile)) return Buffer.from(readFileSync(fallbackFile, 'utf8').trim(), 'hex');
  mkdirSync(dirname(fallbackFile), { recursive: true });
  const key = randomBytes(32);
  writeFileSync(fallbackFile, key.toString('hex'), { mode: 0o600 });
  return key;
}
