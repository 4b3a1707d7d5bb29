import type { RailDirection } from './production-capabilities';

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

export interface RailConnectorConfig {
  id: string;
  kind: RailConnectorKind;
  routes: RailRoute[];
  /** File connectors: where payment files are written and where returns and statements arrive. */
  outboxDirectory?: string;
  inboxDirectory?: string;
  /** File connectors: how often pending payments are written into a file (default 60 s). */
  batchIntervalSeconds?: number;
  nacha?: NachaConnectorSettings;
  iso20022?: Iso20022ConnectorSettings;
  http?: HttpConnectorSettings;
}

export interface RailsConfig {
  connectors: RailConnectorConfig[];
}

export const EMPTY_RAILS_CONFIG: RailsConfig = { connectors: [] };

export const capabilitiesOf = (c: RailConnectorConfig): RailCapabilities => ({
  payout: c.routes.some((r) => r.directions.includes('PAYOUT')),
  pull: c.routes.some((r) => r.directions.includes('PULL')),
  returns: true,
  accountValidation: c.kind === 'NACHA',
  statuses: c.kind !== 'NACHA',
});

const ID = /^[a-z0-9][a-z0-9-]{0,39}$/;
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

function int(o: Record<string, unknown>, key: string, where: string, fallback: number, min: number, max: number): number {
  const v = o[key] ?? fallback;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) throw new RailsConfigError(where, `${key} must be an integer from ${min} to ${max}`);
  return v;
}

function obj(v: unknown, where: string): Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new RailsConfigError(where, 'must be an object');
  return v as Record<string, unknown>;
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
        apiKeyEnv: str(h, 'apiKeyEnv', `${where}.http`, /^[A-Z][A-Z0-9_]*$/),
        callbackSecretEnv: str(h, 'callbackSecretEnv', `${where}.http`, /^[A-Z][A-Z0-9_]*$/),
        timeoutMs: int(h, 'timeoutMs', `${where}.http`, 10_000, 100, 120_000),
        pollAfterSeconds: int(h, 'pollAfterSeconds', `${where}.http`, 300, 1, 86_400),
      },
    };
  }
  const files = {
    outboxDirectory: str(o, 'outboxDirectory', where),
    inboxDirectory: str(o, 'inboxDirectory', where),
    batchIntervalSeconds: int(o, 'batchIntervalSeconds', where, 60, 1, 86_400),
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

/** Validates a parsed configuration; any problem stops the process with a message naming the field. */
export function parseRailsConfig(raw: unknown): RailsConfig {
  const o = obj(raw, 'root');
  if (!Array.isArray(o.connectors)) throw new RailsConfigError('root', 'connectors must be an array');
  const connectors = o.connectors.map((c, i) => connector(c, i));
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
  return { connectors };
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
