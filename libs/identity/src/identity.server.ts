import { DynamicModule, Module } from '@nestjs/common';
import type { EventBus } from '@payments/messaging';
import { BackgroundWork, ServiceServer, ServiceServerOptions, startServiceServer, subscriptionWork } from '@payments/runtime';
import { BeneficialOwnerRpcController } from './beneficial-owners/beneficial-owner.rpc.controller';
import { CustomerImportRpcController } from './customer-imports/customer-import.rpc.controller';
import { CustomerRpcController } from './customers/customer.rpc.controller';
import { DocumentRpcController } from './documents/document.rpc.controller';
import { Identity, IDENTITY_SERVICE } from './identity';
import { IdentityRpcController } from './identity.rpc.controller';
import { IDENTITY } from './identity.tokens';
import { KycLinkRpcController } from './kyc-links/kyc-link.rpc.controller';
import { KycReviewRpcController } from './kyc-reviews/kyc-review.rpc.controller';
import { evictChangedConfigs } from './platform-config/platform-config-eviction';
import { VerificationRpcController } from './verifications/verification.rpc.controller';
import { OperatorRpcController } from './operators/operator.rpc.controller';

const CONTROLLERS = [
  IdentityRpcController,
  CustomerRpcController,
  DocumentRpcController,
  BeneficialOwnerRpcController,
  VerificationRpcController,
  CustomerImportRpcController,
  KycLinkRpcController,
  KycReviewRpcController,
  OperatorRpcController,
];

@Module({})
class IdentityRpcModule {
  static forIdentity(identity: Identity): DynamicModule {
    return { module: IdentityRpcModule, controllers: CONTROLLERS, providers: [{ provide: IDENTITY, useValue: identity }] };
  }
}

export type IdentityServer = ServiceServer;

/**
 * Serves the identity RPC, its relay and timers, the customer-import worker, its ops server when `ops` is given, and,
 * when `events` is given, the eviction of configs other replicas changed from its config cache and the audit log's
 * consumer of every service's operator actions.
 */
export function startIdentityServer(
  identity: Identity,
  rpc: ServiceServerOptions['rpc'],
  log: (message: string, error?: unknown) => void = () => undefined,
  ops?: ServiceServerOptions['ops'],
  events?: Pick<EventBus, 'subscribe'>,
): Promise<IdentityServer> {
  // With the bus: configs other replicas changed leave the cache, and operators' actions of every service reach the audit log.
  const configEviction: BackgroundWork[] = events ? [subscriptionWork(() => evictChangedConfigs(events, identity.configs.cache)), subscriptionWork(() => identity.auditLog.subscribe(events))] : [];
  return startServiceServer({
    name: IDENTITY_SERVICE,
    module: IdentityRpcModule.forIdentity(identity),
    host: identity.host,
    rpc,
    ops,
    // Resumes unfinished import jobs, then takes new ones; stopped before the database closes.
    background: [identity.customerImports.worker, ...configEviction, legacyFileSealing(identity, log), { start: async () => undefined, stop: () => identity.walletContacts.close() }],
    log,
  });
}

/**
 * Seals the document files stored before sealing at rest (documents migration 2), in the background at start; until
 * then, and if it fails (retried at the next start), they are read as they are.
 */
function legacyFileSealing(identity: Identity, log: (message: string, error?: unknown) => void): BackgroundWork {
  let running: Promise<unknown> = Promise.resolve();
  return {
    start: async () => {
      running = identity.documentFiles.sealLegacyFiles().then(
        (n) => n > 0 && log(`sealed ${n} document files stored before sealing at rest`),
        (error: unknown) => log('sealing document files stored before sealing at rest failed; they stay readable, retried at next start', error),
      );
    },
    stop: async () => void (await running), // before the database closes
  };
}
