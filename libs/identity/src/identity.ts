import { EventEnvelope } from '@payments/eventsourcing';
import type { EventBus } from '@payments/messaging';
import { ServiceHost } from '@payments/runtime';
import { CredentialVerifier } from './credentials/credential-verifier';
import { SecretHasher } from './credentials/secrets';
import { identityMigrations } from './identity.migrations';
import { PlatformConfigView } from './platform-config/platform-config.entity';
import { PlatformConfigService } from './platform-config/platform-config.service';
import { PlatformService } from './platform/platform.service';
import { TokenService } from './tokens/token.service';

export const IDENTITY_SERVICE = 'identity';

export interface IdentityOptions {
  databaseUrl: string;
  bus: Pick<EventBus, 'publish' | 'ensureTopics'>;
  topic: string;
  secretHashKey: Buffer;
  sandboxTimeScale: number;
  log?: (message: string, error?: unknown) => void;
}

/** The identity service's parts, wired once: used by its RPC controller, the admin CLI and tests. */
export class Identity {
  private constructor(
    readonly host: ServiceHost,
    readonly credentials: CredentialVerifier,
    readonly configs: PlatformConfigService,
    readonly platforms: PlatformService,
    readonly tokens: TokenService,
  ) {}

  static async open(options: IdentityOptions): Promise<Identity> {
    const host = await ServiceHost.open({
      name: IDENTITY_SERVICE,
      databaseUrl: options.databaseUrl,
      bus: options.bus,
      topic: options.topic,
      migrations: [identityMigrations],
      entities: [PlatformConfigView],
      sandboxTimeScale: options.sandboxTimeScale,
      toPublic: redactSecrets,
      log: options.log,
    });
    const hasher = new SecretHasher(options.secretHashKey);
    const configs = new PlatformConfigService(host.executor);
    const tokens = new TokenService(host.dataSource, host.executor, hasher);
    const platforms = new PlatformService(host.dataSource, host.executor, configs, tokens, hasher);
    return new Identity(host, new CredentialVerifier(host.dataSource, hasher), configs, platforms, tokens);
  }
}

/** The bus contract never carries secret hashes; the event log keeps them so the read model can be rebuilt. */
export function redactSecrets(envelope: EventEnvelope): EventEnvelope {
  if (envelope.type !== 'TokenCreated.v1') return envelope;
  const { secretHash: _secretHash, ...data } = envelope.data as Record<string, unknown>;
  return { ...envelope, data };
}
