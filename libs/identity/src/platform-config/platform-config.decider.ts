import { isDeepStrictEqual } from 'node:util';
import type { FieldError, Mode, PlatformCurrencyConfig } from '@payments/contracts';
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
}

export type PlatformConfigCommand =
  | { type: 'InitializeConfig'; configId: string; platformId: string; mode: Mode; defaults: PlatformConfigFields; now: string }
  | { type: 'UpdateConfig'; patch: ConfigPatch; now: string };

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
        const changes = changedFields(command.patch, state);
        return Object.keys(changes).length === 0 ? [] : [{ type: 'PlatformConfigUpdated.v1', data: { changes, at: command.now } }];
      }
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
        return next;
      }
      default:
        return assertNever(event);
    }
  },
};

/** Rules the DTO cannot express: known currencies, no duplicates, min <= max, https for production webhooks. */
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
  return errors;
}

function changedFields(patch: ConfigPatch, state: PlatformConfigFields): ConfigPatch {
  const changes: ConfigPatch = {};
  if (patch.umaDomain !== undefined && patch.umaDomain !== state.umaDomain) changes.umaDomain = patch.umaDomain;
  if (patch.webhookEndpoint !== undefined && patch.webhookEndpoint !== (state.webhookEndpoint ?? null)) changes.webhookEndpoint = patch.webhookEndpoint;
  if (patch.supportedCurrencies !== undefined && !isDeepStrictEqual(plain(patch.supportedCurrencies), plain(state.supportedCurrencies))) {
    changes.supportedCurrencies = patch.supportedCurrencies;
  }
  return changes;
}

/** DTO instances and jsonb-read objects compare by content, whatever their key order or prototype. */
const plain = (value: unknown): unknown => JSON.parse(JSON.stringify(value));
