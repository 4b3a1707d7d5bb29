import type { RailDirection } from './production-capabilities';
import { checkDepositAccounts, DepositAccountConfig, parseDepositAccount } from './deposit-accounts';

/**
 * The production rail connectors of a deployment (docs/production.md#rails): which connector moves which currency on
 * which payment rail, in which direction. Read once at start from RAILS_CONFIG_FILE (a JSON file) or RAILS_CONFIG
 * (the same JSON inline); secrets are never in it, only the names of the environment variables holding them.
 */
export type RailConnectorKind = 'NACHA' | 'ISO20022' | 'HTTP';

/** What a connector can do: the port's declared capabilities (GET /operator/v1/rails/connectors shows them). */
export interface RailCapabilities {
  /** Credits to an external account (transfer-out, quote payouts). */
  payout: boolean;
  /** Debits of an external account (transfer-in pulls). */
  pull: boolean;
  /** The rail reports returns after settlement (NACHA R.., camt/pacs returns, a bridge's RETURNED). */
  returns: boolean;
  /** Zero-amount account validation (ACH prenotes). */
  accountValidation: boolean;
  /** Positive status reports (pain.002, camt.054, a bridge's callbacks); without them settlement is by calendar. */
  statuses: boolean;
}

export interface RailRoute {
  currency: string;
  /** The published payment rail, e.g. ACH, SEPA, SEPA_INSTANT, WIRE. */
  paymentRail: string;
  directions: RailDirection[];
}

export interface NachaConnectorSettings {
  /** 9-digit routing number of the bank the files go to, and its name. */
  immediateDestination: string;
  immediateDestinationName: string;
  /** 9-digit routing number or 10-character company id of the originator, and its name. */
  immediateOrigin: string;
  immediateOriginName: string;
  companyName: string;
  /** 10 characters, usually '1' + the EIN. */
  companyIdentification: string;
  /** The ODFI's 8-digit routing identification (trace numbers start with it). */
  originatingDfi: string;
  /** Hour (UTC) of the effective entry date at which an unreturned entry is taken as settled (default 22). */
  settlementHourUtc: number;
  /** Banking days after settlement a prenote waits for a return before its account is verified (default 3). */
  prenoteWaitBankingDays: number;
  /** Banking days after settlement a pulled debit waits for a return before it is credited (default 2). */
  debitHoldBankingDays: number;
}

export interface Iso20022ConnectorSettings {
  initiatingPartyName: string;
  debtorName: string;
  debtorIban: string;
  debtorAgentBic: string;
}

export interface HttpConnectorSettings {
  baseUrl: string;
  /** Environment variables holding the bridge's API key and the Standard Webhooks secret of its callbacks. */
  apiKeyEnv: string;
  callbackSecretEnv: string;
  timeoutMs: number;
  /** A payment not final this long after its last news is polled (GET /payments/{id}). */
  pollAfterSeconds: number;
}

/** A bucket of an S3-compatible store (AWS S3, MinIO, Ceph RGW) and the key prefix a connector's files live under. */
export interface S3FileLocation {
  /** The store's URL (`https://minio.internal:9000`); AWS's regional endpoint when absent. */
  endpoint?: string;
  region: string;
  bucket: string;
  /** Key prefix, without leading or trailing `/` (`bank-ach/outbox`); '' is the bucket's root. */
  prefix: string;
  /** Path-style URLs (`endpoint/bucket/key`), as MinIO and Ceph usually need (default false: virtual-hosted). */
  forcePathStyle: boolean;
  /** Environment variables holding the access key id and the secret access key. */
  accessKeyIdEnv: string;
  secretAccessKeyEnv: string;
}

/** Where one side of a file connector keeps its files: a directory, or a bucket and prefix. */
export type FileLocation = { directory: string } | { s3: S3FileLocation };

export interface RailConnectorConfig {
  id: string;
  kind: RailConnectorKind;
  routes: RailRoute[];
  /**
   * File connectors: where payment files are written and where returns and statements arrive, each either a
   * directory (`outboxDirectory`, `inboxDirectory`) or a bucket (`outbox: { s3 }`, `inbox: { s3 }`).
   */
  outboxDirectory?: string;
  inboxDirectory?: string;
  outbox?: { s3: S3FileLocation };
  inbox?: { s3: S3FileLocation };
  /** File connectors: how often pending payments are written into a file (default 60 s). */
  batchIntervalSeconds?: number;
  /** File connectors: inbox files larger than this are not read, and raise a REFUSED_FILE exception (default 20 MiB). */
  inboxMaxBytes?: number;
  nacha?: NachaConnectorSettings;
  iso20022?: Iso20022ConnectorSettings;
  http?: HttpConnectorSettings;
}

