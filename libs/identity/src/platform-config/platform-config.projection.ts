import type { EntityManager } from 'typeorm';
import type { Projection } from '@payments/eventsourcing';
import { PlatformConfigState } from './platform-config.decider';
import { PlatformConfigEvent } from './platform-config.events';
import { PlatformConfigView } from './platform-config.entity';

/** The view is the folded state, so the projection upserts it whole. */
export const projectPlatformConfig: Projection<EntityManager, PlatformConfigState, PlatformConfigEvent> = async (tx, _events, state) => {
  if (state.status !== 'ACTIVE') return;
  await tx.getRepository(PlatformConfigView).save({
    platformId: state.platformId,
    mode: state.mode,
    configId: state.configId,
    umaDomain: state.umaDomain ?? null,
    webhookEndpoint: state.webhookEndpoint ?? null,
    webhookEndpointStatus: state.webhookEndpointStatus ?? 'ACTIVE',
    supportedCurrencies: state.supportedCurrencies,
    feeConfigs: state.feeConfigs ?? [],
    embeddedWalletConfig: state.embeddedWalletConfig ?? null,
    createdAt: new Date(state.createdAt),
    updatedAt: new Date(state.updatedAt),
  });
};
