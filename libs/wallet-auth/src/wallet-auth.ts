import type { EventBus } from '@payments/messaging';
import { ContactCodeSender, EgressClient, HttpContactCodeSender, ServiceHost, UnconfiguredContactCodeSender } from '@payments/runtime';
import { WALLET_AUTH_EVENTS } from '@payments/contracts';
import { defaultOidcKeyResolver } from '@payments/wallet-crypto';
import { CredentialOperations } from './credentials/credential-operations';
import { CredentialVerification } from './credentials/credential-verification';
import { DelegatedKeyOperations } from './delegated-keys/delegated-key-operations';
import { WalletDirectory } from './directory/wallet-directory';
import { WalletServerKeys } from './keys/server-keys';
import { SessionOperations } from './sessions/session-operations';
import { SignedRequests } from './signed-retry/signed-requests';
import { CustomerContacts } from './signed-retry/customer-contacts';
import { walletAuthMigrations } from './wallet-auth.migrations';
import { WalletAuthConfig, WalletContext } from './wallets/wallet-context';
import { WalletStore } from './wallets/wallet-store';

export const WALLET_AUTH_SERVICE = 'wallet-auth';
/** Its PostgreSQL schema: the service name is not a bare SQL identifier. */
const SCHEMA = 'wallet_auth';

export const WALLET_AUTH_DEFAULTS: WalletAuthConfig = {
  sessionTtlMs: 15 * 60_000,
  challengeTtlMs: 5 * 60_000,
  passkey: { rpId: 'localhost', origins: ['http://localhost:3000'] },
};

export interface WalletAuthOptions {
  databaseUrl: string;
  bus: EventBus;
  topic: string;
  /** SECRET_HASH_KEY: every key of the service is derived from it (keys/server-keys.ts). */
  secretHashKey: Buffer;
  accounts: { host: string; port: number };
  identity: { host: string; port: number };
  /** Cards: which funding source of a card an Embedded Wallet is (delegated keys). */
  cards: { host: string; port: number };
  rpcTimeoutMs: number;
  /** The operator's email/SMS gateway for production OTPs (CONTACT_DELIVERY_URL). */
  contactDeliveryUrl?: string;
  /** EGRESS_ALLOW_PRIVATE_NETWORKS: the gateway may be on a private network (local development only); false by default. */
  egressAllowPrivateNetworks?: boolean;
  config?: Partial<WalletAuthConfig>;
  log?: (message: string, error?: unknown) => void;
}

/** The wallet-auth service's parts, wired once: used by its RPC controller and tests. */
export class WalletAuth {
  private constructor(
    readonly host: ServiceHost,
    readonly wallets: WalletStore,
    readonly credentials: CredentialOperations,
    readonly verification: CredentialVerification,
    readonly sessions: SessionOperations,
    /** Signed requests and signatures checked for other services. */
    readonly signedRequests: SignedRequests,
    /** Customer email and phone changes as the customer's wallets see them. */
    readonly customerContacts: CustomerContacts,
    /** Delegated keys of card funding sources, and their signatures for cards. */
    readonly delegatedKeys: DelegatedKeyOperations,
    private readonly directory: WalletDirectory,
  ) {}

  static async open(options: WalletAuthOptions): Promise<WalletAuth> {
    const host = await ServiceHost.open({
      name: SCHEMA,
      databaseUrl: options.databaseUrl,
      bus: options.bus,
      topic: options.topic,
      migrations: [walletAuthMigrations],
      entities: [],
      sandboxTimeScale: 1,
      events: WALLET_AUTH_EVENTS,
      log: options.log,
    });
    const keys = new WalletServerKeys(options.secretHashKey);
    const directory = new WalletDirectory({ accounts: options.accounts, identity: options.identity, cards: options.cards }, options.rpcTimeoutMs);
    const wallets = new WalletStore(host.dataSource, host.store, host.executor, directory, keys);
    const sender: ContactCodeSender = options.contactDeliveryUrl ? new HttpContactCodeSender(options.contactDeliveryUrl, new EgressClient({ allowPrivateNetworks: options.egressAllowPrivateNetworks ?? false, log: (message) => options.log?.(message) })) : new UnconfiguredContactCodeSender();
    const config: WalletAuthConfig = { ...WALLET_AUTH_DEFAULTS, oidcKeys: defaultOidcKeyResolver(), ...options.config };
    const ctx = new WalletContext(wallets, keys, sender, config);
    return new WalletAuth(
      host,
      wallets,
      new CredentialOperations(ctx),
      new CredentialVerification(ctx),
      new SessionOperations(ctx),
      new SignedRequests(ctx),
      new CustomerContacts(ctx, host.dataSource),
      new DelegatedKeyOperations(ctx, host.dataSource),
      directory,
    );
  }

  /** Closes the RPC clients to accounts, identity and cards (the host is stopped by the server). */
  close(): Promise<void> {
    return this.directory.close();
  }
}
