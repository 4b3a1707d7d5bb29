import { readFileSync } from 'node:fs';
import { EMPTY_RAILS_CONFIG, parseRailsConfig, RailsConfig } from '@payments/contracts';
import { isIP } from 'node:net';
import { parseSecretHashKey } from './secret-key';

/** Process configuration from the environment (README lists every variable). Read once at boot. */
export interface RuntimeConfig {
  port: number;
  /** Where the gateway's API listens (HOST): loopback unless set; containers set 0.0.0.0. */
  host: string;
  /**
   * The gateway's ops port (GATEWAY_OPS_PORT): /healthz, /readyz, /metrics. In the embedded mode the one ops port of
   * the process, serving every app's checks and metrics. 0 picks a free port.
   */
  gatewayOpsPort: number;
  databaseUrl: string | undefined;
  kafkaBrokers: string[] | undefined;
  /** Prefix of every bus topic and consumer group, so deployments can share a Kafka cluster. */
  busNamespace: string;
  sandboxTimeScale: number;
  /** STATE_CACHE_ENTRIES_MAX: folded states each service keeps (stateCacheEntriesMax); checked at boot. */
  stateCacheEntriesMax: number;
  dataDir: string;
  embeddedPostgresPort: number;
  logLevel: string;
  /** Address the services' RPC and ops (/healthz, /readyz, /metrics) servers bind to. */
  rpcHost: string;
  /**
   * RPC_BIND_PORT: the port this process's RPC server binds, when it differs from the one its callers dial
   * (`<APP>_RPC_PORT`, e.g. a Service or load balancer in front of replicas sharing one host). Unset: the app's own
   * `<APP>_RPC_PORT`, as every deployment before it (see rpc-binding.ts).
   */
  rpcBindPort: number | undefined;
  /** Where the gateway reaches identity (a Service name in Kubernetes). */
  identityRpcHost: string;
  identityRpcPort: number;
  /** Where the gateway and other services reach accounts, and where accounts binds its RPC. */
  accountsRpcHost: string;
  accountsRpcPort: number;
  accountsOpsPort: number;
  /** Where the gateway reaches quoting, and where quoting binds its RPC. */
  quotingRpcHost: string;
  quotingRpcPort: number;
  quotingOpsPort: number;
  /** Where the gateway reaches payments, and where payments binds its RPC. */
  paymentsRpcHost: string;
  paymentsRpcPort: number;
  paymentsOpsPort: number;
  /** Where the gateway reaches wallet-auth (Embedded Wallet Auth), and where wallet-auth binds its RPC and ops servers. */
  walletAuthRpcHost: string;
  walletAuthRpcPort: number;
  walletAuthOpsPort: number;
  cardsRpcHost: string;
  cardsRpcPort: number;
  cardsOpsPort: number;
  agentsRpcHost: string;
  agentsRpcPort: number;
  agentsOpsPort: number;
  /** Lifetime of a quote (QUOTE_TTL_MS; real time, not scaled by SANDBOX_TIME_SCALE). */
  quoteTtlMs: number;
  /** How long one SCA challenge of a quote can be answered (SCA_CHALLENGE_TTL_MS; real time). */
  scaChallengeTtlMs: number;
  /** The identity service's ops server; 0 picks a free port (tests). */
  identityOpsPort: number;
  rpcTimeoutMs: number;
  /** Per-credential token bucket of the gateway; RATE_LIMIT_PER_SECOND=0 disables it. */
  rateLimitPerSecond: number;
  rateLimitBurst: number;
  /**
   * Failed HTTP Basic attempts allowed per client id and per source address in one window before the gateway answers
   * 429 without looking the credential up (AUTH_FAILURES_PER_CLIENT, AUTH_FAILURES_PER_ADDRESS, AUTH_FAILURE_WINDOW_SECONDS);
   * 0 disables a limit. Counted in each gateway instance's memory.
   */
  authFailures: { perClient: number; perAddress: number; windowSeconds: number };
  /** Express 'trust proxy' of the gateway (TRUST_PROXY): false (unset), a hop count, or addresses/CIDRs of the proxies. */
  trustProxy: TrustProxy;
  idempotencyTtlHours: number;
  /** Where the gateway reaches the webhook dispatcher (the sandbox TEST), and its ops server (9105). */
  webhookDispatcherRpcHost: string;
  webhookDispatcherRpcPort: number;
  webhookDispatcherOpsPort: number;
  /** Per delivery attempt (WEBHOOK_TIMEOUT_MS, 15 s); WEBHOOK_BACKOFF_SCALE multiplies retry delays and the 7-day window. */
  webhookTimeoutMs: number;
  webhookBackoffScale: number;
  /** The operator's email/SMS gateway for production contact-verification codes (unset: 503 on send). */
  contactDeliveryUrl: string | undefined;
  /**
   * EGRESS_ALLOW_PRIVATE_NETWORKS: outbound calls made for a tenant (webhooks, the sandbox TEST, contact codes) may
   * reach loopback, private, link-local… addresses. False unless set to `true`: local development only.
   */
  egressAllowPrivateNetworks: boolean;
  endUserTerms: { version: string; url: string } | undefined;
  /** The gateway's origin as clients reach it, e.g. https://api.example.com (links it hands out); unset: each request's Host. */
  publicUrl: string | undefined;
  /**
   * WebAuthn relying party of SCA passkeys and Embedded Wallet passkeys alike (SCA_PASSKEY_RP_ID / SCA_PASSKEY_ORIGINS);
   * defaults from PUBLIC_URL, else localhost.
   */
  scaPasskey: { rpId: string; origins: string[] };
  /** How long an agent device code can be redeemed (AGENT_DEVICE_CODE_TTL_SECONDS, default 15 minutes). */
  agentDeviceCodeTtlMs: number;
  /** How long an agent access token works after its redemption (AGENT_ACCESS_TOKEN_TTL_SECONDS, default 30 days). */
  agentAccessTokenTtlMs: number;
  /** The production stablecoin provider (BRALE_API_URL, BRALE_AUTH_URL); unset: production stablecoin calls answer 501. */
  braleProvider: { apiUrl: string; authUrl: string } | undefined;
  /**
   * Production's exchange rates (docs/quotes.md#rates-in-production): the operator table's maximum age
   * (RATE_MAX_AGE_SECONDS, default 3 days), and the ECB adapter (ECB_RATES_URL; unset: off), its refresh
   * (ECB_REFRESH_SECONDS, default 1 hour) and maximum age (ECB_MAX_AGE_SECONDS, default 4.5 days).
   */
  rates: { operatorMaxAgeSeconds: number; ecb?: { url: string; refreshSeconds: number; maxAgeSeconds: number } };
  /** Production rail connectors (RAILS_CONFIG_FILE, a JSON file, or RAILS_CONFIG inline; neither: no production rail). */
  rails: RailsConfig;
  /** Reviewers who must approve a production KYC/KYB submission (KYC_APPROVALS_REQUIRED: 1, or 2 for four-eyes, the default). */
  kycApprovalsRequired: 1 | 2;
}

