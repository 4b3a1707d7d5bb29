import type { FeeConfig, Mode, PlatformCurrencyConfig } from '@payments/contracts';

export interface PlatformConfigFields {
  umaDomain?: string;
  webhookEndpoint?: string;
  /** Absent = ACTIVE (events before webhooks existed carry none). */
  webhookEndpointStatus?: 'ACTIVE' | 'DISABLED';
  supportedCurrencies: PlatformCurrencyConfig[];
  /** Active platform fees (absent in events from before fee configs existed: none). */
  feeConfigs?: FeeConfig[];
}

export type PlatformConfigInitialized = {
  type: 'PlatformConfigInitialized.v1';
  data: PlatformConfigFields & { configId: string; platformId: string; mode: Mode; at: string };
};

/** Only the fields that changed; `webhookEndpoint: null` means it was removed. */
export type PlatformConfigUpdated = {
  type: 'PlatformConfigUpdated.v1';
  data: {
    /** `feeConfigs` is the whole list after the upsert, so consumers need no merge rule. */
    changes: { umaDomain?: string; webhookEndpoint?: string | null; supportedCurrencies?: PlatformCurrencyConfig[]; feeConfigs?: FeeConfig[] };
    at: string;
  };
};

/** The dispatcher saw 410 Gone from `endpoint`: nothing more is delivered to it until an endpoint is set again. */
export type WebhookEndpointDisabled = {
  type: 'WebhookEndpointDisabled.v1';
  data: { endpoint: string; reason: string; at: string };
};

export type PlatformConfigEvent = PlatformConfigInitialized | PlatformConfigUpdated | WebhookEndpointDisabled;