export interface RailsConfig {
  connectors: RailConnectorConfig[];
  /** Where incoming money for production internal accounts arrives, per currency (deposit-accounts.ts); none when absent. */
  depositAccounts?: DepositAccountConfig[];
}

export const EMPTY_RAILS_CONFIG: RailsConfig = { connectors: [], depositAccounts: [] };

export const capabilitiesOf = (c: RailConnectorConfig): RailCapabilities => ({
  payout: c.routes.some((r) => r.directions.includes('PAYOUT')),
  pull: c.routes.some((r) => r.directions.includes('PULL')),
  returns: true,
  accountValidation: c.kind === 'NACHA',
  statuses: c.kind !== 'NACHA',
});

/** Where a file connector's `side` keeps its files, from whichever of the two forms the configuration gave. */
export function fileLocationOf(c: RailConnectorConfig, side: 'outbox' | 'inbox'): FileLocation {
  const s3 = c[side]?.s3;
  if (s3) return { s3 };
  const directory = side === 'outbox' ? c.outboxDirectory : c.inboxDirectory;
  if (!directory) throw new Error(`rails connector ${c.id}: no ${side} (${side}Directory or ${side}.s3)`);
  return { directory };
}

const ID = /^[a-z0-9][a-z0-9-]{0,39}$/;
const ENV_NAME = /^[A-Z][A-Z0-9_]*$/;
const CURRENCY = /^[A-Z]{3}$/;
const RAIL = /^[A-Z][A-Z0-9_]{1,39}$/;

class RailsConfigError extends Error {
  constructor(where: string, message: string) {
    super(`rails configuration: ${where}: ${message}`);
  }
}

function str(o: Record<string, unknown>, key: string, where: string, pattern?: RegExp): string {
  const v = o[key];
  if (typeof v !== 'string' || v.trim() === '') throw new RailsConfigError(where, `${key} must be a non-empty string`);
  if (pattern && !pattern.test(v)) throw new RailsConfigError(where, `${key} "${v}" must match ${pattern}`);
  return v;
}

/** 20 MiB: far above any return or status file a bank sends, far below what a service should hold in memory. */
export const DEFAULT_INBOX_MAX_BYTES = 20 * 1024 * 1024;

function int(o: Record<string, unknown>, key: string, where: string, fallback: number, min: number, max: number): number {
  const v = o[key] ?? fallback;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) throw new RailsConfigError(where, `${key} must be an integer from ${min} to ${max}`);
  return v;
}

function obj(v: unknown, where: string): Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new RailsConfigError(where, 'must be an object');
  return v as Record<string, unknown>;
}

function bool(o: Record<string, unknown>, key: string, where: string, fallback: boolean): boolean {
  const v = o[key] ?? fallback;
  if (typeof v !== 'boolean') throw new RailsConfigError(where, `${key} must be true or false`);
  return v;
}

function s3Location(v: unknown, where: string): S3FileLocation {
  const o = obj(v, where);
  const known = ['endpoint', 'region', 'bucket', 'prefix', 'forcePathStyle', 'accessKeyIdEnv', 'secretAccessKeyEnv'];
  const unknown = Object.keys(o).filter((k) => !known.includes(k));
  // Keys and secrets are never in the file: a stray field (say accessKeyId) is refused rather than ignored.
  if (unknown.length > 0) throw new RailsConfigError(where, `unknown field ${unknown.join(', ')} (fields: ${known.join(', ')}; credentials only by accessKeyIdEnv and secretAccessKeyEnv)`);
  if (typeof o.prefix !== 'string') throw new RailsConfigError(where, 'prefix must be a string (\'\' for the bucket\'s root)');
  if (o.prefix !== '' && (!/^[A-Za-z0-9._-]+(\/[A-Za-z0-9._-]+)*$/.test(o.prefix) || o.prefix.split('/').some((p) => p === '.' || p === '..'))) {
    throw new RailsConfigError(where, `prefix "${o.prefix}" must be segments of letters, digits, '.', '_' and '-' joined by '/', without a leading or trailing '/'`);
  }
  return {
    ...(o.endpoint !== undefined ? { endpoint: str(o, 'endpoint', where, /^https?:\/\/[^/]+\/?$/).replace(/\/$/, '') } : {}),
    region: str(o, 'region', where, /^[a-z0-9-]{1,40}$/),
    bucket: str(o, 'bucket', where, /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/),
    prefix: o.prefix,
    forcePathStyle: bool(o, 'forcePathStyle', where, false),
    accessKeyIdEnv: str(o, 'accessKeyIdEnv', where, ENV_NAME),
    secretAccessKeyEnv: str(o, 'secretAccessKeyEnv', where, ENV_NAME),
  };
}

