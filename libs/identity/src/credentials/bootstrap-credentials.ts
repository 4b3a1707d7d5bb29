import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { Mode } from '@payments/contracts';
import { PlainCredential } from '../platform/platform.service';
import { generateClientId, generateClientSecret } from './secrets';

/** A bootstrap secret is a long-lived production credential set by hand: at least this many characters. */
export const BOOTSTRAP_SECRET_LENGTH_MIN = 32;
/** …and this many distinct ones, so `aaaa…` or a word repeated is refused (random hex of 32 has ~14). */
const DISTINCT_CHARACTERS_MIN = 10;

/** Length and variety, a cheap stand-in for entropy: a generated secret passes, a phrase typed twice does not. */
function strongEnough(secret: string): boolean {
  return secret.length >= BOOTSTRAP_SECRET_LENGTH_MIN && new Set(secret).size >= DISTINCT_CHARACTERS_MIN;
}

/** BOOTSTRAP_{SANDBOX,PRODUCTION}_CLIENT_{ID,SECRET} when all four are set; half a pair is a configuration error. */
export function bootstrapFromEnv(env: NodeJS.ProcessEnv = process.env): Record<Mode, PlainCredential> | undefined {
  const names = ['BOOTSTRAP_SANDBOX_CLIENT_ID', 'BOOTSTRAP_SANDBOX_CLIENT_SECRET', 'BOOTSTRAP_PRODUCTION_CLIENT_ID', 'BOOTSTRAP_PRODUCTION_CLIENT_SECRET'];
  const set = names.filter((n) => env[n]);
  if (set.length === 0) return undefined;
  if (set.length !== names.length) throw new Error(`set all of ${names.join(', ')} or none`);
  for (const n of names.filter((n) => n.endsWith('_ID'))) {
    if (env[n]!.includes(':')) throw new Error(`${n} must not contain ':' (it is the HTTP Basic user name)`);
  }
  for (const n of names.filter((n) => n.endsWith('_SECRET'))) {
    if (!strongEnough(env[n]!)) {
      throw new Error(`${n} is too weak: use at least ${BOOTSTRAP_SECRET_LENGTH_MIN} random characters (e.g. \`openssl rand -hex 24\`); it guards the first platform's credential`);
    }
  }
  return {
    SANDBOX: { clientId: env.BOOTSTRAP_SANDBOX_CLIENT_ID!, clientSecret: env.BOOTSTRAP_SANDBOX_CLIENT_SECRET! },
    PRODUCTION: { clientId: env.BOOTSTRAP_PRODUCTION_CLIENT_ID!, clientSecret: env.BOOTSTRAP_PRODUCTION_CLIENT_SECRET! },
  };
}

/**
 * For `npm start` on a developer machine: credentials generated on first start and kept in the local data dir
 * (mode 0600) so every start can print them. Clusters set BOOTSTRAP_* from a secret store instead.
 */
export function localBootstrapCredentials(file: string): Record<Mode, PlainCredential> {
  if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8'));
  const credentials = {
    SANDBOX: { clientId: generateClientId(), clientSecret: generateClientSecret() },
    PRODUCTION: { clientId: generateClientId(), clientSecret: generateClientSecret() },
  };
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(credentials, null, 2), { mode: 0o600 });
  return credentials;
}
