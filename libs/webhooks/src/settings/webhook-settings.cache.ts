import { IdentityRpc, Mode, WebhookSettings } from '@payments/contracts';
import { dispatcherCaller } from '../catalogue/resource-reader';
import type { ServiceClient } from '@payments/runtime';

/**
 * Each platform's endpoint, keys and secret from identity (IdentityRpc.webhookSettings), cached briefly so a burst of
 * deliveries makes one call. Config events drop the platform's entry at once on the instance that consumes them;
 * the TTL bounds how long another instance can use an old endpoint.
 */
export class WebhookSettingsCache {
  private readonly entries = new Map<string, { expiresAt: number; value: Promise<WebhookSettings> }>();

  constructor(
    private readonly identity: ServiceClient,
    private readonly ttlMs: number,
  ) {}

  get(platformId: string, mode: Mode): Promise<WebhookSettings> {
    const key = `${platformId}/${mode}`;
    const cached = this.entries.get(key);
    if (cached && cached.expiresAt > Date.now()) return cached.value;
    const value = this.identity.call(IdentityRpc.webhookSettings, { caller: dispatcherCaller(platformId, mode), body: {} });
    this.entries.set(key, { expiresAt: Date.now() + this.ttlMs, value });
    value.catch(() => this.entries.get(key)?.value === value && this.entries.delete(key)); // never cache a failure
    return value;
  }

  /** Reads through: for the synchronous TEST, which must use the endpoint just set. */
  fresh(platformId: string, mode: Mode): Promise<WebhookSettings> {
    this.invalidate(platformId);
    return this.get(platformId, mode);
  }

  invalidate(platformId: string): void {
    for (const mode of ['SANDBOX', 'PRODUCTION']) this.entries.delete(`${platformId}/${mode}`);
  }

  /** Dispatcher → identity: the endpoint answered 410 Gone. */
  async disableEndpoint(platformId: string, mode: Mode, endpoint: string, reason: string): Promise<void> {
    await this.identity.call(IdentityRpc.disableWebhookEndpoint, { caller: dispatcherCaller(platformId, mode), body: { endpoint, reason } });
    this.invalidate(platformId);
  }
}
