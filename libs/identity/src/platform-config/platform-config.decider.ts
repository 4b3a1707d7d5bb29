import { isDeepStrictEqual } from 'node:util';
import type { EmbeddedWalletConfig, FeeConfig, FieldError, Mode, PlatformCurrencyConfig } from '@payments/contracts';
import { assertNever, Decider, DomainError } from '@payments/eventsourcing';
import { findCurrency } from '@payments/money';
import { PlatformConfigEvent, PlatformConfigFields } from './platform-config.events';

export type PlatformConfigState =
  | { status: 'NONE' }
  | ({ status: 'ACTIVE'; configId: string; platformId: string; mode: Mode; createdAt: string; updatedAt: string } & PlatformConfigFields);

export interface ConfigPatch {
  umaDomain?: string;
  webhookEndpoint?: string | null;
  supportedCurrencies?: PlatformCurrencyConfig[];
  feeConfigs?: FeeConfig[];
  /** Merged into the current configuration: only the fields present change. */
  embeddedWalletConfig?: EmbeddedWalletConfig;
}

export type PlatformConfigCommand =
  | { type: 'InitializeConfig'; configId: string; platformId: string; mode: Mode; defaults: PlatformConfigFields; now: string }
  | { type: 'UpdateConfig'; patch: ConfigPatch; now: string }
  | { type: 'DisableWebhookEndpoint'; endpoint: string; reason: string; now: string };

export const platformConfigDecider: Decider<PlatformConfigState, PlatformConfigCommand, PlatformConfigEvent> = {
  initialState: { status: 'NONE' },

  decide(command, state) {
    switch (command.type) {
      case 'InitializeConfig':
        if (state.status !== 'NONE') return []; // idempotent: a config is initialized once
        return [
          {
            type: 'PlatformConfigInitialized.v1',
            data: { ...command.defaults, configId: command.configId, platformId: command.platformId, mode: command.mode, at: command.now },
          },
        ];
      case 'UpdateConfig': {
        if (state.status !== 'ACTIVE') return new DomainError('NOT_FOUND', 'platform configuration not found');
        const errors = validatePatch(command.patch, state.mode);
        if (errors.length > 0) return new DomainError('INVALID_INPUT', 'platform configuration is invalid', { errors });
        const foreignFee = command.patch.feeConfigs?.find((f) => f.sourceCurrency !== 'USD');
        if (foreignFee) return new DomainError('NOT_IMPLEMENTED', `fee configs are supported for USD only, not ${foreignFee.sourceCurrency}`);
        const changes = changedFields(command.patch, state);
        return Object.keys(changes).length === 0 ? [] : [{ type: 'PlatformConfigUpdated.v1', data: { changes, at: command.now } }];
      }
      case 'DisableWebhookEndpoint':
        // Only the endpoint that answered 410: one set meanwhile is a new endpoint and stays enabled.
        if (state.status !== 'ACTIVE' || state.webhookEndpoint !== command.endpoint || state.webhookEndpointStatus === 'DISABLED') return [];
        return [{ type: 'WebhookEndpointDisabled.v1', data: { endpoint: command.endpoint, reason: command.reason, at: command.now } }];
      default:
        return assertNever(command);
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'PlatformConfigInitialized.v1': {
        const { at, ...fields } = event.data;
        return { status: 'ACTIVE', ...fields, createdAt: at, updatedAt: at };
      }
      case 'PlatformConfigUpdated.v1': {
        if (state.status !== 'ACTIVE') return state;
        const { webhookEndpoint, ...rest } = event.data.changes;
        const next = { ...state, ...rest, updatedAt: event.data.at };
        if (webhookEndpoint === null) delete next.webhookEndpoint;
        else if (webhookEndpoint !== undefined) next.webhookEndpoint = webhookEndpoint;
        if (webhookEndpoint !== undefined) delete next.webhookEndpointStatus; // setting (or removing) the endpoint re-enables delivery
        return next;
      }
      case 'WebhookEndpointDisabled.v1':
        return state.status === 'ACTIVE' ? { ...state, webhookEndpointStatus: 'DISABLED', updatedAt: event.data.at } : state;
      default:
        return assertNever(event);
    }
  },
};