/** What Express takes as 'trust proxy', restricted to the forms that cannot trust a client's own header by accident. */
export type TrustProxy = false | number | string[];

const TRUST_PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/**
 * TRUST_PROXY: unset or "false": request.ip is the peer's address; a hop count ("1": one ingress in front); or a
 * comma-separated list of the proxies' addresses or CIDRs (and Express' names loopback, linklocal, uniquelocal).
 * "true" (trust every hop) is refused: any client could then name its own address in X-Forwarded-For.
 */
export function trustProxyFrom(raw: string | undefined): TrustProxy {
  const value = raw?.trim() ?? '';
  if (value === '' || value === 'false') return false;
  if (/^\d+$/.test(value)) return Number(value);
  const entries = value.split(',').map((entry) => entry.trim()).filter(Boolean);
  const bad = entries.find((entry) => !TRUST_PROXY_NAMES.has(entry) && !isAddressOrCidr(entry));
  if (value === 'true' || bad !== undefined || entries.length === 0) {
    throw new Error(`TRUST_PROXY must be a hop count (e.g. 1), or a comma-separated list of proxy addresses or CIDRs (e.g. 10.0.0.0/8) or loopback, linklocal, uniquelocal; got "${raw}"`);
  }
  return entries;
}

function isAddressOrCidr(entry: string): boolean {
  const [address, prefix, extra] = entry.split('/');
  const version = isIP(address);
  if (version === 0 || extra !== undefined) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128);
}

