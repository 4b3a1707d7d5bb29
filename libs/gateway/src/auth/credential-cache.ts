import { hash } from 'node:crypto';
import type { VerifiedCredential } from '@payments/contracts';

/**
 * Successful credential checks, keyed by a hash of id and secret, so the gateway does not make an RPC per request
 * (DESIGN §6). Entries expire after ttlMs; `forgetClient` drops a client at once (token deleted).
 */
export class CredentialCache {
  private readonly entries = new Map<string, { credential: VerifiedCredential; expiresAt: number }>();

  constructor(
    private readonly ttlMs = 60_000,
    private readonly entriesMax = 10_000,
  ) {}

  static keyOf(clientId: string, secret: string): string {
    return hash('sha256', `${clientId}\0${secret}`, 'base64'); // one call: no Hash object per request
  }

  get(key: string, now = Date.now()): VerifiedCredential | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= now) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.credential;
  }

  set(key: string, credential: VerifiedCredential, now = Date.now()): void {
    if (this.entries.size >= this.entriesMax) this.entries.delete(this.entries.keys().next().value as string); // oldest first
    this.entries.set(key, { credential, expiresAt: now + this.ttlMs });
  }

  forgetClient(clientId: string): void {
    for (const [key, entry] of this.entries) if (entry.credential.clientId === clientId) this.entries.delete(key);
  }
}