/**
 * Rules the DTO cannot express: known currencies, no duplicates, min <= max, https for production webhooks. The
 * embedded-wallet ranges are the DTO's too, checked again because wallet-auth generates OTPs from what the log holds.
 */
function validatePatch(patch: ConfigPatch, mode: Mode): FieldError[] {
  const errors: FieldError[] = [];
  if (patch.webhookEndpoint && mode === 'PRODUCTION' && !patch.webhookEndpoint.toLowerCase().startsWith('https://')) {
    errors.push({ field: 'webhookEndpoint', message: 'production webhook endpoints must use https' });
  }
  const seen = new Set<string>();
  patch.supportedCurrencies?.forEach((c, i) => {
    if (!findCurrency(c.currencyCode)) errors.push({ field: `supportedCurrencies.${i}.currencyCode`, message: `unsupported currency ${c.currencyCode}` });
    if (seen.has(c.currencyCode)) errors.push({ field: `supportedCurrencies.${i}.currencyCode`, message: `duplicate currency ${c.currencyCode}` });
    if (c.minAmount > c.maxAmount) errors.push({ field: `supportedCurrencies.${i}.minAmount`, message: 'minAmount must not exceed maxAmount' });
    seen.add(c.currencyCode);
  });
  const feeKeys = new Set<string>();
  patch.feeConfigs?.forEach((f, i) => {
    if (f.fixedFee.currency !== f.sourceCurrency) errors.push({ field: `feeConfigs.${i}.fixedFee.currency`, message: `the fixed fee is charged in the source currency ${f.sourceCurrency}` });
    if (feeKeys.has(`${f.feeType}/${f.sourceCurrency}`)) errors.push({ field: `feeConfigs.${i}`, message: `duplicate ${f.feeType} config for ${f.sourceCurrency}` });
    feeKeys.add(`${f.feeType}/${f.sourceCurrency}`);
  });
  if (patch.embeddedWalletConfig !== undefined) errors.push(...validateEmbeddedWalletConfig(patch.embeddedWalletConfig));
  return errors;
}

type EmbeddedWalletField = keyof EmbeddedWalletConfig;
type FieldRule = { kind: 'integer'; min: number; max: number } | { kind: 'boolean' } | { kind: 'string'; maxLength: number };

/** The published EmbeddedWalletConfig, field by field (in the order a merged configuration keeps them). */
const EMBEDDED_WALLET_FIELDS: Record<EmbeddedWalletField, FieldRule> = {
  appName: { kind: 'string', maxLength: 255 },
  otpLength: { kind: 'integer', min: 4, max: 12 },
  alphanumeric: { kind: 'boolean' },
  expirationSeconds: { kind: 'integer', min: 1, max: 86_400 },
  sendFromEmailAddress: { kind: 'string', maxLength: 255 },
  sendFromEmailSenderName: { kind: 'string', maxLength: 255 },
  replyToEmailAddress: { kind: 'string', maxLength: 255 },
  logoUrl: { kind: 'string', maxLength: 512 },
};

function validateEmbeddedWalletConfig(config: EmbeddedWalletConfig): FieldError[] {
  if (config === null || typeof config !== 'object' || Array.isArray(config)) return [{ field: 'embeddedWalletConfig', message: 'embeddedWalletConfig must be an object' }];
  const errors: FieldError[] = [];
  for (const [name, value] of Object.entries(config) as [string, unknown][]) {
    const field = `embeddedWalletConfig.${name}`;
    const rule = EMBEDDED_WALLET_FIELDS[name as EmbeddedWalletField] as FieldRule | undefined;
    if (!rule) errors.push({ field, message: `unknown field ${field}` });
    else if (value === undefined) continue;
    else if (value === null) errors.push({ field, message: `${name} cannot be null: leave it out to keep its value` });
    else if (rule.kind === 'integer' && (!Number.isInteger(value) || (value as number) < rule.min || (value as number) > rule.max)) {
      errors.push({ field, message: `${name} must be an integer from ${rule.min} to ${rule.max}` });
    } else if (rule.kind === 'boolean' && typeof value !== 'boolean') errors.push({ field, message: `${name} must be a boolean` });
    else if (rule.kind === 'string' && (typeof value !== 'string' || value.length > rule.maxLength)) {
      errors.push({ field, message: `${name} must be a string of at most ${rule.maxLength} characters` });
    }
  }
  return errors;
}

