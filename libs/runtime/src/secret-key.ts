import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/** 32 bytes: every key derived from it (HKDF-SHA-256) is a 256-bit key; a shorter one would weaken all of them. */
export const SECRET_HASH_KEY_BYTES_MIN = 32;
const HOW_TO = 'generate one with `openssl rand -hex 32`';

/** The key from its hex text; throws naming `source` ("SECRET_HASH_KEY must be", "<file> must hold") when it is not hex or shorter than 32 bytes. */
export function parseSecretHashKey(hex: string, source = 'SECRET_HASH_KEY must be'): Buffer {
  const key = Buffer.from(hex, 'hex');
  if (key.length < SECRET_HASH_KEY_BYTES_MIN || key.toString('hex') !== hex.toLowerCase()) {
    throw new Error(`${source} at least ${SECRET_HASH_KEY_BYTES_MIN * 2} hex characters (${SECRET_HASH_KEY_BYTES_MIN} bytes); ${HOW_TO}`);
  }
  return key;
}

/**
 * Cluster mode (apps/<service>/src/main.ts): SECRET_HASH_KEY from the environment (a Kubernetes Secret), nothing else.
 * Fail closed: a pod that made up its own key would hash, seal and sign with a key no other pod shares.
 */
export function requireSecretHashKey(env: NodeJS.ProcessEnv = process.env): Buffer {
  if (!env.SECRET_HASH_KEY) throw new Error(`SECRET_HASH_KEY is required in cluster mode (the same key in every app: it authenticates RPC between them, and identity, payments, wallet-auth, cards and agents hash and seal secrets with it); ${HOW_TO}. Only the embedded mode (npm start) generates one into DATA_DIR`);
  return parseSecretHashKey(env.SECRET_HASH_KEY);
}

/**
 * The embedded mode (`npm start`): SECRET_HASH_KEY (hex, >= 32 bytes) when set; else a key generated once into the
 * local data dir (mode 0600). A short key is refused wherever it comes from.
 */
export function loadSecretHashKey(envValue: string | undefined, fallbackFile: string): Buffer {
  if (envValue) return parseSecretHashKey(envValue);
  if (existsSync(fallbackFile)) return parseSecretHashKey(readFileSync(fallbackFile, 'utf8').trim(), `${fallbackFile} must hold`);
  mkdirSync(dirname(fallbackFile), { recursive: true });
  const key = randomBytes(SECRET_HASH_KEY_BYTES_MIN);
  writeFileSync(fallbackFile, key.toString('hex'), { mode: 0o600 });
  return key;
}
