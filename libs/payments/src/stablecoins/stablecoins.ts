import { createHmac } from 'node:crypto';
import type { TimerHandler } from '@payments/eventsourcing';
import { SecretSealer, ServiceHost } from '@payments/runtime';
import type { CustomerDirectory } from '../customers/customer-directory';
import type { Peers } from '../rpc/peers';
import { LinkService } from './links/link.service';
import { OperationService } from './operations/operation.service';
import { BraleStablecoinProvider } from './provider/brale-provider';
import { SandboxStablecoinProvider } from './provider/sandbox-provider';
import { StablecoinService } from './registry/stablecoin.service';
import { StablecoinProviders } from './stablecoin-providers';

export interface StablecoinsOptions {
  sandboxTimeScale: number;
  /** SECRET_HASH_KEY: provider secrets are sealed under a key derived from it. */
  secretHashKey: Buffer;
  /** The production provider; unset, production stablecoin calls answer 501. */
  brale?: { apiUrl: string; authUrl: string };
  rpcTimeoutMs: number;
  /** Payments' customer directory: production mints and burns only for APPROVED customers. */
  customers: CustomerDirectory;
  log?: (message: string, error?: unknown) => void;
}

/** The stablecoin part of the payments service (docs/stablecoins.md), wired once. */
export class Stablecoins {
  private constructor(
    readonly links: LinkService,
    readonly registry: StablecoinService,
    readonly operations: OperationService,
  ) {}

  static open(host: ServiceHost, peers: Peers, timerHandlers: Record<string, TimerHandler>, options: StablecoinsOptions): Stablecoins {
    const sandboxSeed = createHmac('sha256', options.secretHashKey).update('stablecoins/sandbox-provider').digest();
    const providers = new StablecoinProviders(
      new SandboxStablecoinProvider(options.sandboxTimeScale, sandboxSeed),
      options.brale ? new BraleStablecoinProvider({ ...options.brale, timeoutMs: options.rpcTimeoutMs }) : undefined,
    );
    const sealer = new SecretSealer(options.secretHashKey, 'stablecoin-provider-credentials');
    const links = new LinkService(host.dataSource, host.store, host.executor, host.claims, providers, sealer);
    const registry = new StablecoinService(host.dataSource, host.store, host.executor, host.claims, providers, links);
    const operations = new OperationService(host.dataSource, host.store, host.executor, host.timers, host.claims, providers, links, registry, peers, options.customers, options.log);
    Object.assign(timerHandlers, operations.timerHandlers());
    return new Stablecoins(links, registry, operations);
  }
}