/** One side of a file connector: `<side>Directory` or `<side>: { s3 }`, exactly one. */
function fileSide(o: Record<string, unknown>, side: 'outbox' | 'inbox', where: string): { directory: string } | { s3: S3FileLocation } {
  const directoryKey = `${side}Directory`;
  if (o[directoryKey] !== undefined && o[side] !== undefined) throw new RailsConfigError(where, `give ${directoryKey} or ${side}, not both`);
  if (o[side] === undefined) return { directory: str(o, directoryKey, where) };
  const s = obj(o[side], `${where}.${side}`);
  if (Object.keys(s).join() !== 's3') throw new RailsConfigError(`${where}.${side}`, 'must be { "s3": { … } } (or use ' + directoryKey + ' for a directory)');
  return { s3: s3Location(s.s3, `${where}.${side}.s3`) };
}

function route(v: unknown, where: string): RailRoute {
  const o = obj(v, where);
  const directions = o.directions;
  if (!Array.isArray(directions) || directions.length === 0 || directions.some((d) => d !== 'PAYOUT' && d !== 'PULL')) {
    throw new RailsConfigError(where, 'directions must list PAYOUT and/or PULL');
  }
  return { currency: str(o, 'currency', where, CURRENCY), paymentRail: str(o, 'paymentRail', where, RAIL), directions: [...new Set(directions as RailDirection[])] };
}

function connector(v: unknown, index: number): RailConnectorConfig {
  const where = `connectors[${index}]`;
  const o = obj(v, where);
  const id = str(o, 'id', where, ID);
  const kind = str(o, 'kind', where) as RailConnectorKind;
  if (!['NACHA', 'ISO20022', 'HTTP'].includes(kind)) throw new RailsConfigError(where, `kind must be NACHA, ISO20022 or HTTP, not "${kind}"`);
  if (!Array.isArray(o.routes) || o.routes.length === 0) throw new RailsConfigError(where, 'routes must list at least one route');
  const routes = o.routes.map((r, i) => route(r, `${where}.routes[${i}]`));
  const base: RailConnectorConfig = { id, kind, routes };
  if (kind === 'HTTP') {
    const h = obj(o.http, `${where}.http`);
    const baseUrl = str(h, 'baseUrl', `${where}.http`, /^https?:\/\/[^/]/);
    return {
      ...base,
      http: {
        baseUrl: baseUrl.replace(/\/+$/, ''),
        apiKeyEnv: str(h, 'apiKeyEnv', `${where}.http`, ENV_NAME),
        callbackSecretEnv: str(h, 'callbackSecretEnv', `${where}.http`, ENV_NAME),
        timeoutMs: int(h, 'timeoutMs', `${where}.http`, 10_000, 100, 120_000),
        pollAfterSeconds: int(h, 'pollAfterSeconds', `${where}.http`, 300, 1, 86_400),
      },
    };
  }
  const outbox = fileSide(o, 'outbox', where);
  const inbox = fileSide(o, 'inbox', where);
  if ('s3' in outbox && 's3' in inbox && overlaps(outbox.s3, inbox.s3)) {
    throw new RailsConfigError(`${where}.inbox.s3`, 'prefix must not be (inside) the outbox\'s prefix in the same bucket, nor contain it: the connector would import its own payment files');
  }
  const files = {
    ...('directory' in outbox ? { outboxDirectory: outbox.directory } : { outbox }),
    ...('directory' in inbox ? { inboxDirectory: inbox.directory } : { inbox }),
    batchIntervalSeconds: int(o, 'batchIntervalSeconds', where, 60, 1, 86_400),
    inboxMaxBytes: int(o, 'inboxMaxBytes', where, DEFAULT_INBOX_MAX_BYTES, 1_024, 1_073_741_824),
  };
  if (kind === 'NACHA') {
    const n = obj(o.nacha, `${where}.nacha`);
    const w = `${where}.nacha`;
    for (const r of routes) if (r.currency !== 'USD' || r.paymentRail !== 'ACH') throw new RailsConfigError(`${where}.routes`, 'a NACHA connector moves USD on ACH only');
    return {
      ...base,
      ...files,
      nacha: {
        immediateDestination: str(n, 'immediateDestination', w, /^\d{9}$/),
        immediateDestinationName: str(n, 'immediateDestinationName', w),
        immediateOrigin: str(n, 'immediateOrigin', w, /^(\d{9}|[A-Z0-9 ]{10})$/),
        immediateOriginName: str(n, 'immediateOriginName', w),
        companyName: str(n, 'companyName', w),
        companyIdentification: str(n, 'companyIdentification', w, /^[A-Z0-9 ]{10}$/),
        originatingDfi: str(n, 'originatingDfi', w, /^\d{8}$/),
        settlementHourUtc: int(n, 'settlementHourUtc', w, 22, 0, 23),
        prenoteWaitBankingDays: int(n, 'prenoteWaitBankingDays', w, 3, 0, 10),
        debitHoldBankingDays: int(n, 'debitHoldBankingDays', w, 2, 0, 10),
      },
    };
  }
  const s = obj(o.iso20022, `${where}.iso20022`);
  const w = `${where}.iso20022`;
  for (const r of routes) if (r.directions.includes('PULL')) throw new RailsConfigError(`${where}.routes`, 'an ISO20022 connector sends credit transfers (pain.001) only: PULL is not available');
  return {
    ...base,
    ...files,
    iso20022: {
      initiatingPartyName: str(s, 'initiatingPartyName', w),
      debtorName: str(s, 'debtorName', w),
      debtorIban: str(s, 'debtorIban', w, /^[A-Z]{2}\d{2}[A-Z0-9]{10,30}$/),
      debtorAgentBic: str(s, 'debtorAgentBic', w, /^[A-Z]{6}[A-Z0-9]{2}([A-Z0-9]{3})?$/),
    },
  };
}

