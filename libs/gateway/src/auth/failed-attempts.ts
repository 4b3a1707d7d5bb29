import type { FailureLimit, LimitedKey } from './failure-windows';

/**
 * Limits of operations whose path holds the credential (`auth: 'none'`: device-code redemption): per credential (a
 * code hammered after it expired or was used), per source address (`request.ip`, right behind an ingress with
 * TRUST_PROXY) and for the whole gateway (many addresses at once). Codes carry 140 bits, so these are a second line:
 * they keep a guessing run slow and loud, and cost a legitimate redemption nothing.
 */
export const CREDENTIAL_PATH_LIMITS: Record<'credential' | 'source' | 'global', FailureLimit> = {
  credential: { failures: 5, windowMs: 15 * 60_000 },
  source: { failures: 10, windowMs: 60_000 },
  global: { failures: 100, windowMs: 60_000 },
};

/** The keys one credential-in-path attempt is counted under. */
export function credentialPathKeys(credential: string, source: string, limits = CREDENTIAL_PATH_LIMITS): LimitedKey[] {
  return [
    [`credential:${credential}`, limits.credential],
    [`source:${source}`, limits.source],
    ['global', limits.global],
  ];
}
