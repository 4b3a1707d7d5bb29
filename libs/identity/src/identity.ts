import { IDENTITY_EVENTS, publicEnvelope } from '@payments/contracts';
import { EventEnvelope, TimerHandler } from '@payments/eventsourcing';
import type { EventBus } from '@payments/messaging';
import { SecretSealer, ServiceHost } from '@payments/runtime';
import { CredentialVerifier } from './credentials/credential-verifier';
import { SecretHasher } from './credentials/secrets';
import { ContactCodeSender, EgressClient, HttpContactCodeSender, UnconfiguredContactCodeSender } from '@payments/runtime';
import { CustomerService, CustomerServiceOptions } from './customers/customer.service';
import { DocumentService } from './documents/document.service';
import { documentsMigrations } from './documents/documents.migrations';
import { DOCUMENT_FILES_PURPOSE, PgDocumentStorage } from './documents/pg-document-storage';
import { identityMigrations } from './identity.migrations';
import { PlatformConfigView } from './platform-config/platform-config.entity';
import { WebhookKeyStore } from './platform-config/webhook-keys';
import { PlatformConfigService } from './platform-config/platform-config.service';
import { webhookKeysMigrations } from './platform-config/webhook-keys.migrations';
import { PlatformService } from './platform/platform.service';
import { TokenService } from './tokens/token.service';
import { customerImportMigrations } from './customer-imports/customer-import.migrations';
import { CustomerImportService } from './customer-imports/customer-import.service';
import { CUSTOMER_IMPORT_WORKER_DEFAULTS, CustomerImportWorker } from './customer-imports/customer-import.worker';
import { kycLinkMigrations } from './kyc-links/kyc-link.migrations';
import { KycLinkService } from './kyc-links/kyc-link.service';
import { BeneficialOwnerService } from './beneficial-owners/beneficial-owner.service';
import { VERIFICATION_DEFAULTS, VerificationService, VerificationServiceOptions } from './verifications/verification.service';
import { verificationsMigrations } from './verifications/verifications.migrations';
import { kycReviewMigrations } from './kyc-reviews/kyc-review.migrations';
import { KYC_REVIEW_DEFAULTS, KycReviewOptions, KycReviewService } from './kyc-reviews/kyc-review.service';
import { ManualReviewProvider } from './kyc-reviews/manual-review-provider';
import { IdentityChanges } from './kyc-reviews/identity-changes';

import { NoWalletContacts, RpcWalletContacts, WalletContacts } from './customers/wallet-contacts';
import { AuditLog } from './operators/audit-log';
import { OperatorService } from './operators/operator.service';
import { operatorsMigrations } from './operators/operators.migrations';

export const IDENTITY_SERVICE = 'identity';

export interface IdentityOptions {
  databaseUrl: string;
  bus: Pick<EventBus, 'publish' | 'ensureTopics'>;
  topic: string;
  secretHashKey: Buffer;
  sandboxTimeScale: number;
  /** Where production contact codes are delivered (the operator's email/SMS gateway); unset: 503 on send. */
  contactDeliveryUrl?: string;
  /**
   * EGRESS_ALLOW_PRIVATE_NETWORKS: a webhookEndpoint that is a private address literal is accepted, and contact codes
   * may go to a gateway on a private network (local development only); false by default.
   */
  egressAllowPrivateNetworks?: boolean;
  /** Where identity reaches wallet-auth (contacts tied to Embedded Wallet credentials); unset: no wallet is asked. */
  walletAuth?: { host: string; port: number; rpcTimeoutMs: number };
  customers?: Partial<Omit<CustomerServiceOptions, 'sender' | 'wallets'>>;
  verifications?: Partial<VerificationServiceOptions>;
  /** The manual review of production KYC/KYB: approvals required (KYC_APPROVALS_REQUIRED, default 2). */
  kycReviews?: Partial<KycReviewOptions>;
  log?: (message: string, error?: unknown) => void;
}

export const CUSTOMER_DEFAULTS: Omit<CustomerServiceOptions, 'sender' | 'wallets'> = {
  terms: { version: '2025-10-13', url: 'https://payments-platform.invalid/end-user-terms/2025-10-13' },
  sandboxCode: '123456',
  codeTtlMs: 10 * 60_000,
  codeAttemptsMax: 5,
  codeLockMs: 15 * 60_000,
};

interface IdentityParts {
  host: ServiceHost;
  credentials: CredentialVerifier;
  configs: PlatformConfigService;
  platforms: PlatformService;
  tokens: TokenService;
  customers: CustomerService;
  documents: DocumentService;
  /** The sealed document bytes; the server seals the files stored before sealing at start (never `db:migrate`, whose key is a throwaway). */
  documentFiles: PgDocumentStorage;
  customerImports: CustomerImportService;
  kycLinks: KycLinkService;
  /** The RPC client to wallet-auth (contact changes); closed when the server stops. */
  walletContacts: WalletContacts;
  beneficialOwners: BeneficialOwnerService;
  verifications: VerificationService;
  kycReviews: KycReviewService;
  /** Operators of the deployment and their credentials (the operator API, /operator/v1). */
  operators: OperatorService;
  /** What operators did, gathered from every service's topic. */
  auditLog: AuditLog;
}

