import type { Mode, PlatformConfig } from '@payments/contracts';

/** A config as served to a MANAGE credential; others get it without the secret. */
export type ServedPlatformConfig = PlatformConfig & { webhookSecret: string };

/**
 * Served configs by platform and mode, so GET /config reads no database (issue #14: it changes rarely). Every change
 * forgets the platform's entries: this service's own writes at once, other replicas' through their events
 * (platform-config-eviction.ts). A load that overlaps a change is answered but not kept, so no stale copy survives it.
 */
export class PlatformConfigCache {
  private readonly entries = new Map<string, ServedPlatformConfig>();
  /** Bumped by every `forget`: a load that began before it must not store what it read. */
  private generation = 0;

  constructor(private readonly entriesMax = 10_000) {}

  async through(platformId: string, mode: Mode, load: () => Promise<ServedPlatformConfig>): Promise<ServedPlatformConfig> {
    const key = `${platformId}/${mode}`;
    const hit = this.entries.get(key);
    if (hit) return hit;
    const generation = this.generation;
    const loaded = await load();
    if (generation === this.generation) {
      if (this.entries.size >= this.entriesMax) this.entries.delete(this.entries.keys().next().value as string);
      this.entries.set(key, loaded);
    }
    return loaded;
  }

  forget(platformId: string): void {
    this.generation++;
    for (const mode of ['SANDBOX', 'PRODUCTION'] satisfies Mode[]) this.entries.delete(`${platformId}/${mode}`);
  }
}
