/** Where WebAuthn ceremonies for SCA may run: the relying party id and the origins of the platforms' apps. */
export interface ScaPasskeyConfig {
  /** A registrable domain (no scheme, no port), e.g. `example.com`; every origin's host must be it or a subdomain. */
  rpId: string;
  /** Full origins (`https://app.example.com`, `http://localhost:3000`), as browsers put them into clientDataJSON. */
  origins: string[];
  /** Shown by the authenticator at enrolment. */
  rpName: string;
}

export const SCA_PASSKEY_DEFAULTS: ScaPasskeyConfig = { rpId: 'localhost', origins: ['http://localhost:3000'], rpName: 'Payments platform' };

/**
 * Checks the configuration once at boot, so a typo fails the start instead of every ceremony: origins must be bare
 * origins and lie within the RP id (the WebAuthn rule browsers enforce; a mismatch could never verify).
 */
export function checkScaPasskeyConfig(config: ScaPasskeyConfig): ScaPasskeyConfig {
  if (!/^[a-z0-9.-]+$/i.test(config.rpId) || config.rpId.startsWith('.') || config.rpId.endsWith('.')) {
    throw new Error(`SCA_PASSKEY_RP_ID must be a domain name, got "${config.rpId}"`);
  }
  if (config.origins.length === 0) throw new Error('SCA_PASSKEY_ORIGINS must name at least one origin');
  const rpId = config.rpId.toLowerCase();
  const origins = config.origins.map((raw) => {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw new Error(`SCA_PASSKEY_ORIGINS: "${raw}" is not a URL`);
    }
    if (url.origin !== raw.replace(/\/$/, '')) throw new Error(`SCA_PASSKEY_ORIGINS: "${raw}" must be an origin (scheme, host, optional port; no path)`);
    if (url.hostname !== rpId && !url.hostname.endsWith(`.${rpId}`)) throw new Error(`SCA_PASSKEY_ORIGINS: "${raw}" is not within the RP id "${rpId}"`);
    return url.origin;
  });
  return { ...config, rpId, origins };
}