/** The identity service's parts, wired once: used by its RPC controllers, the admin CLI and tests. */
export class Identity implements IdentityParts {
  readonly host!: ServiceHost;
  readonly credentials!: CredentialVerifier;
  readonly configs!: PlatformConfigService;
  readonly platforms!: PlatformService;
  readonly tokens!: TokenService;
  readonly customers!: CustomerService;
  readonly documents!: DocumentService;
  readonly documentFiles!: PgDocumentStorage;
  readonly customerImports!: CustomerImportService;
  readonly kycLinks!: KycLinkService;
  readonly beneficialOwners!: BeneficialOwnerService;
  readonly verifications!: VerificationService;
  readonly kycReviews!: KycReviewService;
  readonly walletContacts!: WalletContacts;
  readonly operators!: OperatorService;
  readonly auditLog!: AuditLog;

  private constructor(parts: IdentityParts) {
    Object.assign(this, parts);
  }

  static async open(options: IdentityOptions): Promise<Identity> {
    // Filled below once the services exist; the timer poller only starts later, with host.start().
    const timerHandlers: Record<string, TimerHandler> = {};
    const host = await ServiceHost.open({
      name: IDENTITY_SERVICE,
      databaseUrl: options.databaseUrl,
      bus: options.bus,
      topic: options.topic,
      migrations: [identityMigrations, webhookKeysMigrations, documentsMigrations, verificationsMigrations, customerImportMigrations, kycLinkMigrations, operatorsMigrations, kycReviewMigrations],
      entities: [PlatformConfigView],
      sandboxTimeScale: options.sandboxTimeScale,
      timerHandlers,
      log: options.log,
    });
    const hasher = new SecretHasher(options.secretHashKey);
    const egress = new EgressClient({ allowPrivateNetworks: options.egressAllowPrivateNetworks ?? false, log: (message) => options.log?.(message) });
    const configs = new PlatformConfigService(host.executor, host.dataSource, new WebhookKeyStore(options.secretHashKey), egress);
    const tokens = new TokenService(host.dataSource, host.executor, hasher, host.claims);
    const sender: ContactCodeSender = options.contactDeliveryUrl ? new HttpContactCodeSender(options.contactDeliveryUrl, egress) : new UnconfiguredContactCodeSender();
    const documentFiles = new PgDocumentStorage(host.dataSource, new SecretSealer(options.secretHashKey, DOCUMENT_FILES_PURPOSE));
    // Writes to what a KYC/KYB review is about tell the review queue (built below: it needs the verifications).
    const identityChanges: IdentityChanges = {
      changed: (customerId, correlationId, now) =>
        kycReviews.identityChanged(customerId, correlationId, now).catch((error: unknown) => {
          // The change is committed; the approval reads the identity again, so only the early notice is lost.
          options.log?.(`kyc review recheck for ${customerId} failed: ${error instanceof Error ? error.message : String(error)}`);
        }),
    };
    const documents = new DocumentService(host.dataSource, host.executor, documentFiles, host.claims, identityChanges);
    const beneficialOwners = new BeneficialOwnerService(host.dataSource, host.executor, host.claims, identityChanges);
    // Production submissions go to the manual review queue (the KYC provider port's one adapter so far).
    const verifications = new VerificationService(host.dataSource, host.executor, host.timers, documents, beneficialOwners, host.claims, new ManualReviewProvider(host.executor, host.store), {
      ...VERIFICATION_DEFAULTS,
      ...options.verifications,
    });
    const kycReviews = new KycReviewService(host.dataSource, host.executor, host.store, documents, verifications, host.claims, { ...KYC_REVIEW_DEFAULTS, ...options.kycReviews });
    Object.assign(timerHandlers, verifications.timerHandlers());
    const wallets: WalletContacts = options.walletAuth ? new RpcWalletContacts(options.walletAuth, options.walletAuth.rpcTimeoutMs) : new NoWalletContacts();
    const customers = new CustomerService(host.dataSource, host.executor, hasher, { ...CUSTOMER_DEFAULTS, ...options.customers, sender, wallets }, host.claims, identityChanges);
    return new Identity({
      host,
      credentials: new CredentialVerifier(host.dataSource, hasher),
      configs,
      platforms: new PlatformService(host.dataSource, host.executor, configs, tokens, hasher),
      tokens,
      customers,
      customerImports: new CustomerImportService(
        host.dataSource,
        host.executor,
        new CustomerImportWorker(host.dataSource, host.executor, customers, CUSTOMER_IMPORT_WORKER_DEFAULTS, options.log),
        host.claims,
      ),
      kycLinks: new KycLinkService(host.dataSource, host.executor, hasher, customers, host.claims),
      documents,
      documentFiles,
      beneficialOwners,
      verifications,
      kycReviews,
      walletContacts: wallets,
      operators: new OperatorService(host.dataSource, host.executor, hasher),
      auditLog: new AuditLog(host.dataSource),
    });
  }
}

/**
 * The form an identity event has on the bus, as its declaration in IDENTITY_EVENTS (libs/contracts) gives it: never
 * secrets or their hashes, nor id numbers; the event log keeps them so the read models can be rebuilt. Throws for an
 * internal event: it never leaves identity.
 */
export function redactSecrets(envelope: EventEnvelope): EventEnvelope {
  const published = publicEnvelope(IDENTITY_EVENTS, envelope);
  if (!published) throw new Error(`${envelope.type} is internal to identity: it is never published`);
  return published;
}