/** The fields sent replace those held; the others stay. Only published fields, in one order, so equal configs compare equal. */
function mergeEmbeddedWalletConfig(current: EmbeddedWalletConfig | undefined, patch: EmbeddedWalletConfig): EmbeddedWalletConfig {
  const merged: Record<string, unknown> = {};
  for (const name of Object.keys(EMBEDDED_WALLET_FIELDS) as EmbeddedWalletField[]) {
    const value = patch[name] !== undefined ? patch[name] : current?.[name];
    if (value !== undefined) merged[name] = value;
  }
  return merged as EmbeddedWalletConfig;
}

/** Upsert by (feeType, sourceCurrency); a config with zero fees deactivates (removes) its key. */
function mergeFeeConfigs(current: FeeConfig[], patch: FeeConfig[]): FeeConfig[] {
  const key = (f: FeeConfig) => `${f.feeType}/${f.sourceCurrency}`;
  const merged = new Map(current.map((f) => [key(f), f]));
  for (const f of patch) {
    if (f.variableFeeBps === 0 && f.fixedFee.amount === 0) merged.delete(key(f));
    else merged.set(key(f), { feeType: f.feeType, sourceCurrency: f.sourceCurrency, variableFeeBps: f.variableFeeBps, fixedFee: { amount: f.fixedFee.amount, currency: f.fixedFee.currency } });
  }
  return [...merged.values()].sort((a, b) => key(a).localeCompare(key(b)));
}

function changedFields(patch: ConfigPatch, state: PlatformConfigFields): ConfigPatch {
  const changes: ConfigPatch = {};
  if (patch.umaDomain !== undefined && patch.umaDomain !== state.umaDomain) changes.umaDomain = patch.umaDomain;
  // Setting the same endpoint again re-enables one disabled by a 410, so it counts as a change then.
  const endpointChanged = patch.webhookEndpoint !== (state.webhookEndpoint ?? null) || (patch.webhookEndpoint !== null && state.webhookEndpointStatus === 'DISABLED');
  if (patch.webhookEndpoint !== undefined && endpointChanged) changes.webhookEndpoint = patch.webhookEndpoint;
  if (patch.supportedCurrencies !== undefined && !isDeepStrictEqual(plain(patch.supportedCurrencies), plain(state.supportedCurrencies))) {
    changes.supportedCurrencies = patch.supportedCurrencies;
  }
  if (patch.feeConfigs !== undefined) {
    const merged = mergeFeeConfigs(state.feeConfigs ?? [], patch.feeConfigs);
    if (!isDeepStrictEqual(merged, plain(state.feeConfigs ?? []))) changes.feeConfigs = merged;
  }
  if (patch.embeddedWalletConfig !== undefined) {
    // `{}` on a platform without one creates it (with every default): the published "update or create".
    const merged = mergeEmbeddedWalletConfig(state.embeddedWalletConfig, patch.embeddedWalletConfig);
    if (state.embeddedWalletConfig === undefined || !isDeepStrictEqual(merged, plain(state.embeddedWalletConfig))) changes.embeddedWalletConfig = merged;
  }
  return changes;
}

/** DTO instances and jsonb-read objects compare by content, whatever their key order or prototype. */
const plain = (value: unknown): unknown => JSON.parse(JSON.stringify(value));