function overlaps(a: S3FileLocation, b: S3FileLocation): boolean {
  if ((a.endpoint ?? '') !== (b.endpoint ?? '') || a.bucket !== b.bucket) return false;
  const [pa, pb] = [a.prefix, b.prefix].map((p) => (p === '' ? '' : `${p}/`));
  return pa.startsWith(pb) || pb.startsWith(pa);
}

/** Validates a parsed configuration; any problem stops the process with a message naming the field. */
export function parseRailsConfig(raw: unknown): RailsConfig {
  const o = obj(raw, 'root');
  if (!Array.isArray(o.connectors)) throw new RailsConfigError('root', 'connectors must be an array');
  const connectors = o.connectors.map((c, i) => connector(c, i));
  if (o.depositAccounts !== undefined && !Array.isArray(o.depositAccounts)) throw new RailsConfigError('root', 'depositAccounts must be an array');
  const fail = (where: string, message: string): never => {
    throw new RailsConfigError(where, message);
  };
  const depositAccounts = ((o.depositAccounts as unknown[] | undefined) ?? []).map((d, i) => parseDepositAccount(d, `depositAccounts[${i}]`, fail));
  checkDepositAccounts(depositAccounts, fail);
  const ids = new Set<string>();
  const routes = new Set<string>();
  for (const c of connectors) {
    if (ids.has(c.id)) throw new RailsConfigError(c.id, 'connector ids must be unique');
    ids.add(c.id);
    for (const r of c.routes) {
      for (const d of r.directions) {
        const key = `${d}:${r.currency}:${r.paymentRail}`;
        if (routes.has(key)) throw new RailsConfigError(c.id, `${r.currency} ${r.paymentRail} ${d} is routed to two connectors`);
        routes.add(key);
      }
    }
  }
  return { connectors, depositAccounts };
}

/**
 * The deployment's rails, set once at start by every service that asks (quoting before pricing a payout, payments
 * before submitting one). One deployment has one configuration, so a module-level registry is the whole mechanism.
 */
let configured: RailsConfig = EMPTY_RAILS_CONFIG;

export function configureProductionRails(config: RailsConfig): void {
  configured = config;
}

export function productionRails(): RailsConfig {
  return configured;
}

/** The deposit account configured for `currency`, if any: production internal accounts of it list funding instructions. */
export function depositAccountFor(currency: string): DepositAccountConfig | undefined {
  return configured.depositAccounts?.find((d) => d.currency === currency);
}

/** The connector and rail moving `currency` in `direction`: the requested rail if given and routed, else the first route. */
export function productionRailFor(currency: string, direction: RailDirection, paymentRail?: string | null): { connector: RailConnectorConfig; paymentRail: string } | undefined {
  for (const connector of configured.connectors) {
    for (const r of connector.routes) {
      if (r.currency !== currency || !r.directions.includes(direction)) continue;
      if (paymentRail && r.paymentRail !== paymentRail) continue;
      return { connector, paymentRail: r.paymentRail };
    }
  }
  return undefined;
}
