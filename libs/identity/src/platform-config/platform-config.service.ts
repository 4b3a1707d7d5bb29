import type { DataSource, EntityManager } from 'typeorm';
import { v5 as uuidv5 } from 'uuid';
import { ApiError, CallerContext, DisableWebhookEndpointRequest, invalidInput, Mode, PlatformConfig, UpdatePlatformConfigRequest, WebhookSettings } from '@payments/contracts';
import type { EgressClient } from '@payments/runtime';
import { CommandExecutor } from '@payments/eventsourcing';
import { PlatformConfigCache, ServedPlatformConfig } from './platform-config-cache';
import { platformConfigDecider } from './platform-config.decider';
import { PlatformConfigFields } from './platform-config.events';
import { PlatformConfigView, toPlatformConfig } from './platform-config.entity';
import { projectPlatformConfig } from './platform-config.projection';
import { effectiveUmaDomain } from './uma-domain';
import { WebhookKeyStore } from './webhook-keys';

const CONFIG_NAMESPACE = '5b0f3a51-6f0c-4f43-9d1e-2f8b2a7d6c10';

/** One config per platform and mode: its id (and stream) derive from both, so there is nothing to look up. */
export function platformConfigId(platformId: string, mode: Mode): string {
  return `PlatformConfig:${uuidv5(`${platformId}/${mode}`, CONFIG_NAMESPACE)}`;
}

export const DEFAULT_PLATFORM_CONFIG: PlatformConfigFields = {
  supportedCurrencies: [
    { currencyCode: 'USD', minAmount: 1, maxAmount: 10_000_000, requiredCounterpartyFields: [], enabledTransactionTypes: ['INCOMING', 'OUTGOING'] },
  ],
};

export class PlatformConfigService {
  readonly cache = new PlatformConfigCache();

  constructor(
    private readonly executor: CommandExecutor<EntityManager>,
    private readonly dataSource: DataSource,
    private readonly webhookKeys: WebhookKeyStore,
    private readonly egress: Pick<EgressClient, 'refusalOf'>,
  ) {}

  async initialize(tx: EntityManager, platformId: string, mode: Mode, now: string): Promise<void> {
    this.cache.forget(platformId);
    const configId = platformConfigId(platformId, mode);
    await this.executor.decideAndAppend(tx, {
      decider: platformConfigDecider,
      streamId: configId,
      platformId,
      command: { type: 'InitializeConfig', configId, platformId, mode, defaults: DEFAULT_PLATFORM_CONFIG, now },
      project: projectPlatformConfig,
    });
  }

  async get(tx: EntityManager, caller: CallerContext): Promise<PlatformConfig> {
    const { webhookSecret, ...config } = await this.cache.through(caller.platformId, caller.mode, () => this.load(tx, caller.platformId, caller.mode));
    // The HMAC secret signs like a password: only credentials that may change the config see it.
    return caller.permissions.includes('MANAGE') ? { ...config, webhookSecret } : config;
  }

  private async load(tx: EntityManager, platformId: string, mode: Mode): Promise<ServedPlatformConfig> {
    const view = await tx.getRepository(PlatformConfigView).findOneBy({ platformId, mode });
    if (!view) throw new ApiError('NOT_FOUND', 'platform configuration not found');
    const keys = await this.webhookKeys.of(tx, platformId, mode);
    // umaDomain is the effective one: in sandbox mode, the sandbox domain customer addresses are generated at.
    const umaDomain = effectiveUmaDomain(view.umaDomain, mode);
    return { ...toPlatformConfig(view), ...(umaDomain ? { umaDomain } : {}), webhookPublicKey: keys.publicKeyPem, webhookSecret: keys.secret };
  }

  /** For the webhook dispatcher only (internal RPC): where to deliver and what to sign with. */
  async webhookSettings(tx: EntityManager, caller: CallerContext): Promise<WebhookSettings> {
    const view = await tx.getRepository(PlatformConfigView).findOneBy({ platformId: caller.platformId, mode: caller.mode });
    if (!view) throw new ApiError('NOT_FOUND', 'platform configuration not found');
    const keys = await this.webhookKeys.of(tx, caller.platformId, caller.mode);
    return {
      platformId: caller.platformId,
      mode: caller.mode,
      ...(view.webhookEndpoint ? { endpoint: view.webhookEndpoint } : {}),
      endpointStatus: view.webhookEndpointStatus,
      ...keys,
    };
  }

  /** The dispatcher saw 410 Gone from `endpoint`; a no-op when the endpoint changed meanwhile. */
  async disableWebhookEndpoint(caller: CallerContext, request: DisableWebhookEndpointRequest, now: string): Promise<void> {
    await this.executor.execute({
      decider: platformConfigDecider,
      streamId: platformConfigId(caller.platformId, caller.mode),
      platformId: caller.platformId,
      metadata: { correlationId: caller.correlationId, actor: caller.clientId },
      command: { type: 'DisableWebhookEndpoint', endpoint: request.endpoint, reason: request.reason, now },
      project: projectPlatformConfig,
    });
    this.cache.forget(caller.platformId);
  }

  async update(caller: CallerContext, patch: UpdatePlatformConfigRequest, now: string): Promise<PlatformConfig> {
    if (typeof patch.webhookEndpoint === 'string') this.checkEndpoint(patch.webhookEndpoint);
    const configId = platformConfigId(caller.platformId, caller.mode);
    const result = await this.executor.execute({
      decider: platformConfigDecider,
      streamId: configId,
      platformId: caller.platformId,
      metadata: { correlationId: caller.correlationId, actor: caller.clientId },
      command: { type: 'UpdateConfig', patch, now },
      project: projectPlatformConfig,
    });
    this.cache.forget(caller.platformId);
    if (result.state.status !== 'ACTIVE') throw new ApiError('NOT_FOUND', 'platform configuration not found');
    return this.get(this.dataSource.manager, caller); // the view was written in the same transaction as the events
  }

  /**
   * A private address literal (in any spelling a URL parser accepts) is refused now, with the field named; a host
   * name can only be judged when the dispatcher connects, where every delivery is checked again.
   */
  private checkEndpoint(endpoint: string): void {
    let refused: Error | undefined;
    try {
      refused = this.egress.refusalOf(endpoint);
    } catch {
      throw invalidInput('webhookEndpoint', 'webhookEndpoint must be an http(s) URL');
    }
    if (refused) throw invalidInput('webhookEndpoint', 'webhookEndpoint must not be a loopback, private, link-local or other non-public address');
  }
}