function intFrom(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a non-negative integer, got "${raw}"`);
  return value;
}

/** The gateway's own origin is only a default: platforms whose apps run elsewhere list those origins. */
function scaPasskeyFrom(env: NodeJS.ProcessEnv, port: number): RuntimeConfig['scaPasskey'] {
  const publicUrl = env.PUBLIC_URL ? new URL(env.PUBLIC_URL) : undefined;
  const origins = env.SCA_PASSKEY_ORIGINS?.split(',').map((o) => o.trim()).filter(Boolean);
  return {
    rpId: env.SCA_PASSKEY_RP_ID || publicUrl?.hostname || 'localhost',
    origins: origins?.length ? origins : [publicUrl?.origin ?? `http://localhost:${port}`],
  };
}

/** `true` or `false` only: a typo in a security setting must stop the process, not fall back silently. */
function booleanFrom(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (raw === 'true' || raw === 'false') return raw === 'true';
  throw new Error(`${name} must be true or false, got "${raw}"`);
}

function positiveNumberFrom(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a number > 0, got "${raw}"`);
  return value;
}

/**
 * STATE_CACHE_ENTRIES_MAX (default 2,000; 0 turns the cache off): the folded states each service's write path keeps
 * for hot streams (StreamStateCache, least recently used evicted first), so its memory is bounded by this many
 * states per service. Measured (issue #30, sustained transfer-out bench, heap snapshots): a payments Transaction
 * weighs about 1.8 KB, so the payments service's cache is about 3.6 MB at the default bound, and fills to it after
 * 2,000 transactions; a ledger account weighs about 1 KB plus about 150 bytes per hold it ever closed (its
 * closed holds are its idempotency record, see closed-holds.ts).
 */
export const STATE_CACHE_ENTRIES_MAX_DEFAULT = 2_000;

export function stateCacheEntriesMax(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.STATE_CACHE_ENTRIES_MAX;
  if (raw === undefined || raw === '') return STATE_CACHE_ENTRIES_MAX_DEFAULT;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < 0) throw new Error(`STATE_CACHE_ENTRIES_MAX must be a whole number >= 0, not ${raw}`);
  return value;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): RuntimeConfig {
  const scaleRaw = env.SANDBOX_TIME_SCALE ?? '1';
  const sandboxTimeScale = Number(scaleRaw);
  if (!Number.isFinite(sandboxTimeScale) || sandboxTimeScale < 0) {
    throw new Error(`SANDBOX_TIME_SCALE must be a number >= 0, got "${scaleRaw}"`);
  }
  // Checked by every app, also those that derive nothing from it: a short key is refused everywhere at start.
  if (env.SECRET_HASH_KEY) parseSecretHashKey(env.SECRET_HASH_KEY);
  const brokers = env.KAFKA_BROKERS?.split(',').map((b) => b.trim()).filter(Boolean);
  return {
    port: intFrom(env, 'PORT', 3000),
    host: env.HOST || '127.0.0.1',
    gatewayOpsPort: intFrom(env, 'GATEWAY_OPS_PORT', 9100),
    databaseUrl: env.DATABASE_URL || undefined,
    kafkaBrokers: brokers && brokers.length > 0 ? brokers : undefined,
    busNamespace: env.BUS_NAMESPACE ?? '',
    sandboxTimeScale,
    stateCacheEntriesMax: stateCacheEntriesMax(env),
    dataDir: env.DATA_DIR || '.data',
    embeddedPostgresPort: intFrom(env, 'EMBEDDED_POSTGRES_PORT', 54329),
    logLevel: env.LOG_LEVEL || 'info',
    rpcHost: env.RPC_HOST || '127.0.0.1',
    rpcBindPort: env.RPC_BIND_PORT ? intFrom(env, 'RPC_BIND_PORT', 0) : undefined,
    identityRpcHost: env.IDENTITY_RPC_HOST || '127.0.0.1',
    accountsRpcHost: env.ACCOUNTS_RPC_HOST || '127.0.0.1',
    accountsRpcPort: intFrom(env, 'ACCOUNTS_RPC_PORT', 4102),
    accountsOpsPort: intFrom(env, 'ACCOUNTS_OPS_PORT', 9102),
    identityRpcPort: intFrom(env, 'IDENTITY_RPC_PORT', 4101),
    quotingRpcHost: env.QUOTING_RPC_HOST || '127.0.0.1',
    quotingRpcPort: intFrom(env, 'QUOTING_RPC_PORT', 4103),
    quotingOpsPort: intFrom(env, 'QUOTING_OPS_PORT', 9103),
    paymentsRpcHost: env.PAYMENTS_RPC_HOST || '127.0.0.1',
    paymentsRpcPort: intFrom(env, 'PAYMENTS_RPC_PORT', 4104),
    paymentsOpsPort: intFrom(env, 'PAYMENTS_OPS_PORT', 9104),
    walletAuthRpcHost: env.WALLET_AUTH_RPC_HOST || '127.0.0.1',
    walletAuthRpcPort: intFrom(env, 'WALLET_AUTH_RPC_PORT', 4106),
    walletAuthOpsPort: intFrom(env, 'WALLET_AUTH_OPS_PORT', 9106),
    cardsRpcHost: env.CARDS_RPC_HOST || '127.0.0.1',
    cardsRpcPort: intFrom(env, 'CARDS_RPC_PORT', 4107),
    cardsOpsPort: intFrom(env, 'CARDS_OPS_PORT', 9107),
    agentsRpcHost: env.AGENTS_RPC_HOST || '127.0.0.1',
    agentsRpcPort: intFrom(env, 'AGENTS_RPC_PORT', 4108),
    agentsOpsPort: intFrom(env, 'AGENTS_OPS_PORT', 9108),
    quoteTtlMs: Math.max(1, intFrom(env, 'QUOTE_TTL_MS', 300_000)),
    scaChallengeTtlMs: Math.max(1, intFrom(env, 'SCA_CHALLENGE_TTL_MS', 300_000)),
    identityOpsPort: intFrom(env, 'IDENTITY_OPS_PORT', 9101),
    rpcTimeoutMs: intFrom(env, 'RPC_TIMEOUT_MS', 5000),
    rateLimitPerSecond: intFrom(env, 'RATE_LIMIT_PER_SECOND', 50),
    rateLimitBurst: intFrom(env, 'RATE_LIMIT_BURST', 100),
    authFailures: {
      perClient: intFrom(env, 'AUTH_FAILURES_PER_CLIENT', 10),
      perAddress: intFrom(env, 'AUTH_FAILURES_PER_ADDRESS', 50),
      windowSeconds: Math.max(1, intFrom(env, 'AUTH_FAILURE_WINDOW_SECONDS', 60)),
    },
    trustProxy: trustProxyFrom(env.TRUST_PROXY),
    idempotencyTtlHours: Math.max(24, intFrom(env, 'IDEMPOTENCY_TTL_HOURS', 24)),
    webhookDispatcherRpcHost: env.WEBHOOK_DISPATCHER_RPC_HOST || '127.0.0.1',
    webhookDispatcherRpcPort: intFrom(env, 'WEBHOOK_DISPATCHER_RPC_PORT', 4105),
    webhookDispatcherOpsPort: intFrom(env, 'WEBHOOK_DISPATCHER_OPS_PORT', 9105),
    webhookTimeoutMs: Math.max(1, intFrom(env, 'WEBHOOK_TIMEOUT_MS', 15_000)),
    webhookBackoffScale: positiveNumberFrom(env, 'WEBHOOK_BACKOFF_SCALE', 1),
    contactDeliveryUrl: env.CONTACT_DELIVERY_URL || undefined,
    egressAllowPrivateNetworks: booleanFrom(env, 'EGRESS_ALLOW_PRIVATE_NETWORKS', false),
    publicUrl: env.PUBLIC_URL?.replace(/\/+$/, '') || undefined,
    scaPasskey: scaPasskeyFrom(env, intFrom(env, 'PORT', 3000)),
    endUserTerms: env.END_USER_TERMS_VERSION && env.END_USER_TERMS_URL ? { version: env.END_USER_TERMS_VERSION, url: env.END_USER_TERMS_URL } : undefined,
    agentDeviceCodeTtlMs: Math.max(1, intFrom(env, 'AGENT_DEVICE_CODE_TTL_SECONDS', 900)) * 1000,
    agentAccessTokenTtlMs: Math.max(1, intFrom(env, 'AGENT_ACCESS_TOKEN_TTL_SECONDS', 30 * 86_400)) * 1000,
    braleProvider: braleFrom(env),
    rates: ratesFrom(env),
    rails: railsFrom(env),
    kycApprovalsRequired: kycApprovalsRequiredFrom(env),
  };
}

/** A configuration that does not parse or validate stops the process: production must not run on half a rails setup. */
function railsFrom(env: NodeJS.ProcessEnv): RailsConfig {
  const file = env.RAILS_CONFIG_FILE?.trim();
  const inline = env.RAILS_CONFIG?.trim();
  if (file && inline) throw new Error('set RAILS_CONFIG_FILE or RAILS_CONFIG, not both');
  if (!file && !inline) return EMPTY_RAILS_CONFIG;
  const text = file ? readFileSync(file, 'utf8') : inline!;
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new Error(`${file ? `RAILS_CONFIG_FILE ${file}` : 'RAILS_CONFIG'} is not JSON: ${(error as Error).message}`);
  }
  return parseRailsConfig(raw);
}

/** Production's rate sources; a URL that is not http(s) stops the process rather than leaving production unpriced. */
function ratesFrom(env: NodeJS.ProcessEnv): RuntimeConfig['rates'] {
  const operatorMaxAgeSeconds = Math.max(1, intFrom(env, 'RATE_MAX_AGE_SECONDS', 3 * 86_400));
  const url = env.ECB_RATES_URL?.trim();
  if (!url) return { operatorMaxAgeSeconds };
  if (!/^https?:\/\/[^/]/.test(url)) throw new Error(`ECB_RATES_URL must be an http(s) URL, got "${url}"`);
  return {
    operatorMaxAgeSeconds,
    ecb: { url, refreshSeconds: Math.max(1, intFrom(env, 'ECB_REFRESH_SECONDS', 3600)), maxAgeSeconds: Math.max(1, intFrom(env, 'ECB_MAX_AGE_SECONDS', 108 * 3600)) },
  };
}

/** 1 or 2, nothing else: a typo must not quietly turn four-eyes off (or make approval impossible). */
function kycApprovalsRequiredFrom(env: NodeJS.ProcessEnv): 1 | 2 {
  const raw = env.KYC_APPROVALS_REQUIRED?.trim();
  if (raw === undefined || raw === '') return 2;
  if (raw === '1' || raw === '2') return Number(raw) as 1 | 2;
  throw new Error(`KYC_APPROVALS_REQUIRED must be 1 or 2, got "${raw}"`);
}

/** Both or neither: an API without its token endpoint could never authenticate. */
function braleFrom(env: NodeJS.ProcessEnv): { apiUrl: string; authUrl: string } | undefined {
  const apiUrl = env.BRALE_API_URL?.replace(/\/+$/, '');
  const authUrl = env.BRALE_AUTH_URL;
  if (!apiUrl && !authUrl) return undefined;
  if (!apiUrl || !authUrl) throw new Error('set both BRALE_API_URL and BRALE_AUTH_URL (or neither)');
  for (const [name, value] of [['BRALE_API_URL', apiUrl], ['BRALE_AUTH_URL', authUrl]]) {
    if (!/^https?:\/\//.test(value)) throw new Error(`${name} must be an http(s) URL`);
  }
  return { apiUrl, authUrl };
}
